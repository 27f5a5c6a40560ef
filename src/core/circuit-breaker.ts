import type { Clock } from './clock.js';

export type CircuitState = 'closed' | 'open' | 'half-open';

export interface CircuitBreakerOptions {
  /** Consecutive failures that open the circuit (3). */
  failures: number;
  /** How long the circuit stays open before one probe is let through (30 s). */
  openMs: number;
}

/** How a refusal reads where it is shown (a fallback reason, a log line): wording differs by caller. */
export interface RefusalWording {
  open(leftMs: number, lastReason: string): string;
  probing: string;
}

const CIRCUIT_WORDING: RefusalWording = {
  open: (_left, last) => `circuit open after ${last}`,
  probing: 'circuit half-open: a probe is in flight',
};

export type Permit = { allowed: true; probe: boolean } | { allowed: false; retryInMs: number; reason: string };

/**
 * A circuit breaker (the cloud's for speech-to-text, the intent model's for Ollama): after `failures` consecutive failures the cloud is skipped for
 * `openMs`, then exactly one request is let through as a probe; its success closes the circuit, its
 * failure opens it again. A failure that retrying cannot fix (a rejected API key) opens it at once —
 * one clear error every `openMs`, not a retry storm. Pure: time comes from the Clock.
 */
export class CircuitBreaker {
  private _state: CircuitState = 'closed';
  private consecutive = 0;
  private openedAt = 0;
  private probing = false;
  private lastReason = '';

  constructor(
    private readonly opts: CircuitBreakerOptions,
    private readonly clock: Clock,
    private readonly onChange: (state: CircuitState, reason: string) => void = () => {},
    private readonly wording: RefusalWording = CIRCUIT_WORDING,
  ) {}

  get state(): CircuitState {
    return this._state;
  }

  /** Ask before each cloud request. A `probe` permit must be answered with success() or failure(). */
  acquire(): Permit {
    if (this._state === 'closed') return { allowed: true, probe: false };
    const now = this.clock.now();
    if (this._state === 'open') {
      const left = this.openedAt + this.opts.openMs - now;
      if (left > 0) return { allowed: false, retryInMs: left, reason: this.wording.open(left, this.lastReason) };
      this.set('half-open', 'probing after the open period');
    }
    if (this.probing) return { allowed: false, retryInMs: 0, reason: this.wording.probing };
    this.probing = true;
    return { allowed: true, probe: true };
  }

  success(): void {
    this.consecutive = 0;
    this.probing = false;
    if (this._state !== 'closed') this.set('closed', 'cloud answered');
  }

  /**
   * `trip`: open now, whatever the count (the failure will not go away by retrying).
   * Returns whether this failure opened the circuit (or restarted its open period).
   */
  failure(reason: string, opts: { trip?: boolean } = {}): boolean {
    this.consecutive++;
    this.lastReason = reason;
    const wasProbe = this.probing;
    this.probing = false;
    if (this._state === 'half-open' || wasProbe || opts.trip || this.consecutive >= this.opts.failures) {
      this.openedAt = this.clock.now();
      // Re-opening from open (a trip while open) restarts the period; the callback fires on state changes only.
      if (this._state !== 'open') this.set('open', reason);
      return true;
    }
    return false;
  }

  /** A probe gave up because its caller did (a rule's timeout): no verdict either way. */
  release(): void {
    this.probing = false;
  }

  private set(state: CircuitState, reason: string): void {
    this._state = state;
    this.onChange(state, reason);
  }
}
