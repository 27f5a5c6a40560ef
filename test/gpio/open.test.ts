import { describe, expect, it } from 'vitest';
import { parseConfigText } from '../../src/config/load.js';
import { memoryLogger } from '../../src/core/log.js';
import { openGpio } from '../../src/gpio/open.js';
import { SimulatedGpio } from '../../src/gpio/simulated-driver.js';
import { BOARDS, fakeSysfs } from './fake-sysfs.js';

const gpio = (yaml: string) => parseConfigText(`gpio:\n${yaml}`, 'hark.yaml').gpio;

describe('choosing the GPIO driver', () => {
  it('auto on a machine without GPIO: the simulated button, with a warning saying how to press it', async () => {
    const logger = memoryLogger();
    const root = fakeSysfs('open-none', []);
    const driver = await openGpio(gpio(`  sysfsRoot: ${root}\n`), { logger });
    expect(driver).toBeInstanceOf(SimulatedGpio);
    expect(logger.lines).toHaveLength(1);
    expect(JSON.parse(logger.lines[0]!)).toMatchObject({
      level: 'warn',
      msg: expect.stringMatching(/no GPIO found; using the simulated button.*space bar.*POST \/api\/button/),
    });
  });

  it('simulated when asked, without a warning', async () => {
    const logger = memoryLogger();
    expect((await openGpio(gpio('  driver: simulated\n'), { logger })).kind).toBe('simulated');
    expect(logger.lines).toEqual([]);
  });

  it('onoff insists: no chip is an error with the reason', async () => {
    const root = fakeSysfs('open-onoff-none', []);
    await expect(openGpio(gpio(`  driver: onoff\n  sysfsRoot: ${root}\n`), { logger: memoryLogger() })).rejects.toThrow(
      /^gpio.driver is onoff but no Raspberry Pi GPIO chip under/,
    );
  });

  it('onoff only works on /sys/class/gpio (the path is fixed inside onoff)', async () => {
    const root = fakeSysfs('open-onoff-pi4', BOARDS.pi4);
    await expect(openGpio(gpio(`  sysfsRoot: ${root}\n`), { logger: memoryLogger() })).rejects.toThrow(
      `gpio.sysfsRoot is ${root}, but the onoff driver can only use /sys/class/gpio`,
    );
  });

  it('the simulated LED can be watched (the --tty status line)', () => {
    const d = new SimulatedGpio();
    const seen: boolean[] = [];
    d.onLed((on) => seen.push(on));
    d.setLed(true);
    d.setLed(true);
    d.setLed(false);
    expect(seen).toEqual([true, false]);
  });
});
