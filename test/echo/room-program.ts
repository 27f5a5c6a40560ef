import { ringText } from '../../src/command/actions/timers.js';
import { synthEarcon } from '../../src/speech/earcons.js';
import { withGain } from '../../src/speech/alarm-level.js';
import { espeakPhrase } from '../support/speech.js';

/**
 * What hark plays in the offline room matrix, on one timeline (one long-lived aplay, as the
 * canceller's default player): the samples the card is handed, where each stretch lies, and where a
 * person speaks. All positions are 16 kHz samples from the first sample handed to the card.
 */
export interface Program {
  played: Int16Array;
  /** Each clip hark played: [start, end). */
  clips: Array<[number, number]>;
  /** The stretches counted: nobody speaks in them, or a "stop" is said in them. */
  parts: Array<{ name: 'list' | 'ring'; start: number; end: number }>;
  /** Where the person's "stop" starts (its direct sound at the mic), and over which part. */
  stops: Array<{ over: 'list' | 'ring'; at: number }>;
  /** The person's words as said (dry), by sample, at unit level: scale with personLevel(). */
  words: Array<{ at: number; pcm: Int16Array }>;
}

/** A list read back: about 30 s of hark's espeak-ng voice. */
export const LIST =
  'Here is the prep list, fourteen items. Two kilos of onions, diced. Three litres of chicken stock. One bunch of flat leaf parsley. ' +
  'Four lemons, zested and juiced. Six hundred grams of butter, cubed and chilled. Two trays of cherry tomatoes, halved. A tub of creme fraiche. ' +
  'Twelve eggs, separated. Five hundred grams of caster sugar. Two vanilla pods. A kilo of plain flour, sifted. Three heads of garlic, peeled. ' +
  'Half a litre of double cream. And the salmon, portioned into eight. That is everything on the list.';
/** The live echo-room run's short answer ("tell me briefly"): the "stop" over it is said about 3 s in. */
export const SHORT_ANSWER =
  'Preheat the oven to one hundred and eighty degrees, beat the butter with the sugar, add the eggs, fold in the flour, and bake for twenty five minutes until golden and springy.';
/** hark's confirmation before either: the canceller learns the room on it, as it would live. */
export const CONFIRM = 'Timer set for forty seconds. I will ring when it is done.';
/** The person: another voice than hark's. */
export const STOP_VOICE = 'en-gb';

const S = 16;

/**
 * A timer ringing for `ms`: every `everyMs` (actions.timers.ringEveryMs; 2 s, as the live echo-room
 * run, the densest ring) the timer earcon at `earconVolume` then "Timer done.", each ring after the
 * last has finished. `gainDb`: the ring's level over the voice (speech.alarmDb … alarmMaxDb), put on
 * the earcon and the words as the device's output does (withGain: held under full scale by its
 * limiter), so what the card is handed, and the reference, is that ring. For comparison, `fit:
 * 'clip'` raises it and clips it at full scale, `fit: 'cap'` raises each clip no further than its
 * peak allows.
 */
export async function ring(ms: number, everyMs: number, earconVolume: number, gainDb = 0, fit: RingFit = 'device'): Promise<Int16Array> {
  const raise = (pcm: Int16Array) =>
    fit === 'device' ? withGain(pcm, gainDb) : fit === 'clip' ? clipped(pcm, gainDb) : withGain(pcm, Math.min(gainDb, headroomDb(pcm)));
  const beeps = raise(synthEarcon('timer', earconVolume));
  const words = raise(await espeakPhrase(ringText(undefined)));
  const out = new Int16Array(ms * S);
  for (let at = 0; at < out.length;) {
    out.set(beeps.subarray(0, Math.max(0, Math.min(beeps.length, out.length - at))), at);
    const w = at + beeps.length + 20 * S;
    if (w < out.length) out.set(words.subarray(0, Math.min(words.length, out.length - w)), w);
    at = Math.max(at + everyMs * S, w + words.length + 150 * S);
  }
  return out;
}

/** How a ring raised past full scale is made to fit the sample format: as the device's output does (withGain's limiter), clipped, or its gain capped at the clip's peak. */
export type RingFit = 'device' | 'clip' | 'cap';

/** `pcm` raised by `gainDb` and clipped where it passes full scale, as a player without a limiter would. */
function clipped(pcm: Int16Array, gainDb: number): Int16Array {
  const g = Math.pow(10, gainDb / 20);
  return Int16Array.from(pcm, (v) => Math.max(-32768, Math.min(32767, Math.round(v * g))));
}

/** dB a clip can be raised before its peak reaches full scale. */
function headroomDb(pcm: Int16Array): number {
  let peak = 1;
  for (const v of pcm) peak = Math.max(peak, Math.abs(v));
  return 20 * Math.log10(32767 / peak);
}

/** Pieces and silences (ms) back to back: the samples and where each piece starts. */
export function lay(pieces: Array<Int16Array | number>): { played: Int16Array; at: number[] } {
  const len = pieces.reduce<number>((n, p) => n + (typeof p === 'number' ? p * S : p.length), 0);
  const played = new Int16Array(len);
  const at: number[] = [];
  let o = 0;
  for (const p of pieces) {
    at.push(o);
    if (typeof p === 'number') o += p * S;
    else {
      played.set(p, o);
      o += p.length;
    }
  }
  return { played, at };
}

/**
 * hark's confirmation, after what it said before when `earlierMs` is given: that much of the list
 * read back, then 2 s of quiet (a hark that has been talking, the canceller warm and the clocks'
 * skew measured, as it is after its first answer of the day).
 */
async function confirmation(earlierMs?: number): Promise<Int16Array> {
  const confirm = await espeakPhrase(CONFIRM);
  if (!earlierMs) return confirm;
  const before = (await espeakPhrase(LIST)).subarray(0, earlierMs * S);
  return lay([before, 2000, confirm]).played;
}

/** Nobody speaks: the confirmation, the list (~30 s), then the ring (`ringMs`). */
export async function quietProgram(o: {
  ringMs: number;
  ringEveryMs: number;
  earconVolume: number;
  earlierMs?: number;
  ringGainDb?: number;
  ringFit?: RingFit;
}): Promise<Program> {
  const confirm = await confirmation(o.earlierMs);
  const list = await espeakPhrase(LIST);
  const rung = await ring(o.ringMs, o.ringEveryMs, o.earconVolume, o.ringGainDb, o.ringFit);
  const { played, at } = lay([500, confirm, 1000, list, 2000, rung, 1500]);
  const clips: Array<[number, number]> = [
    [at[1]!, at[1]! + confirm.length],
    [at[3]!, at[3]! + list.length],
    [at[5]!, at[5]! + rung.length],
  ];
  return {
    played,
    clips,
    parts: [
      { name: 'list', ...span(clips[1]!) },
      { name: 'ring', ...span(clips[2]!) },
    ],
    stops: [],
    words: [],
  };
}

/**
 * "stop" said over the ring and over the list, `stopAfterMs` into each (the canceller warm, as it
 * is by then live): one ring and one list for each of those points, in turn. hark falls silent
 * `reactMs` after the word, as it does when it hears it. Where the word falls matters: a few
 * seconds into the list, on a loud stretch of hark's voice, is where it went unheard.
 */
export async function stopProgram(o: {
  ringEveryMs: number;
  earconVolume: number;
  stopAfterMs: number[];
  reactMs: number;
  answer?: string;
  earlierMs?: number;
  ringGainDb?: number;
  ringFit?: RingFit;
}): Promise<Program> {
  const confirm = await confirmation(o.earlierMs);
  // What hark reads when the "stop" comes: the list by default, or another answer (the live run's).
  const list = await espeakPhrase(o.answer ?? LIST);
  const stop = await espeakPhrase('stop', STOP_VOICE);
  const pieces: Array<Int16Array | number> = [500, confirm, 1000];
  for (const after of o.stopAfterMs) {
    const cut = (after + o.reactMs) * S;
    const rung = (await ring(after + o.reactMs, o.ringEveryMs, o.earconVolume, o.ringGainDb, o.ringFit)).subarray(0, cut);
    pieces.push(rung, 1500, list.subarray(0, cut), 1500);
  }
  const { played, at } = lay(pieces);
  const clips: Array<[number, number]> = [[at[1]!, at[1]! + confirm.length]];
  const parts: Program['parts'] = [];
  const stops: Program['stops'] = [];
  o.stopAfterMs.forEach((after, k) => {
    for (const [name, i] of [
      ['ring', 3 + 4 * k],
      ['list', 5 + 4 * k],
    ] as const) {
      const piece = pieces[i] as Int16Array;
      clips.push([at[i]!, at[i]! + piece.length]);
      parts.push({ name, start: at[i]!, end: at[i]! + piece.length });
      stops.push({ over: name, at: at[i]! + after * S });
    }
  });
  return { played, clips, parts, stops, words: stops.map((s) => ({ at: s.at, pcm: stop })) };
}

function span([start, end]: [number, number]): { start: number; end: number } {
  return { start, end };
}
