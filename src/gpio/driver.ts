/**
 * The physical interface as the rest of hark sees it: one button (its raw, undebounced level) and
 * one LED. Debouncing and gestures are pure logic (button.ts), patterns too (led-*.ts); a driver
 * only moves bits.
 */
export interface GpioDriver {
  readonly kind: 'onoff' | 'simulated';
  /** A human-readable line for the start-up log: which pins, which chip. */
  readonly description: string;
  /** Is the button pressed now (active level already applied). */
  readButton(): boolean;
  /** Called on every level change of the button (true = pressed), bounces included. */
  onButton(cb: (pressed: boolean) => void): void;
  setLed(on: boolean): void;
  close(): Promise<void>;
}
