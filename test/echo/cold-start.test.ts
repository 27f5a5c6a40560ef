import { describe, expect, it } from 'vitest';
import { createEchoCleaner } from '../../src/echo/create.js';
import { EchoReference } from '../../src/echo/reference.js';
import { parseConfigText } from '../../src/config/load.js';
import { VirtualClock } from '../../src/core/clock.js';
import { EchoGate } from '../../src/echo/gate.js';
import { createVad } from '../../src/vad/create.js';
import { SegmentPipeline } from '../../src/vad/pipeline.js';
import { segmenterOptions } from '../../src/vad/options.js';
import { espeakPhrase } from '../support/speech.js';
import { runRoom } from './room-run.js';

/**
 * The first sound hark plays after it starts (or after its player reopened on a new card) meets a
 * canceller that knows nothing of the room yet: it finds the card's delay ~0.7 s in and cancels 2 dB
 * in the first second. Silero scores that barely-cancelled voice 0.9 or more in most frames, so the
 * default fallback (`raise`, threshold 0.9) alone let it open a segment; the double-talk decision
 * (src/echo/double-talk.ts: a residual no louder than hark's own sound explains is not speech) keeps
 * it shut, and `gate` hears only the button until the canceller is trusted. Where hark's sound does
 * not reach the microphone (a headset, a far speaker) there is nothing for the canceller to show it
 * cancels; it is trusted once it has looked for hark's sound and not found it, so even behind `gate`
 * a person talking over hark is heard there.
 * The production pipeline: the capture's SegmentPipeline with the EchoStage, Silero and the EchoGate.
 */
const RECIPE = 'Here is the recipe for the sponge. Preheat the oven to one hundred and eighty degrees.';
const T0 = 1000;

/** Segments (their VAD start, ms) hark opens on `mic` while it plays `ref` from mic sample 0, with `yaml`. */
async function opened(mic: Int16Array, ref: Int16Array, yaml: string, segments?: Array<[number, number]>, soundFrom = 0): Promise<number[]> {
  const config = parseConfigText(yaml, 'hark.yaml');
  const clock = new VirtualClock(0);
  const reference = new EchoReference();
  reference.played(ref, T0);
  const made = createEchoCleaner(config.echo, reference, clock);
  if ('error' in made) throw new Error(made.error);
  const gate = new EchoGate(config.echo, config.vad.threshold, clock);
  gate.setCanceller(made.cleaner);
  const vad = await createVad(config.vad);
  const pipeline = new SegmentPipeline({ vad, segmenter: segmenterOptions(config.vad), gate, echo: made.cleaner });
  const at: number[] = [];
  pipeline.on('open', (e) => at.push(Math.round(e.vadStartSample / 16)));
  if (segments) pipeline.on('segment', (g) => segments.push([Math.round(g.vadStartSample / 16), Math.round(g.endSample / 16)]));
  const PERIOD = 2000;
  for (let p = 0; p + PERIOD <= mic.length; p += PERIOD) {
    // arecord's period, reaching hark 5 ms after its last sample was captured.
    clock.advanceTo(T0 + (p + PERIOD) / 16 + 5);
    // speak.start when hark's sound begins (`soundFrom`, a sample of `ref`).
    if (p + PERIOD > soundFrom && !gate.active && p < ref.length) gate.playbackStarted();
    if (p >= ref.length + 55 * 16) gate.playbackEnded();
    await pipeline.push(mic.subarray(p, p + PERIOD));
  }
  await pipeline.end();
  await vad.close();
  return at;
}

describe("hark's first sound, the canceller cold", () => {
  // This opened a segment behind `raise` until the double-talk decision (the residual of a
  // cold canceller is explained by hark's own sound, src/echo/double-talk.ts).
  it.each([RECIPE, 'Timer set for 40 seconds.', 'Pasta timer done.'])(
    '"%s" through the room opens no segment, behind the default fallback (raise) or gate',
    async (text) => {
      const ref = await espeakPhrase(text);
      // The room's microphone: hark's voice 55 ms late, through a 250 ms reverberation, louder than a person.
      const { mic } = runRoom({ ref, delayMs: 55, gain: 0.7, rt60Ms: 250 });
      expect(await opened(mic, ref, '')).toEqual([]);
      expect(await opened(mic, ref, 'echo:\n  fallback: gate\n')).toEqual([]);
    },
  );

  it('where hark is not heard (a headset), a person talking over its answer 3 s in is heard, even behind gate', async () => {
    const ref = await espeakPhrase(RECIPE);
    const person = await espeakPhrase('computer stop');
    const mic = new Int16Array(ref.length + 16000);
    mic.set(person, 3 * 16000);
    const at = await opened(mic, ref, 'echo:\n  fallback: gate\n');
    expect(at).toHaveLength(1);
    expect(at[0]).toBeGreaterThanOrEqual(3000);
    expect(at[0]).toBeLessThan(3300);
  });

  it("a command the person began before hark's reply stays one segment when the reply starts over it, the canceller cold", async () => {
    // Seen in test/e2e/run.test.ts (ALSA's null device, a loaded machine): hark's reply to the first
    // command began 0.3 s into the second; the double-talk decision, its coupling still the cold
    // guess, took the voice for hark's and "computer," and the rest became two segments.
    const ref = await espeakPhrase('Timer set for 10 minutes.');
    const person = await espeakPhrase('computer, we are short three cases of milk for the order list', 'en-gb');
    for (const [leadMs, gain] of [
      [300, 0.3],
      [600, 0.3],
      [300, 1],
    ] as const) {
      // hark's sound starts at 1 s; the person leadMs before it, 10-20 dB under it; hark not heard.
      const mic = new Int16Array(16000 + ref.length + person.length + 32000);
      const at = 16000 - leadMs * 16;
      for (let i = 0; i < person.length; i++) mic[at + i] = Math.round(person[i]! * gain);
      const padded = new Int16Array(16000 + ref.length);
      padded.set(ref, 16000);
      const segments: Array<[number, number]> = [];
      await opened(mic, padded, '', segments, 16000);
      const heard = `person ${leadMs} ms before hark: segments (ms) ${JSON.stringify(segments)}`;
      expect(segments, heard).toHaveLength(1);
      expect(segments[0]![0], heard).toBeLessThan(at / 16 + 300);
      expect(segments[0]![1], heard).toBeGreaterThan((at + person.length) / 16 - 300);
    }
  });
});
