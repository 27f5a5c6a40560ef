import { z } from 'zod';
import { flag, intBetween, ms, nonEmpty, oneOf } from '../core/config-fields.js';

/** The 40-pin header carries BCM 0 to 27 on every Pi from the B+ to the Pi 5. */
const headerPin = (def: number) => intBetween(0, 27, def);

/** gpio: the push-to-talk button and the status LED. */
export const gpioSection = z
  .strictObject({
    /** `auto` uses the Pi's GPIO when it is there and the simulated button otherwise (with a warning). */
    driver: oneOf(['auto', 'onoff', 'simulated'] as const, 'auto'),
    /** Where the kernel's sysfs GPIO lives; changed only for tests and `hark doctor gpio --sysfs-root`. */
    sysfsRoot: nonEmpty('/sys/class/gpio'),
    /** BCM number (not the physical pin): BCM 17 is physical pin 11. */
    buttonPin: headerPin(17),
    /** Wired to ground with a pull-up, so pressed reads 0. */
    buttonActiveLow: flag(true),
    /** A level must hold this long to count (contact bounce). */
    debounceMs: ms(30, 0, 500),
    /** A press shorter than this is a tap (stops hark while it speaks). */
    tapMaxMs: ms(400, 50, 3000),
    /** Holding this long toggles mute (the microphone is closed). */
    muteHoldMs: ms(5000, 1000, 60_000),
    /** BCM number of the status LED: BCM 27 is physical pin 13. */
    ledPin: headerPin(27),
    ledActiveLow: flag(false),
    /** Idle: dark, or a short blip every second so a glance tells hark is alive. */
    ledIdle: oneOf(['heartbeat', 'off'] as const, 'heartbeat'),
  })
  .superRefine((cfg, ctx) => {
    if (cfg.buttonPin === cfg.ledPin)
      ctx.addIssue({ code: 'custom', path: ['ledPin'], message: `must differ from gpio.buttonPin (both are BCM ${cfg.ledPin})` });
  })
  .prefault({} as never);

export type GpioConfig = z.infer<typeof gpioSection>;
