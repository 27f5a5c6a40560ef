import type { GpioDriver } from './driver.js';

/**
 * A button and an LED for a machine with no GPIO (a laptop, CI, a Pi without the wiring).
 * press()/release() are what `hark run --tty` (space bar) and the debug server's
 * `POST /api/button {"state":"down"|"up"}` call; the LED's state can be read back.
 */
export class SimulatedGpio implements GpioDriver {
  readonly kind = 'simulated' as const;
  readonly description = 'simulated button and LED (no GPIO)';
  private pressed = false;
  private led = false;
  private readonly listeners: ((pressed: boolean) => void)[] = [];
  private readonly ledListeners: ((on: boolean) => void)[] = [];

  readButton(): boolean {
    return this.pressed;
  }

  onButton(cb: (pressed: boolean) => void): void {
    this.listeners.push(cb);
  }

  /** The LED as it is now; watch it with onLed (the --tty status line). */
  get ledOn(): boolean {
    return this.led;
  }

  onLed(cb: (on: boolean) => void): void {
    this.ledListeners.push(cb);
  }

  setLed(on: boolean): void {
    if (on === this.led) return;
    this.led = on;
    for (const l of this.ledListeners) l(on);
  }

  press(): void {
    this.set(true);
  }

  release(): void {
    this.set(false);
  }

  /** For the debug API: {"state":"down"|"up"}. Throws on anything else, naming what was wrong. */
  apply(body: unknown): void {
    const state = typeof body === 'object' && body !== null ? (body as { state?: unknown }).state : undefined;
    if (state === 'down') return this.press();
    if (state === 'up') return this.release();
    throw new TypeError(`button state must be "down" or "up", got ${JSON.stringify(state)}`);
  }

  private set(pressed: boolean): void {
    if (pressed === this.pressed) return;
    this.pressed = pressed;
    for (const l of this.listeners) l(pressed);
  }

  async close(): Promise<void> {
    this.setLed(false);
  }
}
