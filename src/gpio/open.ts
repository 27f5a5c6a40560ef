import type { GpioConfig } from './config.js';
import { HarkError } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import type { GpioDriver } from './driver.js';
import { openOnoff } from './onoff-driver.js';
import { findHeaderChip, mapPin, PinMapError } from './pinmap.js';
import { SimulatedGpio } from './simulated-driver.js';

/**
 * The GPIO driver the config asks for. `auto` uses the Pi's pins when the header chip is found and
 * falls back to the simulated button with a warning (so hark still runs on a laptop or a Pi that
 * is not wired yet); `onoff` insists on the real pins and fails with the reason.
 */
export async function openGpio(cfg: GpioConfig, deps: { logger: Logger }): Promise<GpioDriver> {
  if (cfg.driver === 'simulated') return new SimulatedGpio();
  let chip;
  try {
    chip = findHeaderChip(cfg.sysfsRoot);
  } catch (err) {
    if (!(err instanceof PinMapError)) throw err;
    if (cfg.driver === 'onoff') throw new HarkError(`gpio.driver is onoff but ${err.message}`);
    deps.logger.warn('no GPIO found; using the simulated button and LED (space bar with `hark run --tty`, POST /api/button on the debug server)', {
      reason: err.message,
    });
    return new SimulatedGpio();
  }
  try {
    const button = mapPin(cfg.buttonPin, chip);
    const led = mapPin(cfg.ledPin, chip);
    return await openOnoff({ button, led, buttonActiveLow: cfg.buttonActiveLow, ledActiveLow: cfg.ledActiveLow, sysfsRoot: cfg.sysfsRoot });
  } catch (err) {
    if (err instanceof PinMapError) throw new HarkError(`gpio: ${err.message}`);
    throw err;
  }
}
