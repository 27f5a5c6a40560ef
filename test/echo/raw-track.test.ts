import { describe, expect, it } from 'vitest';
import { createEchoCleaner } from '../../src/echo/create.js';
import { EchoReference } from '../../src/echo/reference.js';
import { VirtualClock } from '../../src/core/clock.js';

/**
 * The debug page's second track marks where hark's sound was in the microphone. A segment that
 * began before hark spoke (the cook talking, then hark answering over them) must not have its
 * opening marked as playback: found in a real `hark run`, where a whole 500 ms pre-roll was shaded
 * because every frame before a clip counted as the clip's "tail".
 */
describe("the raw track's playback marks", () => {
  it('start where hark started playing, not at the start of the segment', () => {
    const clock = new VirtualClock();
    const reference = new EchoReference();
    const made = createEchoCleaner({ filterMs: 128, residual: true, denoise: false, denoiseDb: 15 }, reference, clock);
    if ('error' in made) throw new Error(made.error);
    const { cleaner } = made;
    // hark plays 1 s of tone starting 2 s into the microphone's timeline; the clip is registered
    // before the frames that precede it are processed (the player reports a clip as it starts).
    const tone = new Int16Array(16000).map((_, i) => Math.round(6000 * Math.sin((2 * Math.PI * 440 * i) / 16000)));
    reference.played(tone, 2000);
    const F = 512;
    const total = 4 * 16000;
    const mic = new Int16Array(total);
    for (let i = 0; i < tone.length; i++) mic[32000 + 800 + i] = Math.round(tone[i]! * 0.5);
    for (let p = 0; p + F <= total; p += F) {
      cleaner.arrived(F, (p + F) / 16);
      cleaner.process(mic.subarray(p, p + F), p);
    }
    const track = cleaner.rawTrack(16000, 56000);
    expect(track).not.toBeNull();
    const first = track!.playback[0]!;
    // Relative to the segment (which starts at 1 s): hark's sound starts 1 s in. Frames are 32 ms
    // and the filter starts a little before the estimated delay, so allow one frame and the margin.
    expect(first.start).toBeGreaterThanOrEqual(16000 - F - 20 * 16);
    expect(first.start).toBeLessThanOrEqual(16000 + 800 + F);
    // The mark runs to the clip's end (3 s, 2 s into the segment) and its echo's tail (the filter's
    // 128 ms), not to the end of the segment's audio.
    const last = track!.playback[track!.playback.length - 1]!;
    expect(last.end).toBeGreaterThanOrEqual(32000);
    expect(last.end).toBeLessThanOrEqual(32000 + 800 + 2048 + 2 * F + 20 * 16);
  });
});
