import { describe, expect, it } from 'vitest';
import { Bus } from '../../src/core/bus.js';
import { VirtualClock } from '../../src/core/clock.js';
import { applySpeechEffect } from '../../src/path/speech-effects.js';
import { ResponseCascade } from '../../src/turn/cascade.js';
import type { Turn, Worked } from '../../src/turn/turns.js';
import { turnSteps } from '../../src/path/turn-steps.js';
import { testSpeech } from '../kit/speech.js';

/** The real speech queue over a player that records what it plays (the kit's), with the real cascade timing in front of it. */
function rig() {
  const clock = new VirtualClock(10_000);
  const voice = testSpeech({ clock, bus: new Bus() });
  const { speech, log } = voice;
  // The appliance's own steps (src/path/turn-steps.ts), on the recording speaker.
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
  return { clock, log, played: voice.output.played, speech, cascade, settle };
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

  it('a notice is said at once, with its earcon first', async () => {
    const { clock, played, speech, cascade } = rig();
    const now = clock.now();
    applySpeechEffect({ type: 'speak', text: 'Timer done.', earcon: 'timer' }, speech, cascade, 'base');
    await new Promise((r) => setImmediate(r));
    expect(played).toEqual([
      { kind: 'earcon', text: 'timer', at: now },
      { kind: 'speech', text: 'Timer done.', at: now },
    ]);
  });
});
