import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { formatGpioReport, gpioReport } from '../../src/gpio/doctor.js';
import { HARK_BIN, outputDir } from '../support/paths.js';
import { BOARDS, fakeSysfs } from './fake-sysfs.js';

const run = promisify(execFile);

/** `hark doctor gpio` as a technician runs it, on a fake tree and an empty config (defaults). */
async function doctor(args: string[], configText = '') {
  const dir = outputDir('doctor-gpio');
  const config = join(dir, 'hark.yaml');
  writeFileSync(config, configText);
  try {
    const r = await run(process.execPath, [HARK_BIN, 'doctor', 'gpio', '-c', config, ...args], { cwd: dir });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('hark doctor gpio', () => {
  it('prints the pin, the chip and the sysfs number for the button and the LED (Pi 5)', async () => {
    const root = fakeSysfs('doctor-pi5', BOARDS.pi5, { exported: [588] });
    const r = await doctor(['--sysfs-root', root]);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines.slice(0, 4)).toEqual([
      `sysfs root: ${root}`,
      'chip: gpiochip571 "pinctrl-rp1" (base 571, 54 lines)',
      'button: BCM 17 -> sysfs 588 on pinctrl-rp1 (already exported)',
      'LED   : BCM 27 -> sysfs 598 on pinctrl-rp1',
    ]);
    expect(lines[4]).toMatch(/^note: the button is active low: .*gpio=17=ip,pu in \/boot\/firmware\/config\.txt/);
  });

  it('--json gives the same as data; the pins come from the config', async () => {
    const root = fakeSysfs('doctor-pi4', BOARDS.pi4);
    const r = await doctor(['--sysfs-root', root, '--json'], 'gpio:\n  buttonPin: 22\n  ledPin: 5\n');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report).toMatchObject({
      ok: true,
      chip: { name: 'gpiochip512', label: 'pinctrl-bcm2711', base: 512, ngpio: 58 },
      pins: [
        { role: 'button', bcm: 22, sysfs: 534, chipLabel: 'pinctrl-bcm2711', exported: false },
        { role: 'led', bcm: 5, sysfs: 517, chipLabel: 'pinctrl-bcm2711', exported: false },
      ],
      problems: [],
    });
  });

  it('says why it cannot, and exits non-zero, when there is no Pi chip', async () => {
    const root = fakeSysfs('doctor-none', [{ name: 'gpiochip0', label: 'gpio-sim', base: 0, ngpio: 16 }]);
    const r = await doctor(['--sysfs-root', root]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('chip: none found');
    expect(r.stdout).toContain('button: BCM 17: cannot use: no GPIO chip to map it on');
    expect(r.stdout).toContain(`problem: no Raspberry Pi GPIO chip under ${root}`);
  });

  it("a pin out of the chip's range is a problem naming the pin", () => {
    const root = fakeSysfs('doctor-small-chip', [{ name: 'gpiochip512', label: 'pinctrl-bcm2835', base: 512, ngpio: 20 }]);
    const r = gpioReport({ sysfsRoot: root, buttonPin: 17, ledPin: 27 });
    expect(r.ok).toBe(false);
    expect(r.pins[0]).toMatchObject({ bcm: 17, sysfs: 529 });
    expect(r.problems).toEqual(['led: BCM 27 is out of range for pinctrl-bcm2835 (gpiochip512 has lines 0 to 19)']);
    expect(formatGpioReport(r)).toContain('LED   : BCM 27: cannot use: BCM 27 is out of range for pinctrl-bcm2835 (gpiochip512 has lines 0 to 19)');
  });

  it('a bad config is refused before anything is checked', async () => {
    const r = await doctor([], 'gpio:\n  buttonPin: 40\n');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('gpio.buttonPin: must be a whole number between 0 and 27');
  });
});
