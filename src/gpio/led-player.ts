import type { Clock, TimerHandle } from '../core/clock.js';
import { PATTERNS, type LedPatternName } from './led-state.js';

/**
 * Drives one LED through a pattern's steps on the clock. Setting the pattern already showing does
 * not restart it (a blink keeps its rhythm when the same state is re-announced).
 */
export class LedPlayer {
  private current: LedPatternName | null = null;
  private timer: TimerHandle | null = null;
  private level: boolean | null = null;

  constructor(
    private readonly clock: Clock,
    private readonly write: (on: boolean) => void,
  ) {}

  get pattern(): LedPatternName | null {
    return this.current;
  }

  set(name: LedPatternName): void {
    if (name === this.current) return;
    this.current = name;
    this.clock.clearTimer(this.timer);
    this.timer = null;
    const p = PATTERNS[name];
    if (p.steps.length === 0) return this.out(p.level);
    this.step(name, 0);
  }

  stop(): void {
    this.clock.clearTimer(this.timer);
    this.timer = null;
    this.current = null;
    this.out(false);
  }

  private step(name: LedPatternName, i: number): void {
    const steps = PATTERNS[name].steps;
    const [on, ms] = steps[i % steps.length]!;
    this.out(on);
    this.timer = this.clock.setTimer(ms, () => this.step(name, (i + 1) % steps.length));
  }

  private out(on: boolean): void {
    if (on === this.level) return;
    this.level = on;
    this.write(on);
  }
}
