import type { ResponseCascade } from './cascade.js';

/**
 * What the response cascade answers: a spoken answer the router made (a read-back), or an
 * open request the model will answer (the intent pass) — the model asked at the first
 * timer, the question rendered at the second, the request handed over and the question said at the third.
 */
/** `lang`: the language an answer is said in, when not the device's first. */
export type Turn = { kind: 'answer'; text: string; lang?: string } | { kind: 'proposal'; frame: string; text: string };

/** A turn worked out: what hark will say (null when nothing can be said ahead: the model is away). */
export interface Worked {
  turn: Turn;
  spoken: string | null;
  /** The language `spoken` is in, when not the device's first (the voice that renders it); an answer's is its turn's. */
  lang?: string;
}

export type TurnCascade = ResponseCascade<Turn, Worked, Int16Array | null>;
