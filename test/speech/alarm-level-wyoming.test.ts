import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { Bus } from '../../src/core/bus.js';
import { SystemClock } from '../../src/core/clock.js';
import { validateConfig } from '../../src/config/load.js';
import { createSpeech, type Speech } from '../../src/speech/create.js';
import { synthEarcon } from '../../src/speech/earcons.js';
import { withGain } from '../../src/speech/alarm-level.js';
import { PiperPeer } from '../support/wyoming-piper.js';
import { recordingAplay, until } from '../support/aplay-stand-in.js';

/**
 * A ring with a Wyoming voice (the Piper double, test/support/wyoming-piper.ts): its spoken name comes
 * from the server and its earcon from hark's bank; both must reach aplay at the ring's level, not at
 * the voice's. Read from what hark hands to a stand-in aplay that keeps every clip.
 */
describe('a ring spoken by a Wyoming voice, as handed to aplay', () => {
  let speech: Speech | null = null;
  let piper: PiperPeer | null = null;
  const oldPath = process.env.PATH;
  afterEach(async () => {
    speech?.close();
    speech = null;
    await piper?.close();
    piper = null;
    process.env.PATH = oldPath;
  });

  /** The gain (dB) from `ref` to `out`, taken where neither is near silence nor `out` near the ceiling. */
  function gainDb(ref: Int16Array, out: Int16Array): number {
    const n = Math.min(ref.length, out.length);
    const ratios: number[] = [];
    for (let i = 0; i < n; i++) if (Math.abs(ref[i]!) > 2000 && Math.abs(out[i]!) < 32000) ratios.push(out[i]! / ref[i]!);
    expect(ratios.length).toBeGreaterThan(100);
    ratios.sort((a, b) => a - b);
    return Math.round(20 * Math.log10(ratios[ratios.length >> 1]!) * 10) / 10;
  }

  it('the earcon and the spoken name of a ring are at the alarm level (quiet room: alarmDb), the voice stays at its own', async () => {
    piper = await PiperPeer.start();
    const aplay = recordingAplay('alarm-level-wyoming');
    process.env.PATH = `${join(aplay.bin, '..')}:${oldPath}`;
    const config = validateConfig(
      { speech: { device: 'null', alarmDb: 6, alarmStepDb: 2, alarmMaxDb: 14, wyoming: { server: piper.url } }, echo: { mode: 'off' } },
      'test',
    );
    speech = createSpeech(config, { bus: new Bus(), clock: new SystemClock() });
    const played = async (n: number) => until(`${n} clips`, () => (aplay.clips().length >= n && !speech!.queue.busy ? aplay.clips() : undefined), 15_000);
    speech.queue.say('Pasta timer done.');
    const [plain] = await played(1);
    speech.queue.earcon('timer', { ring: 1 });
    speech.queue.say('Pasta timer done.', { ring: 1 });
    const clips = await played(3);
    expect(piper.requests.map((r) => r.text)).toEqual(['Pasta timer done.', 'Pasta timer done.']);
    // One unanswered ring in a room whose floor is not known: 6 + 2 dB over the voice.
    // The earcon at 8 dB passes the ceiling: as withGain holds it (test/speech/alarm-ceiling.test.ts).
    expect(Array.from(clips[1]!)).toEqual(Array.from(withGain(synthEarcon('timer', config.speech.earconVolume), 8)));
    expect(gainDb(plain!, clips[2]!)).toBeCloseTo(8, 0);
  }, 30_000);
});
