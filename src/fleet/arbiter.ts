import type { Clock, TimerHandle } from '../core/clock.js';
import type { Utterance } from '../core/utterance.js';
import type { Arbiter } from '../path/plugins.js';
import type { Segment } from '../vad/segment.js';
import { peersHeardIt, settle, speechLevelDb, winner, type Claim, type Seen } from './arbitration.js';

/** How the arbiter reaches the room: the MQTT client, or a stand-in in tests. */
export interface ClaimChannel {
  /** True only while the broker is connected: otherwise the device acts alone at once. */
  connected(): boolean;
  publishClaim(claim: Claim): void;
}

export interface ArbitrationOutcome {
  utteranceId: string;
  act: boolean;
  to: string | null;
  waitedMs: number;
  self: Claim;
  others: Claim[];
  /** Devices whose segment closed with ours: the ones waited for. */
  expected: string[];
  alone?: string;
}

type Verdict = { act: true } | { act: false; to: string };

/**
 * "Only the nearest device answers." Every device in a room announces each segment as it closes
 * (before speech-to-text), and before acting on a command publishes a claim (speech level, VAD
 * peak). It then waits — at most the window — for a claim from each device whose segment closed
 * with its own, and acts only if its claim wins. A device no one else heard acts at once. Never
 * throws; with no broker it answers "act" at once: a command is never lost because the network is.
 */
export class RoomArbiter implements Arbiter {
  private closes: Seen[] = [];
  private claims: Seen<Claim>[] = [];
  private readonly ownCloses = new Map<number, number>();
  /** Wakes the one decision waiting (the segment path decides one segment at a time). */
  private wake: (() => void) | null = null;

  constructor(
    private readonly o: {
      device: string;
      windowMs: number;
      clock: Clock;
      channel: ClaimChannel;
      onOutcome?: (o: ArbitrationOutcome) => void;
    },
  ) {}

  /** This device closed a segment (its index): when its own command started to be decided. */
  ownSegmentClosed(index: number): void {
    this.ownCloses.set(index, this.o.clock.now());
    for (const k of this.ownCloses.keys()) if (k < index - 20) this.ownCloses.delete(k);
  }

  /** Another device of the room closed a segment. */
  peerSegmentClosed(device: string): void {
    if (device === this.o.device) return;
    this.closes = this.keep(this.closes);
    this.closes.push({ device, atMs: this.o.clock.now(), value: undefined });
  }

  /** A claim from the room (the client passes every claim it receives, already checked). */
  claimArrived(claim: Claim): void {
    if (claim.device === this.o.device) return;
    this.claims = this.keep(this.claims);
    this.claims.push({ device: claim.device, atMs: this.o.clock.now(), value: claim });
    this.wake?.();
  }

  async decide(segment: Segment, utterance: Utterance): Promise<Verdict> {
    const { clock, windowMs } = this.o;
    const started = clock.now();
    let self: Claim | null = null;
    try {
      self = {
        device: this.o.device,
        levelDb: speechLevelDb(segment.pcm, segment.prerollSamples),
        prob: Math.round(segment.maxProb * 1000) / 1000,
        utteranceId: utterance.id,
        text: utterance.text,
      };
      if (!this.o.channel.connected()) return this.outcome(self, [], [], started, 'broker not connected');
      const closedAt = this.ownCloses.get(segment.index) ?? started;
      this.o.channel.publishClaim(self);
      // Peers announce their closes as they happen; one that closed a little after us may not have
      // been heard from yet, so the room is known only a window after our close. Then wait for the
      // claim of each peer that heard it too — all of it bounded by the window from now.
      const roomKnownAt = closedAt + windowMs;
      const deadline = started + windowMs;
      for (;;) {
        const now = clock.now();
        const expected = peersHeardIt(this.closes, closedAt, windowMs);
        if (now >= deadline || (now >= roomKnownAt && settle(this.claims, this.closes, expected, closedAt, windowMs, started).complete)) break;
        await this.sleepUntil(now < roomKnownAt ? roomKnownAt : deadline);
      }
      const expected = peersHeardIt(this.closes, closedAt, windowMs);
      const s = settle(this.claims, this.closes, expected, closedAt, windowMs, started);
      return this.outcome(self, s.others, expected, started, undefined, s.actedAlready);
    } catch (err) {
      // Arbitration is a courtesy between devices: any failure means this one acts.
      return self ? this.outcome(self, [], [], started, `arbitration failed: ${String(err)}`) : { act: true };
    }
  }

  /** Until `atMs`, or until a claim arrives (then the loop looks again). */
  private sleepUntil(atMs: number): Promise<void> {
    const { clock } = this.o;
    return new Promise<void>((resolve) => {
      const t: TimerHandle = clock.setTimer(atMs - clock.now(), () => {
        this.wake = null;
        resolve();
      });
      this.wake = () => {
        this.wake = null;
        clock.clearTimer(t);
        resolve();
      };
    });
  }

  private keep<T>(list: Seen<T>[]): Seen<T>[] {
    const now = this.o.clock.now();
    return list.filter((r) => now - r.atMs <= 4 * this.o.windowMs + 5000);
  }

  private outcome(self: Claim, others: Claim[], expected: string[], started: number, alone?: string, actedAlready?: Claim | null): Verdict {
    const verdict: Verdict = actedAlready ? { act: false, to: actedAlready.device } : decideAmong(self, others);
    this.o.onOutcome?.({
      utteranceId: self.utteranceId,
      act: verdict.act,
      to: verdict.act ? null : verdict.to,
      waitedMs: Math.round(this.o.clock.now() - started),
      self,
      others,
      expected,
      ...(alone ? { alone } : {}),
    });
    return verdict;
  }
}

function decideAmong(self: Claim, others: Claim[]): Verdict {
  const best = winner([self, ...others]);
  return !best || best.device === self.device ? { act: true } : { act: false, to: best.device };
}
