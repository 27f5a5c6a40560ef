import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import { EchoGate } from '../../src/echo/gate.js';
import { TalkOverEar } from '../../src/vad/talk-over-ear.js';
import type { Vad } from '../../src/vad/vad.js';
import type { EchoCleaner } from '../../src/echo/create.js';
import { SegmentPipeline } from '../../src/vad/pipeline.js';

const CANCEL = { mode: 'cancel' as const, raiseThreshold: 0.9, tailMs: 300, talkOverThreshold: 0.2 };

/** A VAD that counts the frames its state has heard since its last reset, and scores what it is told. */
function countingVad(score = 0.5) {
  const state = { heard: 0, resets: 0 };
  const vad: Vad = { name: 'silero', process: async () => (state.heard++, score), reset: () => ((state.heard = 0), state.resets++), close: async () => {} };
  return { vad, state };
}

describe("the second hearing while hark plays (a state that never settles on a whole list of hark's residual)", () => {
  it('starts afresh after resetFrames frames with no talk-over vouched for, and not during one', async () => {
    const { vad, state } = countingVad();
    const ear = new TalkOverEar(vad, 4);
    for (let i = 0; i < 4; i++) await ear.hear(new Int16Array(512), false);
    expect(state.resets).toBe(0);
    await ear.hear(new Int16Array(512), false);
    expect(state.resets).toBe(1);
    // Someone talking over hark: the state carries through the whole of it.
    for (let i = 0; i < 20; i++) await ear.hear(new Int16Array(512), true);
    expect(state.resets).toBe(1);
    expect(state.heard).toBe(21);
    ear.quiet();
    expect(state.resets).toBe(2);
    ear.quiet(); // nothing heard since: nothing to start afresh
    expect(state.resets).toBe(2);
  });

  it('lifts a vouched frame it scores 0.75 or more, and withholds the 0.2 lift from the VAD it does not agree with', () => {
    const gate = new EchoGate(CANCEL, 0.5, new VirtualClock(0));
    gate.setCanceller({ trusted: true, talkOver: true, echoOnly: false });
    gate.playbackStarted();
    const speech = (p: number, fresh?: number) => gate.adjust(p, false, fresh) >= 0.5;
    // The VAD's settled state scores the word 0.1: the second hearing, at 0.8, hears it.
    expect(speech(0.1)).toBe(false);
    expect(speech(0.1, 0.8)).toBe(true);
    expect(speech(0.1, 0.7)).toBe(false);
    // hark's residual the VAD scores 0.24 (lifted to 0.6): heard only if the second hearing agrees.
    expect(speech(0.24)).toBe(true);
    expect(speech(0.24, 0.55)).toBe(false);
    expect(speech(0.24, 0.65)).toBe(true);
    // Not a vouched frame: neither lift.
    gate.setCanceller({ trusted: true, talkOver: false, echoOnly: false });
    expect(speech(0.1, 0.9)).toBe(false);
  });

  it('is made only where it can count: a canceller, a talk-over lift under the VAD threshold, vad.stateResetMs, a VAD that twins', () => {
    const segmenter = { threshold: 0.5, releaseThreshold: 0.35, prerollMs: 500, minSpeechMs: 96, hangoverMs: 600, maxSegmentMs: 12_000, minSegmentMs: 120 };
    const echo = {} as EchoCleaner;
    const made = (o: { over?: number; mode?: 'cancel' | 'raise'; resetMs?: number; withEcho?: boolean; twins?: boolean }) => {
      let twins = 0;
      const vad: Vad = { name: 'silero', process: async () => 0, reset: () => {}, close: async () => {} };
      if (o.twins !== false) vad.twin = () => (twins++, { ...vad });
      const gate = new EchoGate({ ...CANCEL, mode: o.mode ?? 'cancel', talkOverThreshold: o.over ?? 0.2 }, 0.5, new VirtualClock(0));
      new SegmentPipeline({ vad, segmenter: { ...segmenter, stateResetMs: o.resetMs ?? 2000 }, gate, ...(o.withEcho === false ? {} : { echo }) });
      return twins;
    };
    expect(made({})).toBe(1);
    expect(made({ over: 0.5 })).toBe(0);
    expect(made({ mode: 'raise' })).toBe(0);
    expect(made({ resetMs: 0 })).toBe(0);
    expect(made({ withEcho: false })).toBe(0);
    expect(made({ twins: false })).toBe(0);
  });
});
