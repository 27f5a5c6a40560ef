import { beforeAll, describe, expect, it } from 'vitest';
import { espeakPhrase } from '../support/speech.js';
import { hiss } from './room-run.js';
import { runLiveRoom } from './live-room.js';

/**
 * The long-lived aplay stays open for a minute after hark last spoke
 * (speech.playerIdleMs), so its latency holds across replies. The echo reference forgets sound a few
 * seconds after it played (3.5 s); it counted the same aplay's next sound after such a quiet as a new
 * process, and the canceller stood down at the start of every reply a cook answers after a pause: the
 * default fallback raised the VAD threshold for half a second, just when the cook speaks.
 */
const FIRST = 'Here is the recipe for the sponge. Preheat the oven to one hundred and eighty degrees.';
const SECOND = 'Timer set for forty seconds. I will ring when it is done.';

describe('two replies with a quiet of more than 3.5 s between them', () => {
  let first: Int16Array;
  let second: Int16Array;
  beforeAll(async () => {
    first = await espeakPhrase(FIRST);
    second = await espeakPhrase(SECOND);
  }, 60_000);

  /** Frames of the second reply (from when its echo reaches the mic to 2 s in) in which the canceller was not trusted. */
  const untrustedInSecond = (trusted: boolean[], secondAtMs: number, pathMs: number) => {
    const from = Math.round((secondAtMs + pathMs) / 32);
    return trusted.slice(from, from + Math.round(2000 / 32)).filter((t) => !t).length;
  };

  it.each([
    // [card latency ms, RT60 ms, quiet between the replies ms]
    [30, 250, 4000],
    [70, 350, 5000],
    [100, 600, 8000],
  ])('through the same aplay (card %i ms, RT60 %i ms, %i ms apart): the canceller stays trusted into the second reply', async (cardMs, rt60Ms, quietMs) => {
    const secondAt = 500 + first.length / 16 + quietMs;
    const run = await runLiveRoom({
      clips: [
        { pcm: first, atMs: 500 },
        { pcm: second, atMs: secondAt },
      ],
      cardMs,
      delayMs: 5,
      gain: 0.7,
      rt60Ms,
      noise: hiss(),
    });
    expect(run.processes).toBe(1);
    // Trusted by the end of the first reply, and still at the start of the second: nothing moved.
    expect(run.trusted[Math.round((500 + first.length / 16) / 32)]).toBe(true);
    expect(untrustedInSecond(run.trusted, secondAt, cardMs + 5)).toBe(0);
  });

  it('through a new aplay process (the old one closed in the quiet, the new one 40 ms slower): the fallback stands in again until it is cancelled', async () => {
    const secondAt = 500 + first.length / 16 + 5000;
    const run = await runLiveRoom({
      clips: [
        { pcm: first, atMs: 500 },
        { pcm: second, atMs: secondAt },
      ],
      cardMs: (process) => (process === 1 ? 70 : 110),
      delayMs: 5,
      gain: 0.7,
      rt60Ms: 350,
      noise: hiss(),
      idleCloseMs: 2000,
    });
    expect(run.processes).toBe(2);
    expect(run.trusted[Math.round((500 + first.length / 16) / 32)]).toBe(true);
    expect(untrustedInSecond(run.trusted, secondAt, 115)).toBeGreaterThan(0);
    // ...and not for the whole reply: it finds the new latency and is trusted again.
    expect(run.trusted.at(-1)).toBe(true);
    expect(Math.abs(run.stage.status.delayMs - 115)).toBeLessThan(5);
  });
});
