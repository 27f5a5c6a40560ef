import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Bus } from '../../src/core/bus.js';
import { VirtualClock } from '../../src/core/clock.js';
import { DEFAULT_IGNORE_LIST, words } from '../../src/turn/ignore-list.js';
import { InterruptionFilter, type FilterDecision } from '../../src/turn/interruption.js';
import { createBargeIn } from '../../src/turn/wiring.js';
import { SpeechQueue } from '../../src/speech/queue.js';
import { SimulatedOutput } from '../../src/speech/simulated-output.js';

/** Eight correctness properties, each over at least 100 generated cases. */
const RUNS = { numRuns: 150 };
const SETTINGS = { enabled: true, ignoreList: DEFAULT_IGNORE_LIST, caseSensitive: false, bufferMs: 500 };
const KNOWN = new Set(DEFAULT_IGNORE_LIST.flatMap((e) => words(e)));

function filter(onDecision?: (d: FilterDecision) => void, clock = new VirtualClock(), speaking = true) {
  return new InterruptionFilter({ settings: SETTINGS, clock, isSpeaking: () => speaking, ...(onDecision ? { onDecision } : {}) });
}

const entry = fc.constantFrom(...DEFAULT_IGNORE_LIST);
const punct = fc.constantFrom('', '', '.', ',', '!', '?', '...');
/** Backchannel utterances as engines write them: one or more entries, with punctuation. */
const backchannel = fc.array(fc.tuple(entry, punct), { minLength: 1, maxLength: 4 }).map((parts) => parts.map(([e, p]) => e + p).join(' '));
/** A word that no ignore-list entry contains. */
const foreign = fc.stringMatching(/^[a-z]{2,9}$/).filter((w) => !KNOWN.has(w));
const randomCase = (s: string) =>
  fc.array(fc.boolean(), { minLength: s.length, maxLength: s.length }).map((up) => [...s].map((c, i) => (up[i] ? c.toUpperCase() : c.toLowerCase())).join(''));

describe('interruption filter: its properties', () => {
  it('1. ignore-list matching is case-insensitive', () => {
    fc.assert(
      fc.property(
        backchannel.chain((b) => fc.tuple(fc.constant(b), randomCase(b))),
        fc.boolean(),
        ([text, cased], speaking) => {
          const f = filter();
          expect(f.decide(cased, speaking).action).toBe(f.decide(text.toLowerCase(), speaking).action);
        },
      ),
      RUNS,
    );
  });

  it('2. while hark speaks, ignore-list words do not interrupt', () => {
    fc.assert(
      fc.property(backchannel, (text) => {
        const d = filter().decide(text, true);
        expect(d.action).toBe('filter');
        expect(d.reason).toMatch(/backchannel/);
      }),
      RUNS,
    );
  });

  it('3. while hark is silent, the same words are ordinary input and no interruption is reported', () => {
    fc.assert(
      fc.property(backchannel, fc.boolean(), (text, final) => {
        const reported: FilterDecision[] = [];
        const f = filter((d) => reported.push(d), new VirtualClock(), false);
        const d = f.transcript({ id: 'u1', text, final }, false);
        expect(d.action).toBe('allow');
        expect(d.reason).toMatch(/not speaking: ordinary input/);
        expect(reported).toEqual([]);
      }),
      RUNS,
    );
  });

  it('4. a word not in the ignore list interrupts at once, even in a partial transcript', () => {
    fc.assert(
      fc.property(foreign, punct, fc.boolean(), (word, p, final) => {
        const reported: FilterDecision[] = [];
        const d = filter((x) => reported.push(x)).transcript({ id: 'u', text: word + p, final }, true);
        expect(d.action).toBe('allow');
        expect(reported.map((r) => r.action)).toEqual(['allow']);
      }),
      RUNS,
    );
  });

  it('5. mixed input (ignored and non-ignored words) interrupts', () => {
    fc.assert(
      fc.property(fc.array(entry, { minLength: 1, maxLength: 4 }), foreign, fc.nat(), (entries, word, at) => {
        const parts = [...entries];
        parts.splice(at % (parts.length + 1), 0, word);
        const d = filter().decide(parts.join(' '), true);
        expect(d.action).toBe('allow');
        expect(d.reason).toContain(word);
      }),
      RUNS,
    );
  });

  it('6. a partial made of ignore-list words waits for the final; the final decides; no final within bufferMs allows', () => {
    fc.assert(
      fc.property(backchannel, fc.option(foreign, { nil: undefined }), fc.integer({ min: 0, max: 900 }), (text, extra, finalAfterMs) => {
        const clock = new VirtualClock();
        const reported: FilterDecision[] = [];
        const f = filter((d) => reported.push(d), clock);
        const partial = f.transcript({ id: 'u', text, final: false }, true);
        expect(partial.action).toBe('pending');
        const finalText = extra ? `${text} ${extra}` : text;
        clock.advanceBy(finalAfterMs);
        const final = f.transcript({ id: 'u', text: finalText, final: true }, true);
        const settled = reported.filter((d) => d.action !== 'pending');
        expect(settled).toHaveLength(1);
        if (finalAfterMs < SETTINGS.bufferMs) {
          expect(final.action).toBe(extra ? 'allow' : 'filter');
        } else {
          // the person was given the floor when the buffer ran out; the late final changes nothing
          expect(settled[0]!.action).toBe('allow');
          expect(settled[0]!.reason).toMatch(/no final transcript within 500 ms/);
          expect(final).toEqual(settled[0]);
        }
        expect(f.pendingCount).toBe(0);
      }),
      RUNS,
    );
  });

  /** hark saying `said` with backchannels at the given times; returns what the speaker did. */
  function speakWith(said: string, interjections: { atMs: number; text: string; partial: boolean }[]) {
    const clock = new VirtualClock();
    const bus = new Bus();
    const output = new SimulatedOutput({ clock });
    const queue = new SpeechQueue({ output, clock, bus });
    const events: string[] = [];
    bus.onAny((name) => events.push(name));
    const barge = createBargeIn({ settings: SETTINGS, clock, bus, targets: { isSpeaking: () => queue.isSpeaking, stopSpeaking: (r) => queue.stop(r) } });
    const item = queue.say(said);
    const positions: ReturnType<SpeechQueue['position']>[] = [];
    const times = [...interjections].sort((a, b) => a.atMs - b.atMs);
    let n = 0;
    for (const t of times) {
      clock.advanceTo(t.atMs);
      positions.push(queue.position());
      const id = `u${n++}`;
      if (t.partial) barge.transcript({ id, text: t.text.split(' ')[0]!, final: false }, queue.isSpeaking);
      barge.transcript({ id, text: t.text, final: true }, queue.isSpeaking);
      positions.push(queue.position());
    }
    clock.advanceBy(60_000);
    return { output, item, events, positions };
  }

  it("7. a filtered interruption leaves hark's speech complete and unchanged", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ minLength: 5, maxLength: 80 }),
        fc.array(fc.record({ at: fc.double({ min: 0, max: 0.99, noNaN: true }), text: backchannel, partial: fc.boolean() }), { maxLength: 6 }),
        async (said, xs) => {
          const duration = said.length * 70;
          const run = speakWith(
            said,
            xs.map((x) => ({ atMs: Math.floor(x.at * duration), text: x.text, partial: x.partial })),
          );
          expect(await run.item.done).toBe('ended');
          expect(run.output.log).toEqual([{ id: 1, text: said, startMs: 0, endMs: duration, outcome: 'ended' }]);
          expect(run.events).not.toContain('speak.stopped');
          expect(run.events.filter((e) => e === 'interruption.filtered')).toHaveLength(xs.length);
        },
      ),
      RUNS,
    );
  });

  it("8. filtering does not move hark's place in what it is saying", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 5, maxLength: 80 }),
        fc.array(fc.record({ at: fc.double({ min: 0, max: 0.99, noNaN: true }), text: backchannel }), { minLength: 1, maxLength: 6 }),
        (said, xs) => {
          const duration = said.length * 70;
          const times = xs.map((x) => ({ atMs: Math.floor(x.at * duration), text: x.text, partial: false }));
          const run = speakWith(said, times);
          const sorted = [...times].sort((a, b) => a.atMs - b.atMs);
          sorted.forEach((t, i) => {
            const expected = { id: 1, text: said, atMs: t.atMs };
            // the same place before and after the decision: the utterance position is the clock's, untouched
            expect(run.positions[2 * i]).toEqual(expected);
            expect(run.positions[2 * i + 1]).toEqual(expected);
          });
        },
      ),
      RUNS,
    );
  });

  it('any error inside the filter falls back to allowing the interruption', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (text, message) => {
        const f = new InterruptionFilter({
          settings: SETTINGS,
          clock: new VirtualClock(),
          isSpeaking: () => true,
          customFilter: () => {
            throw new TypeError(message);
          },
        });
        const d = f.decide(text, true);
        expect(d.action).toBe('allow');
        expect(d.confidence).toBe(0);
        expect(d.reason).toMatch(/^filter error \(TypeError/);
      }),
      RUNS,
    );
  });
});
