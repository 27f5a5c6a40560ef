import { FRAME_SAMPLES } from '../audio/pcm.js';

/**
 * Which device of a room acts on a command they all heard (pure). Each device that is about to act
 * publishes a claim with how well it heard the segment; after the window every device picks the
 * same winner from the same claims: the best score, ties to the lowest device id.
 */
export interface Claim {
  device: string;
  /** Speech level of the voiced part, dBFS (the nearest device hears it loudest). */
  levelDb: number;
  /** The VAD's peak probability for the segment. */
  prob: number;
  utteranceId: string;
  text: string;
}

/** dB a full VAD confidence is worth: level leads, confidence breaks near-ties in level. */
const PROB_WEIGHT_DB = 6;

export function score(c: Pick<Claim, 'levelDb' | 'prob'>): number {
  // Rounded so that the same numbers sent as JSON give the same score on every device.
  return Math.round((c.levelDb + PROB_WEIGHT_DB * c.prob) * 100) / 100;
}

/** The claim that wins: highest score, then lowest device id (deterministic on every device). */
export function winner(claims: readonly Claim[]): Claim | null {
  let best: Claim | null = null;
  for (const c of claims) {
    if (!best) best = c;
    else {
      const d = score(c) - score(best);
      if (d > 0 || (d === 0 && c.device < best.device)) best = c;
    }
  }
  return best;
}

/**
 * Speech level in dBFS of the voiced part of a segment: the mean power of its loudest third of
 * 32 ms frames after the pre-roll, so the hangover's silence, the pre-roll and the pauses between
 * words do not dilute it (a 600 ms hangover after a short command is most of the segment).
 */
export function speechLevelDb(pcm: Int16Array, from = 0): number {
  const powers: number[] = [];
  for (let i = Math.max(0, from); i + FRAME_SAMPLES <= pcm.length; i += FRAME_SAMPLES) {
    let sum = 0;
    for (let j = i; j < i + FRAME_SAMPLES; j++) sum += pcm[j]! * pcm[j]!;
    powers.push(sum / FRAME_SAMPLES);
  }
  if (!powers.length) return -120;
  powers.sort((a, b) => b - a);
  const top = powers.slice(0, Math.max(1, Math.ceil(powers.length / 3)));
  const mean = top.reduce((a, b) => a + b, 0) / top.length;
  if (mean <= 0) return -120;
  return Math.round(10 * Math.log10(mean / (32768 * 32768)) * 100) / 100;
}

/** What travels on the room's claim topic: "my segment just closed", or a claim on a command. */
export type RoomMessage = { kind: 'closed'; device: string } | { kind: 'claim'; claim: Claim };

/** A room message as it arrives from the broker, checked (anything malformed is ignored, not trusted). */
export function parseRoomMessage(raw: string): RoomMessage | null {
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof v !== 'object' || v === null) return null;
  const o = v as Record<string, unknown>;
  if (o.closed === true) return typeof o.device === 'string' && o.device ? { kind: 'closed', device: o.device } : null;
  const claim = parseClaim(o);
  return claim ? { kind: 'claim', claim } : null;
}

function parseClaim(o: Record<string, unknown>): Claim | null {
  if (
    typeof o.device !== 'string' ||
    !o.device ||
    typeof o.levelDb !== 'number' ||
    !Number.isFinite(o.levelDb) ||
    typeof o.prob !== 'number' ||
    !Number.isFinite(o.prob)
  )
    return null;
  return {
    device: o.device,
    levelDb: o.levelDb,
    prob: o.prob,
    utteranceId: typeof o.utteranceId === 'string' ? o.utteranceId : '',
    text: typeof o.text === 'string' ? o.text : '',
  };
}

/** Something a peer sent, stamped with the local clock time it arrived. */
export interface Seen<T = undefined> {
  device: string;
  atMs: number;
  value: T;
}

/** Peers whose segment closed within `windowMs` of ours: they heard the same command, and we wait for their claims. */
export function peersHeardIt(closes: readonly Seen[], closedAt: number, windowMs: number): string[] {
  return [...new Set(closes.filter((c) => Math.abs(c.atMs - closedAt) <= windowMs).map((c) => c.device))].sort();
}

/**
 * Where a decision stands (pure). `others`: each expected peer's latest claim made after its matching
 * close. `complete`: every expected peer has claimed. `actedAlready`: a peer that claimed more than a
 * window before we did has decided without us (and, hearing no one better, acted): we yield to it
 * rather than act twice.
 */
export function settle(
  claims: readonly Seen<Claim>[],
  closes: readonly Seen[],
  expected: readonly string[],
  closedAt: number,
  windowMs: number,
  ownClaimAt: number,
): { others: Claim[]; complete: boolean; actedAlready: Claim | null } {
  const others: Claim[] = [];
  let actedAlready: Seen<Claim> | null = null;
  for (const device of expected) {
    const close = closes.filter((c) => c.device === device && Math.abs(c.atMs - closedAt) <= windowMs).at(-1)!;
    const claim = claims.filter((c) => c.device === device && c.atMs >= close.atMs).at(-1);
    if (!claim) continue;
    others.push(claim.value);
    if (ownClaimAt - claim.atMs > windowMs && (!actedAlready || claim.atMs < actedAlready.atMs)) actedAlready = claim;
  }
  return { others, complete: others.length === expected.length, actedAlready: actedAlready?.value ?? null };
}
