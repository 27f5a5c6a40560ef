import { describe, expect, it } from 'vitest';
import { FakeAplay, setup } from './aplay-stream-fake.js';

/**
 * A voice server's answer played through the long-lived aplay as it arrives must
 * never have silence inserted into it. wyoming-piper sends 1,024-sample chunks at 22,050 Hz
 * (wyoming_piper/handler.py, `samples_per_chunk`): 743 samples each at hark's 16 kHz. In the field
 * they come in one burst per sentence, or a little faster than real time with gaps (a slow box, a
 * relay). The player's clock is virtual; what is written to aplay is captured, and the silence inside
 * the clip is measured there.
 */
const CHUNK = 743;
const VOICE = 7;

type Pace = 'burst' | { speed: number; gapEvery: number; gapMs: number };

/** One answer of `chunks` chunks, aplay already idling while the server synthesizes its first sentence. */
async function answer(chunks: number, pace: Pace) {
  const { player, run, clock } = setup({ leadMs: 250 });
  const pb = player.playStream();
  await run(300);
  const firstAt = clock.now();
  for (let i = 1; i <= chunks; i++) {
    pb.push(new Int16Array(CHUNK).fill(VOICE));
    if (pace === 'burst') continue;
    await run(CHUNK / 16 / pace.speed + (i % pace.gapEvery === 0 ? pace.gapMs : 0));
  }
  pb.end();
  await run(1500);
  const result = await pb.done;
  const stream = FakeAplay.made[0]!.stream;
  const first = stream.indexOf(VOICE);
  const last = stream.lastIndexOf(VOICE);
  const inside = stream.subarray(first, last + 1);
  let longest = 0;
  let run0 = 0;
  for (const v of inside) {
    run0 = v === 0 ? run0 + 1 : 0;
    longest = Math.max(longest, run0);
  }
  return { result, firstAt, first, gapMs: longest / 16, played: stream.filter((v) => v === VOICE).length };
}

describe('AplayStream: a streamed answer plays without silence inside it', () => {
  const paces: [string, Pace][] = [
    ['in one burst (as handler.py writes a sentence)', 'burst'],
    ['a little faster than real time', { speed: 1.1, gapEvery: 1_000, gapMs: 0 }],
    ['a little faster than real time, with a 40 ms gap every 6 chunks', { speed: 1.25, gapEvery: 6, gapMs: 40 }],
  ];
  it.each(paces)('%s: every sample, back to back', async (_name, pace) => {
    const r = await answer(30, pace);
    expect(r.result.outcome).toBe('ended');
    expect(r.played).toBe(30 * CHUNK);
    expect(r.gapMs).toBe(0);
  });

  it('it starts sounding within the lead of its first audio (it waits for a lead of audio, no longer)', async () => {
    const r = await answer(30, { speed: 1.1, gapEvery: 1_000, gapMs: 0 });
    // The stream's position 0 sounds at clock 1000 (the fake aplay is up at once).
    const firstDue = 1000 + r.first / 16;
    expect(firstDue - r.firstAt).toBeLessThanOrEqual(250 + 20);
  });
});
