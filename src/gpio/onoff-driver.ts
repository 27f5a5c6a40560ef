import { HarkError, errorMessage } from '../core/errors.js';
import type { GpioDriver } from './driver.js';
import type { MappedPin } from './pinmap.js';

/** onoff writes to this path and no other (GPIO_ROOT_PATH in onoff.js). */
export const ONOFF_SYSFS_ROOT = '/sys/class/gpio';

interface OnoffGpio {
  readSync(): 0 | 1;
  writeSync(v: 0 | 1): void;
  watch(cb: (err: Error | null | undefined, value: 0 | 1) => void): void;
  unwatchAll(): void;
  unexport(): void;
}
type OnoffModule = {
  Gpio: new (gpio: number, direction: 'in' | 'out' | 'high' | 'low', edge?: 'none' | 'both', options?: { activeLow?: boolean }) => OnoffGpio;
};

/**
 * The Pi's button and LED through `onoff` (sysfs GPIO, epoll for edges). Pins come in already
 * mapped from BCM numbers to sysfs numbers (pinmap.ts): since kernel 6.6 the chip's base is 512 on
 * a Pi 4 and 571 on a Pi 5, so a BCM number is never a sysfs number.
 *
 * onoff hard-codes /sys/class/gpio, so this driver is only for real hardware; the pin mapping and
 * `hark doctor gpio` take a sysfs root and are tested on fake trees. onoff's own debounce is not
 * used: debouncing is hark's pure button logic, on hark's clock.
 *
 * The internal pull-up cannot be set through sysfs: the Pi's firmware sets it at boot from
 * /boot/firmware/config.txt (`gpio=17=ip,pu`).
 */
export async function openOnoff(opts: {
  button: MappedPin;
  buttonActiveLow: boolean;
  led: MappedPin;
  ledActiveLow: boolean;
  sysfsRoot: string;
}): Promise<GpioDriver> {
  if (opts.sysfsRoot.replace(/\/+$/, '') !== ONOFF_SYSFS_ROOT) {
    throw new HarkError(
      `gpio.sysfsRoot is ${opts.sysfsRoot}, but the onoff driver can only use ${ONOFF_SYSFS_ROOT} (set gpio.driver: simulated to run without GPIO)`,
    );
  }
  let mod: OnoffModule;
  try {
    // Loaded only here: its native epoll addon is of no use (and may not load) off a Pi.
    mod = (await import('onoff')) as unknown as OnoffModule;
  } catch (err) {
    throw new HarkError(`cannot load the onoff GPIO library: ${errorMessage(err)}`);
  }
  const open = (what: string, pin: MappedPin, make: () => OnoffGpio): OnoffGpio => {
    try {
      return make();
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      const why =
        code === 'EACCES' || code === 'EPERM'
          ? "permission denied (add hark's user to the gpio group)"
          : code === 'EBUSY'
            ? 'in use by another program or driver'
            : errorMessage(err);
      throw new HarkError(`cannot open the ${what} on BCM ${pin.bcm} (sysfs ${pin.sysfs} on ${pin.chip.label}): ${why}`);
    }
  };
  const button = open('button', opts.button, () => new mod.Gpio(opts.button.sysfs, 'in', 'both', { activeLow: opts.buttonActiveLow }));
  let led: OnoffGpio;
  try {
    led = open('LED', opts.led, () => new mod.Gpio(opts.led.sysfs, 'out', 'none', { activeLow: opts.ledActiveLow }));
  } catch (err) {
    button.unexport();
    throw err;
  }
  const listeners: ((pressed: boolean) => void)[] = [];
  let last = button.readSync() === 1;
  button.watch((err, value) => {
    if (err) return;
    const pressed = value === 1;
    // epoll may report an edge whose level we already have; only changes go on.
    if (pressed === last) return;
    last = pressed;
    for (const l of listeners) l(pressed);
  });
  return {
    kind: 'onoff',
    description: `button BCM ${opts.button.bcm} (sysfs ${opts.button.sysfs}), LED BCM ${opts.led.bcm} (sysfs ${opts.led.sysfs}) on ${opts.button.chip.label}`,
    readButton: () => button.readSync() === 1,
    onButton: (cb) => void listeners.push(cb),
    setLed: (on) => led.writeSync(on ? 1 : 0),
    close: async () => {
      button.unwatchAll();
      try {
        led.writeSync(0);
      } catch {
        // already gone
      }
      button.unexport();
      led.unexport();
    },
  };
}
