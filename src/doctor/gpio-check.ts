import type { Check } from './check.js';
import { gpioReport } from '../gpio/doctor.js';

/** The GPIO line of plain `hark doctor`. Without GPIO hark still runs (simulated button), so that is a warning unless gpio.driver is onoff. */
export const gpioCheck: Check = {
  id: 'gpio',
  title: 'GPIO button and LED',
  async run(ctx) {
    const g = ctx.loaded?.config.gpio;
    if (!g) return { status: 'warn', detail: 'not checked: the config is invalid', fix: 'fix the config first' };
    if (g.driver === 'simulated') return { status: 'ok', detail: 'gpio.driver is simulated: no pins used' };
    const r = gpioReport({ sysfsRoot: g.sysfsRoot, buttonPin: g.buttonPin, ledPin: g.ledPin, buttonActiveLow: g.buttonActiveLow });
    const pins = r.pins.map((p) => `${p.role} BCM ${p.bcm} -> sysfs ${p.sysfs ?? '?'}`).join(', ');
    if (r.ok) return { status: 'ok', detail: `${pins} on ${r.chip!.label}` };
    const noChip = !r.chip;
    const fix = noChip ? 'on a Pi, check the kernel has sysfs GPIO; elsewhere set gpio.driver: simulated' : 'see `hark doctor gpio`';
    return {
      status: noChip && g.driver === 'auto' ? 'warn' : 'fail',
      detail: `${r.problems.join('; ')}${noChip && g.driver === 'auto' ? ' (hark will use the simulated button)' : ''}`,
      fix,
    };
  },
};
