import { describe, expect, it } from 'vitest';
import { createEchoCleaner } from '../../src/audio/echo-create.js';
import { EchoReference } from '../../src/audio/echo-reference.js';
import { parseConfigText } from '../../src/config/load.js';
import { VirtualClock } from '../../src/core/clock.js';
import { EchoGate } from '../../src/speech/echo-gate.js';
import { createVad } from '../../src/vad/create.js';
import { SegmentPipeline } from '../../src/vad/pipeline.js';
import { segmenterOptions } from '../../src/vad/options.js';
import { espeakPhrase } from '../support/speech.js';
import { runRoom } from './room-run.js';

/**
 * The first sound hark plays after it starts (or after its player reopened on a new card) meets a
 * canceller that knows nothing of the room yet: it finds the card's delay ~0.7 s in and cancels 2 dB
 * in the first second (README, echo notes). Silero scores that barely-cancelled voice 0.9 or more in
 * most frames, so the default fallback (`raise`, threshold 0.9) lets it open a segment; with
 * `speech.echoFallback: gate` only the button is heard until the canceller is trusted, and hark's own
 * first words open no segment. The production pipeline: the capture's SegmentPipeline with the
 * EchoStage, Silero and the EchoGate.
 */
describe("hark's first sound, the canceller cold, with speech.echoFallback: gate", () => {
  it.each([
    'Here is the recipe for the sponge. Preheat the oven to one hundred and eighty degrees.',
    'Timer set for 40 seconds.',
    'Pasta timer done.',
  ])('"%s" opens no segment', async (text) => {
    const config = parseConfigText('speech:\n  echoFallback: gate\n', 'hark.yaml');
    const ref = await espeakPhrase(text);
    const T0 = 1000;
    // The room's microphone: hark's voice 55 ms late, through a 250 ms reverberation, louder than a person.
    const { mic } = runRoom({ ref, delayMs: 55, gain: 0.7, rt60Ms: 250 });
    const clock = new VirtualClock(0);
    const reference = new EchoReference();
    reference.played(ref, T0);
    const made = createEchoCleaner(config.speech, reference, clock);
    if ('error' in made) throw new Error(made.error);
    const gate = new EchoGate(config.speech, config.vad.threshold, clock);
    gate.setCanceller(made.cleaner);
    gate.playbackStarted();
    const vad = await createVad(config.vad);
    const pipeline = new SegmentPipeline({ vad, segmenter: segmenterOptions(config.vad), gate, echo: made.cleaner });
    const opened: number[] = [];
    pipeline.on('open', (e) => opened.push(Math.round(e.vadStartSample / 16)));
    const PERIOD = 2000;
    for (let p = 0; p + PERIOD <= mic.length; p += PERIOD) {
      // arecord's period, reaching hark 5 ms after its last sample was captured.
      clock.advanceTo(T0 + (p + PERIOD) / 16 + 5);
      if (p >= ref.length + 55 * 16) gate.playbackEnded();
      await pipeline.push(mic.subarray(p, p + PERIOD));
    }
    await pipeline.end();
    await vad.close();
    expect(opened).toEqual([]);
  });
});
