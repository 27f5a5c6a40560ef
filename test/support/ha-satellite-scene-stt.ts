import type { Scene } from './speech.js';

/**
 * Home Assistant's speech-to-text for an e2e whose audio is a known scene: it "hears" the scripted
 * phrases the audio it was sent actually holds. hark sends the recording's own samples (a stretch of
 * the input file), so the stretch is found exactly and each phrase counts as heard when nearly all
 * of it is inside: a wake phrase left in the audio is heard, one cut away is not, and a command
 * clipped by a bad cut is not heard either.
 */
const HEARD = 0.9;
const PROBE = 64;

/** Where `audio` sits in the scene, in samples, or null when it is not a stretch of it. */
export function locate(scene: Scene, audio: Int16Array): { start: number; end: number } | null {
  let i = 0;
  while (i < audio.length - PROBE && Math.abs(audio[i]!) < 500) i++;
  if (i >= audio.length - PROBE) return null;
  const hay = scene.pcm;
  for (let at = 0; at + PROBE <= hay.length; at++) {
    let k = 0;
    while (k < PROBE && hay[at + k] === audio[i + k]) k++;
    if (k === PROBE) return { start: at - i, end: at - i + audio.length };
  }
  return null;
}

/** The phrases of `scene` that `audio` holds (nearly) whole, in order, joined as one transcript. */
export function sceneStt(scene: Scene): (audio: Int16Array) => string {
  return (audio) => {
    const at = locate(scene, audio);
    if (!at) return '';
    return scene.phrases
      .filter((p) => (Math.min(p.end, at.end) - Math.max(p.start, at.start)) / (p.end - p.start) >= HEARD)
      .map((p) => p.text)
      .join(' ');
  };
}
