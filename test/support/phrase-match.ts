import type { Scene } from './speech.js';

/**
 * Which scripted phrase a segment's audio holds, for the Deepgram double's `hear`: the double then
 * answers by what was said, not by the order segments reach it. With local Whisper first, a segment
 * can reach the cloud before the one said earlier (Whisper busy with an inference past its deadline
 * passes it over), and a double answering by order would hand out the wrong words.
 *
 * Matched on loudness envelopes (mean |x| per 10 ms), by normalised correlation: robust to what the
 * echo canceller and the VAD's pre-roll do to the samples, exact enough to tell phrases apart.
 */
const HOP = 160;

function envelope(pcm: Int16Array, from = 0, to = pcm.length): Float64Array {
  const n = Math.floor((to - from) / HOP);
  const e = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    let s = 0;
    for (let i = from + k * HOP; i < from + (k + 1) * HOP; i++) s += Math.abs(pcm[i]!);
    e[k] = s / HOP;
  }
  return e;
}

/** The share of `hay`'s loudness that lies in [from, from + m): how much of the segment a phrase there explains. */
function coverage(hay: Float64Array, from: number, m: number): number {
  let all = 0;
  let inside = 0;
  for (let i = 0; i < hay.length; i++) {
    all += hay[i]!;
    if (i >= from && i < from + m) inside += hay[i]!;
  }
  return all > 0 ? inside / all : 0;
}

/**
 * Below this share of the segment's loudness a phrase that correlates is not what the segment holds:
 * a short word ("yes") can find a word-shaped bump inside a long sentence that the echo canceller's
 * suppressor reshaped (seen under load: the sentence's segment was answered "yes").
 */
const MIN_COVERAGE = 0.6;

/**
 * Best normalised correlation of `needle` slid along `hay` (needle fully inside), among the offsets
 * where the needle holds most of `hay`'s loudness (MIN_COVERAGE).
 */
function bestCorrelation(hay: Float64Array, needle: Float64Array): number {
  const m = needle.length;
  if (m === 0 || hay.length < m) return 0;
  let nMean = 0;
  for (const v of needle) nMean += v;
  nMean /= m;
  let nVar = 0;
  for (const v of needle) nVar += (v - nMean) ** 2;
  let best = 0;
  for (let o = 0; o + m <= hay.length; o++) {
    let hMean = 0;
    for (let i = 0; i < m; i++) hMean += hay[o + i]!;
    hMean /= m;
    let cov = 0;
    let hVar = 0;
    for (let i = 0; i < m; i++) {
      const h = hay[o + i]! - hMean;
      cov += h * (needle[i]! - nMean);
      hVar += h * h;
    }
    const c = hVar > 0 && nVar > 0 ? cov / Math.sqrt(hVar * nVar) : 0;
    if (c > best && coverage(hay, o, m) >= MIN_COVERAGE) best = c;
  }
  return best;
}

/**
 * Best normalised correlation of the start of `needle` against the end of `hay`: `hay` holds the
 * needle's first words and stops inside it (a segment's opening, sent before the segment closed).
 * Returns the share of the needle heard, or 0 when under `minShare` of it or no offset correlates.
 */
function bestPrefix(hay: Float64Array, needle: Float64Array, minCorrelation: number, minShare: number): number {
  let best = { c: 0, share: 0 };
  for (let o = 0; o < hay.length; o++) {
    const m = Math.min(needle.length, hay.length - o);
    if (m < needle.length * minShare || m >= needle.length) continue;
    const c = bestCorrelation(hay.subarray(o, o + m), needle.subarray(0, m));
    if (c >= minCorrelation && c > best.c && coverage(hay, o, m) >= MIN_COVERAGE) best = { c, share: m / needle.length };
  }
  return best.share;
}

/** The words of `text` said within its first `share` (by characters: espeak-ng speaks at a steady rate). */
function firstWords(text: string, share: number): string {
  const words = text.split(' ');
  const out: string[] = [];
  let chars = 0;
  for (const w of words) {
    chars += w.length + 1;
    if (chars > text.length * share + 1) break;
    out.push(w);
  }
  return out.join(' ');
}

/**
 * What a segment holds: a whole phrase, or (`partial`) the words at the start of one that it stops
 * inside — hark sends a long segment's opening before it closes (the wake-phrase check), and
 * Deepgram hears the words said so far.
 */
export function phraseMatcher(scene: Scene, minCorrelation = 0.85): (pcm: Int16Array) => { text: string; partial?: true } | null {
  const phrases = scene.phrases.map((p) => ({ text: p.text, env: envelope(scene.pcm, p.start, p.end) }));
  return (pcm) => {
    const env = envelope(pcm);
    let best: { text: string; c: number } | null = null;
    for (const p of phrases) {
      const c = bestCorrelation(env, p.env);
      if (c >= minCorrelation && (!best || c > best.c)) best = { text: p.text, c };
    }
    if (best) return { text: best.text };
    // An opening: at least a second of a phrase, and half of it.
    let prefix: { text: string; share: number } | null = null;
    for (const p of phrases) {
      const share = bestPrefix(env, p.env, minCorrelation, Math.max(0.5, 100 / p.env.length));
      if (share > 0 && (!prefix || share > prefix.share)) prefix = { text: p.text, share };
    }
    const words = prefix ? firstWords(prefix.text, prefix.share) : '';
    return words ? { text: words, partial: true } : null;
  };
}
