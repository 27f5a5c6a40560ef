import { SAMPLE_RATE } from '../../audio/pcm.js';
import { said } from '../../language/text.js';

/**
 * Where the wake phrase ends in a segment, so Home Assistant gets what follows it. Pure.
 *
 * A satellite streams the audio after its wake word and names the word in
 * VoiceAssistantRequest.wake_word_phrase (OHF-Voice/linux-voice-assistant satellite.py: the request
 * goes out when the wake word is detected, audio from then on). hark hears the whole segment first,
 * so it cuts: Home Assistant's own speech-to-text and intent matching then get "turn on the extractor
 * fan", not "computer turn on the extractor fan".
 *
 * Where the cut goes, best first:
 *  - 'word times': the end of the wake phrase's last word, as speech-to-text timed it (Deepgram's
 *    words; Whisper's token times, tokens joined into words);
 *  - 'estimate': no times (a Wyoming engine gives none, Whisper's can be missing): the wake phrase's
 *    share of the transcript's letters, laid over the stretch from the VAD's start of speech to the
 *    last loud frame;
 * then, either way, moved to the quiet stretch nearby (a speaker pauses after the wake word, however
 * short), ending a margin (MARGIN_MS) before the next sound, so the command's first word is never clipped.
 * Nothing is cut when the text does not start with a wake phrase (the button, an answer to Home
 * Assistant's question) or when less than MIN_REST_MS would remain.
 */

/** What speech-to-text heard, with whatever times it gave. */
export interface Heard {
  text: string;
  /** Timed words (Deepgram): seconds from the segment's first sample. */
  words?: readonly { word: string; start: number; end: number }[];
  /** Whisper's tokens; t0/t1 in ms from the segment's first sample when it timed them. */
  tokens?: readonly { text: string; id: number; t0?: number; t1?: number }[];
  /** Where the VAD heard speech start (the segment's pre-roll length). */
  speechStartSample?: number;
}

export interface WakeCut {
  /** The wake phrase as configured ("hey computer"), or null: none at the start. */
  phrase: string | null;
  /** Samples of the segment left out; Home Assistant gets the rest. */
  cutSample: number;
  by: 'word times' | 'estimate' | 'none';
}

/**
 * Silence kept before the command's first sound, where the pause is that long (a shorter pause is
 * kept whole). Word times are rough — Whisper's token times by ±120 ms — and a quiet first
 * consonant ("f" of "fan") reads as pause: Home Assistant's speech-to-text must get the first word whole.
 */
export const MARGIN_MS = 150;
/** How far from a timed end the quiet stretch is looked for (word times are rarely off by more). */
const TIMED_WINDOW_MS = 120;
/** …and from an estimated one. */
const ESTIMATE_WINDOW_MS = 250;
/** Less than this after the wake phrase: nothing worth cutting for (Home Assistant gets it all). */
export const MIN_REST_MS = 100;
const FRAME = SAMPLE_RATE / 100;

interface TimedWord {
  word: string;
  startMs: number;
  endMs: number;
}

const SPECIAL = /^(\[_[A-Z]+_?\d*\]|<\|[^|]*\|>|\[[A-Z_]+\])$/;

/** Whisper's tokens as words: a token starting with a space starts a word; special tokens skipped. */
function tokenWords(tokens: NonNullable<Heard['tokens']>): TimedWord[] | null {
  const out: TimedWord[] = [];
  for (const t of tokens) {
    if (SPECIAL.test(t.text.trim()) || t.text.trim() === '') continue;
    if (typeof t.t0 !== 'number' || typeof t.t1 !== 'number' || !Number.isFinite(t.t0) || !Number.isFinite(t.t1)) return null;
    const last = out[out.length - 1];
    if (last && !t.text.startsWith(' ')) {
      last.word += t.text;
      last.endMs = Math.max(last.endMs, t.t1);
    } else out.push({ word: t.text.trim(), startMs: t.t0, endMs: t.t1 });
  }
  return out.length ? out : null;
}

/** Timed words, normalised as the router normalises ("Computer," → "computer"), one per normalised word. */
function timedWords(heard: Heard): TimedWord[] | null {
  const raw = heard.words?.length
    ? heard.words.map((w) => ({ word: w.word, startMs: w.start * 1000, endMs: w.end * 1000 }))
    : heard.tokens
      ? tokenWords(heard.tokens)
      : null;
  if (!raw) return null;
  return raw.flatMap((w) => said(w.word).words.map((word) => ({ word, startMs: w.startMs, endMs: w.endMs })));
}

function frameLevels(pcm: Int16Array): Float64Array {
  const n = Math.floor(pcm.length / FRAME);
  const e = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    let s = 0;
    for (let i = k * FRAME; i < (k + 1) * FRAME; i++) s += pcm[i]! * pcm[i]!;
    e[k] = Math.sqrt(s / FRAME);
  }
  return e;
}

/**
 * The cut near `atSample`: the quietest 10 ms frame within ±window, the quiet stretch around it
 * (frames within twice its level, or 30 above it), and the cut a margin before that stretch ends.
 */
function snap(levels: Float64Array, atSample: number, windowMs: number, notBefore: number): number {
  const w = Math.round(windowMs / 10);
  const at = Math.round(atSample / FRAME);
  const lo = Math.max(Math.ceil(notBefore / FRAME), at - w, 0);
  const hi = Math.min(levels.length - 1, at + w);
  if (hi < lo) return atSample;
  let best = lo;
  for (let k = lo; k <= hi; k++) if (levels[k]! < levels[best]!) best = k;
  const quiet = Math.max(levels[best]! * 2, levels[best]! + 30);
  let start = best;
  while (start > lo && levels[start - 1]! <= quiet) start--;
  // The stretch may run on past the window: a long pause is cut just before the command.
  let end = best;
  while (end < levels.length - 1 && levels[end + 1]! <= quiet) end++;
  return Math.max(start * FRAME, (end + 1) * FRAME - (MARGIN_MS * SAMPLE_RATE) / 1000);
}

/** The last frame louder than a tenth of the loudest, as a sample index (end of speech). */
function speechEnd(levels: Float64Array): number {
  let max = 0;
  for (const v of levels) max = Math.max(max, v);
  for (let k = levels.length - 1; k >= 0; k--) if (levels[k]! > max / 10) return (k + 1) * FRAME;
  return levels.length * FRAME;
}

export function wakeCut(pcm: Int16Array, heard: Heard | undefined, wakePhrases: readonly string[]): WakeCut {
  const none: WakeCut = { phrase: null, cutSample: 0, by: 'none' };
  if (!heard) return none;
  const words = said(heard.text).words;
  const match = wakePhrases
    .map((p) => ({ phrase: p, words: said(p).words }))
    .filter((p) => p.words.length > 0 && p.words.length <= words.length && p.words.every((w, i) => words[i] === w))
    .sort((a, b) => b.words.length - a.words.length)[0];
  if (!match) return none;
  const n = match.words.length;
  const levels = frameLevels(pcm);
  const start = heard.speechStartSample ?? 0;
  const timed = timedWords(heard);
  let cut: number;
  let by: WakeCut['by'];
  if (timed && timed.length >= n && match.words.every((w, i) => timed[i]!.word === w)) {
    const endSample = Math.round((timed[n - 1]!.endMs * SAMPLE_RATE) / 1000);
    cut = snap(levels, endSample, TIMED_WINDOW_MS, 0);
    by = 'word times';
  } else {
    const text = words.join(' ');
    const share = (match.words.join(' ').length + 1) / (text.length + 1);
    const end = speechEnd(levels);
    const estimate = start + share * Math.max(0, end - start);
    cut = snap(levels, estimate, ESTIMATE_WINDOW_MS, start);
    by = 'estimate';
  }
  cut = Math.max(0, Math.min(pcm.length, Math.round(cut)));
  if (pcm.length - cut < (MIN_REST_MS * SAMPLE_RATE) / 1000) return { phrase: match.phrase, cutSample: 0, by: 'none' };
  return { phrase: match.phrase, cutSample: cut, by };
}
