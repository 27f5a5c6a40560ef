import './events.js';
import type { Bus } from '../core/bus.js';
import type { Clock } from '../core/clock.js';

export interface EchoSettings {
  /** raise: lift the VAD threshold while hark plays; gate: hear nothing but the button; off: trust the VAD. */
  echoMode: 'raise' | 'gate' | 'off';
  /** The threshold while hark plays, in raise mode. */
  echoThreshold: number;
  /** How long after the last sample the gate stays up (room echo, the sound card's buffer). */
  echoTailMs: number;
}

/** The VAD threshold to apply: the configured one, or the raised one while hark's own sound may be in the mic. */
export function effectiveThreshold(active: boolean, echo: EchoSettings, vadThreshold: number): number {
  if (!active || echo.echoMode === 'off') return vadThreshold;
  if (echo.echoMode === 'gate') return Infinity;
  return Math.max(vadThreshold, echo.echoThreshold);
}

/**
 * Keeps hark from transcribing itself. The segmenter's threshold is fixed when it is built, so the
 * gate works on the speech probability instead: while active it scales each frame's probability by
 * threshold / raisedThreshold, so a frame opens a segment exactly when it would have reached the
 * raised threshold (and the release threshold is raised in proportion). In gate mode every frame
 * reads as silence. Push-to-talk does not go through the VAD, so the button always gets through.
 */
export class EchoGate {
  private playing = false;
  private tailUntil = -Infinity;

  constructor(
    private readonly echo: EchoSettings,
    private readonly vadThreshold: number,
    private readonly clock: Clock,
  ) {}

  playbackStarted(): void {
    this.playing = true;
  }

  playbackEnded(): void {
    if (this.playing) this.tailUntil = this.clock.now() + this.echo.echoTailMs;
    this.playing = false;
  }

  /** hark's own sound may be reaching the microphone. */
  get active(): boolean {
    return this.playing || this.clock.now() < this.tailUntil;
  }

  get threshold(): number {
    return effectiveThreshold(this.active, this.echo, this.vadThreshold);
  }

  /** A frame's speech probability as the segmenter should see it now. */
  adjust(prob: number): number {
    const t = this.threshold;
    if (t === this.vadThreshold) return prob;
    if (t === Infinity) return 0;
    return (prob * this.vadThreshold) / t;
  }
}

/** Follow hark's playback from the bus. Returns a function that stops following. */
export function bindEchoGate(bus: Bus, gate: EchoGate): () => void {
  const offs = [
    bus.on('speak.start', () => gate.playbackStarted()),
    bus.on('speak.end', () => gate.playbackEnded()),
    bus.on('speak.stopped', () => gate.playbackEnded()),
    bus.on('speak.error', () => gate.playbackEnded()),
  ];
  return () => offs.forEach((off) => off());
}

