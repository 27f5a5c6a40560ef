/**
 * What the command core asks the world to do. The router and the action router never touch a
 * speaker, a file or the network: they emit these, and the composition root (or `hark simulate`)
 * carries them out. Every effect is plain JSON, so `hark simulate` prints them as they are.
 */
export type Mode = 'wake-word' | 'always-listen';
export const MODES: readonly Mode[] = ['wake-word', 'always-listen'];

/** Short sounds the speaker plays instead of words (names, not files: the speech issue maps them). */
export type Earcon = 'listening' | 'sent' | 'cancelled' | 'item' | 'timer' | (string & {});

export type Effect =
  /** The frame stack changed: names bottom to top. */
  | { type: 'stack'; frames: string[] }
  /**
   * `answer`: a spoken answer to what was asked (a read-back, a list): it follows the response cascade.
   * `ring`: a timer's ring, after that many of its rings went unanswered (the speaker plays it at the alarm's level).
   * `rate`: words a minute for this line only (a picker's "faster"); absent: speech.speed.
   * `lang`: the language it is said in, when not the device's first (the speaker picks that language's voice).
   */
  | { type: 'speak'; text: string; earcon?: Earcon; answer?: true; ring?: number; rate?: number; lang?: string }
  /** Stop whatever hark is saying now (barge-in, "stop"). */
  | { type: 'stop-speaking' }
  | { type: 'earcon'; name: Earcon }
  /** Accumulated text (or inventory items) handed to a target. */
  | { type: 'submit'; frame: string; target: string; text: string; items?: string[]; utteranceIds: string[]; lang?: string }
  /**
   * From the CommandRouter: an action requested (no `seq`). From the ActionRouter: an action that
   * fired, at once, after its cooldown, with `seq` numbering the fired actions of that router from 1
   * (so a later `action.superseded` can name it). Only fired actions leave the command core.
   */
  | { type: 'action'; name: string; args: Record<string, unknown>; seq?: number }
  /** Not fired: the same action again within its cooldown. (Nothing is dropped as superseded any more.) */
  | { type: 'action.dropped'; name: string; args: Record<string, unknown>; reason: 'cooldown' }
  /**
   * Last-wins: the action that fired as `seq` was overruled by a conflicting one (`by`,
   * fired as `bySeq`) inside the conflict window. It had already acted; what it started (repeat's
   * speech) has been stopped, and this records that it no longer stands. Comes before `by`'s `action`.
   */
  | { type: 'action.superseded'; name: string; args: Record<string, unknown>; seq: number; by: string; bySeq: number }
  /** A fired action's handler (or, when superseded, its undo) threw or rejected; `seq` is the fired action's. */
  | { type: 'action.failed'; name: string; error: string; seq?: number }
  | { type: 'mode'; mode: Mode }
  /**
   * The follow-up window (router.followUpMs) opened or closed: while open, words without the wake
   * word may go on from what hark just did. `untilMs` is when it closes unless renewed.
   */
  | { type: 'follow-up'; open: boolean; untilMs?: number }
  /** An utterance no rule took: reported, never silently lost. */
  | { type: 'ignored'; frame: string; text: string; reason: string }
  /** Which rule took an utterance (for technicians; `hark simulate --trace`). */
  | { type: 'matched'; frame: string; rule: number; kind: string; text: string }
  /** An async classifier rule answered (or did not, in time). */
  | { type: 'classifier'; name: string; frame: string; outcome: 'label' | 'none' | 'timeout' | 'error'; label?: string; ms: number }
  /**
   * A kitchen timer changed. `seconds` is the duration it was set for; `done` is when it came due
   * (it rings until `stopped`, by voice or button, or `gave-up`); `changed` carries `bySeconds`
   * added (or, negative, taken off); `restored` is one kept across a restart. A timer with `from` is
   * another device's, rung here for its area (the fleet): stopped here, the stop goes to its owner,
   * which records it against the timer (`stopped` with `at`, the device it was stopped at); `ended`:
   * its owner says it no longer rings.
   */
  | {
      type: 'timer';
      event: 'set' | 'cancelled' | 'done' | 'paused' | 'resumed' | 'changed' | 'stopped' | 'gave-up' | 'restored' | 'ended';
      id: number;
      label?: string;
      seconds: number;
      dueAtMs: number;
      command?: string;
      bySeconds?: number;
      by?: 'voice' | 'button';
      from?: { device: string; id: number };
      at?: string;
    }
  /** A list changed by rule (the intent pass reports its own through commit). */
  | { type: 'list'; op: 'add' | 'remove' | 'clear'; list: string; item?: string }
  | { type: 'delivered'; target: string; kind: 'submit' | 'action'; detail?: string }
  /**
   * The intent pass. A proposal is non-binding: hark asks yes or no. Ambiguous replies
   * failed validation (reason says why). Commit follows a yes, discard a no or no answer.
   */
  | { type: 'proposal'; intent: string; target: string | null }
  | { type: 'ambiguous'; text: string; reason: string }
  | { type: 'commit'; intent: string; target: string | null; utteranceIds: string[]; model: string; latencyMs: number }
  | { type: 'discard'; intent: string; reason: 'no' | 'timeout' }
  | { type: 'delivery-failed'; target: string; kind: 'submit' | 'action'; error: string; attempts: number };

export type EffectType = Effect['type'];
export type EffectSink = (effect: Effect) => void;

/** On the bus, every effect that leaves the command core, stamped with its clock time. */
export type TimedEffect = Effect & { atMs: number };
declare module './bus.js' {
  interface HarkEvents {
    'router.effect': TimedEffect;
  }
}
