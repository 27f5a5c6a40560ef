import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import { applySpeechEffect } from '../../src/path/speech-effects.js';
import type { Speech } from '../../src/speech/create.js';
import { ResponseCascade } from '../../src/turn/cascade.js';
import type { Turn, Worked } from '../../src/turn/turns.js';
import { turnSteps } from '../../src/path/turn-steps.js';

/** A speaker that records what it was asked to do, with the real cascade timing in front of it. */
function rig() {
  const clock = new VirtualClock(10_000);
  const log: string[] = [];
  const speech = {
    queue: {
      say: (text: string) => log.push(`say ${text} @${clock.now()}`),
      earcon: (name: string) => log.push(`earcon ${name}`),
      clip: (_pcm: Int16Array, text: string) => {
        log.push(`play ${text} @${clock.now()}`);
        return { done: Promise.resolve() };
      },
      stop: () => log.push(`stop @${clock.now()}`),
      isSpeaking: false,
    },
    tts: { render: async (text: string) => new Int16Array(text.length) },
    gate: {},
    close: () => {},
  } as unknown as Speech;
  // The appliance's own steps (src/path/turn-steps.ts), on the fake speaker.
  const cascade = new ResponseCascade<Turn, Worked, Int16Array | null>({
    clock,
    timings: { modelMs: 500, renderMs: 1500, playMs: 2000 },
    steps: turnSteps({ speech, prepare: () => null, submitHeld: async () => {} }),
  });
  const settle = async (ms: number) => {
    for (let i = 0; i < ms / 100; i++) {
      clock.advanceBy(100);
      await new Promise((r) => setImmediate(r));
    }
  };
  return { clock, log, speech, cascade, settle };
}

describe('spoken answers follow the response cascade', () => {
  it('a read-back plays 2 s after the end of speech, not at once', async () => {
    const { clock, log, speech, cascade, settle } = rig();
    const endOfSpeech = clock.now() - 600; // a VAD close: the person stopped a hangover ago
    applySpeechEffect({ type: 'speak', text: '2 items: milk, eggs.', answer: true }, speech, cascade, 'inventory', endOfSpeech);
    expect(log).toEqual([]);
    await settle(1300);
    expect(log).toEqual([]);
    await settle(200);
    expect(log).toEqual([`play 2 items: milk, eggs. @${endOfSpeech + 2000}`]);
  });

  it('speaking again before it plays throws the answer away: it never plays late', async () => {
    const { log, speech, cascade, settle } = rig();
    applySpeechEffect({ type: 'speak', text: 'The order list: milk.', answer: true }, speech, cascade, 'query');
    await settle(1000);
    cascade.interrupt('speech'); // what a new segment opening does
    await settle(3000);
    expect(log.filter((l) => l.startsWith('play'))).toEqual([]);
  });

  it('a notice is said at once, with its earcon first', () => {
    const { clock, log, speech, cascade } = rig();
    applySpeechEffect({ type: 'speak', text: 'Timer done.', earcon: 'timer' }, speech, cascade, 'base');
    expect(log).toEqual(['earcon timer', `say Timer done. @${clock.now()}`]);
  });
});
