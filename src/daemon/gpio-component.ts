import type { HarkConfig } from '../config/schema.js';
import type { Bus } from '../core/bus.js';
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/log.js';
import { wireButton, type ButtonTargets } from '../gpio/button-controller.js';
import type { GpioDriver } from '../gpio/driver.js';
import { openGpio } from '../gpio/open.js';
import { StatusLed } from '../gpio/status-led.js';
import type { Component } from '../path/lifecycle.js';

/**
 * The button and the status LED (a simulated driver on machines without GPIO): the button's gestures
 * go to `targets`; `opened` hands the driver on (`hark run --tty` presses it, the debug page too) and
 * the LED (the router sets its flags).
 */
export function gpioComponent(
  o: { config: HarkConfig; bus: Bus; clock: Clock; log: Logger },
  targets: ButtonTargets,
  opened: (parts: { driver: GpioDriver; led: StatusLed } | null) => void,
): Component {
  const { config } = o;
  let driver: GpioDriver | null = null;
  let led: StatusLed | null = null;
  return {
    name: 'gpio',
    start: async () => {
      const d = await openGpio(config.gpio, { logger: o.log.child({ component: 'gpio' }) });
      driver = d;
      o.log.info('gpio', { driver: d.kind, detail: d.description });
      wireButton({ driver: d, clock: o.clock, bus: o.bus, settings: config.gpio, logger: o.log.child({ component: 'button' }), targets });
      led = new StatusLed({ bus: o.bus, clock: o.clock, write: (on) => d.setLed(on), idle: config.gpio.ledIdle });
      opened({ driver: d, led });
    },
    stop: async () => {
      led?.close();
      led = null;
      opened(null);
      await driver?.close();
      driver = null;
    },
  };
}
