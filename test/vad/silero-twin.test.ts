import { beforeAll, describe, expect, it } from 'vitest';
import { SileroVad } from '../../src/vad/silero.js';
import { JFK_WAV, requireFile } from '../support/paths.js';
import { fixtures, frames, probs, readPcm16k } from './vad-audio.js';

/**
 * SileroVad.twin: the second hearing while hark plays (src/vad/talk-over-ear.ts) is a second stream on
 * the model the VAD already loaded. It must keep its own recurrent state (a state that heard hark's
 * list is what the second hearing is kept from), share the loaded model, and go with the original.
 */
let speech: Int16Array[];
let noise: Int16Array[];

beforeAll(async () => {
  speech = frames(await readPcm16k(requireFile(JFK_WAV))).slice(0, 150);
  noise = (await fixtures('silero')).phraseInNoise.frames.slice(0, 150);
});

describe('SileroVad.twin', () => {
  it('keeps its own state: two streams fed frame by frame in turn score what each scores alone', async () => {
    const vad = await SileroVad.create();
    const alone = { speech: await probs(vad, speech), noise: (vad.reset(), await probs(vad, noise)) };
    vad.reset();
    const twin = vad.twin();
    const both = { speech: [] as number[], noise: [] as number[] };
    for (let i = 0; i < speech.length; i++) {
      both.speech.push(await vad.process(speech[i]!));
      both.noise.push(await twin.process(noise[i]!));
    }
    // Not the same stream told twice: the two differ, and each is as it is alone.
    expect(alone.speech.filter((p, i) => Math.abs(p - alone.noise[i]!) > 0.3).length).toBeGreaterThan(10);
    both.speech.forEach((p, i) => expect(p).toBeCloseTo(alone.speech[i]!, 5));
    both.noise.forEach((p, i) => expect(p).toBeCloseTo(alone.noise[i]!, 5));
    // A reset of one is not the other's.
    twin.reset();
    expect(await vad.process(speech[150 - 1]!)).not.toBeCloseTo(await twin.process(speech[150 - 1]!), 3);
    await twin.close();
    await vad.close();
  });

  it('shares the loaded model: closing the twin leaves the original scoring, closing the original releases it', async () => {
    const vad = await SileroVad.create();
    const twin = vad.twin();
    expect(twin.modelPath).toBe(vad.modelPath);
    await twin.close();
    const after = await probs(vad, speech.slice(0, 40));
    expect(Math.max(...after)).toBeGreaterThan(0.5);
    const second = vad.twin();
    await vad.close();
    await expect(second.process(speech[0]!)).rejects.toThrow(/twinned from was closed/);
    await expect(vad.process(speech[0]!)).rejects.toThrow(/after close/);
    expect(() => vad.twin()).toThrow(/twin\(\) after close/);
  });
});
