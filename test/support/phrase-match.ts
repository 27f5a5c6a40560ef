import type { Scene } from './speech.js';

/**
 * Which scripted phrase a segment's audio holds, for the Deepgram double's `hear`: the double then
 * answers by what was said, not by the order segments reach it. With local Whisper first, a segment
 * can reach the cloud before the one said earlier (Whisper busy with an inference past its deadline
 * passes it over, issue 21), and a double answering by order would hand out the wrong words.
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

/** Best normalised correlation of `needle` slid along `hay` (needle fully inside). */
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
    if (c > best) best = c;
  }
  return best;
}

export function phraseMatcher(scene: Scene, minCorrelation = 0.85): (pcm: Int16Array) => { text: string } | null {
  const phrases = scene.phrases.map((p) => ({ text: p.text, env: envelope(scene.pcm, p.start, p.end) }));
  return (pcm) => {
    const env = envelope(pcm);
    let best: { text: string; c: number } | null = null;
    for (const p of phrases) {
      const c = bestCorrelation(env, p.env);
      if (c >= minCorrelation && (!best || c > best.c)) best = { text: p.text, c };
    }
    return best ? { text: best.text } : null;
  };
}
