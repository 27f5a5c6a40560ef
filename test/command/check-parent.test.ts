import { describe, expect, it } from 'vitest';
import { harness } from './harness.js';

/**
 * A notes frame over base, opened by "take a note". Its rule order is the thing under test:
 * where check-parent sits decides whether the base frame or the catch-all gets "mode query".
 */
function withNotes(rules: unknown[]) {
  return harness({
    config: {
      router: {
        frames: {
          base: {
            rules: [
              { exact: 'take a note', do: { push: 'notes' } },
              { exact: 'mode query', do: 'say-mode' },
            ],
          },
          notes: { kind: 'query', rules },
        },
      },
    },
  });
}

describe('check-parent', () => {
  it('before the catch-all: the parent takes its words, the catch-all keeps the rest', () => {
    const h = withNotes(['check-parent', { 'catch-all': true, do: 'append' }]);
    h.sayAll('take a note', 'buy flour', 'mode query');
    expect(h.spoken()).toEqual(['Wake word mode. Say computer first.']);
    h.clock.advanceBy(4000);
    expect(h.submits().map((s) => s.text)).toEqual(['buy flour']);
  });

  it('after the catch-all: never reached, the catch-all takes everything', () => {
    const h = withNotes([{ 'catch-all': true, do: 'append' }, 'check-parent']);
    h.sayAll('take a note', 'buy flour', 'mode query');
    expect(h.spoken()).toEqual([]);
    h.clock.advanceBy(4000);
    expect(h.submits().map((s) => s.text)).toEqual(['buy flour mode query']);
  });

  it('after the catch-all still passes down what the catch-all refuses (fillers)', () => {
    const h = withNotes([{ 'catch-all': true, do: 'append' }, 'check-parent']);
    h.sayAll('take a note', 'um');
    expect(h.ignored()).toEqual([{ frame: 'notes', text: 'um' }]);
  });

  it('at exactly its position: rules above it win over the parent, rules below lose', () => {
    const h = withNotes([
      { exact: 'mode query', do: { say: 'notes mode' } },
      'check-parent',
      { exact: 'take a note', do: { say: 'already noting' } },
      { 'catch-all': true, do: 'append' },
    ]);
    h.sayAll('take a note', 'mode query', 'take a note');
    expect(h.spoken()).toEqual(['notes mode']);
    // The second "take a note" reached the base frame first (check-parent sits above the notes
    // frame's own rule), where re-opening an open frame just acknowledges: "already noting" never ran.
    expect(h.stack()).toEqual(['base', 'notes']);
  });

  it('absent: the frame is exclusive and what it does not take is ignored, not passed down', () => {
    const h = withNotes([{ exact: 'finish', do: ['submit', 'pop'] }]);
    h.sayAll('take a note', 'mode query', 'finish');
    expect(h.spoken()).toEqual(['Nothing to send.']);
    expect(h.of('ignored')).toEqual([expect.objectContaining({ frame: 'notes', text: 'mode query', reason: "not one of the notes frame's commands" })]);
  });

  it('walks several frames down, bottom to top order preserved', () => {
    const h = harness({
      config: {
        router: {
          frames: {
            base: {
              rules: [
                { exact: 'one', do: { push: 'a' } },
                { exact: 'ping', do: { say: 'pong from base' } },
              ],
            },
            a: { kind: 'query', rules: [{ exact: 'two', do: { push: 'b' } }, 'check-parent'] },
            b: { kind: 'query', rules: [{ exact: 'three', do: { push: 'c' } }, 'check-parent'] },
            c: { kind: 'query', rules: ['check-parent', { 'catch-all': true, do: 'append' }] },
          },
        },
      },
    });
    h.sayAll('one', 'two', 'three', 'ping');
    expect(h.stack()).toEqual(['base', 'a', 'b', 'c']);
    expect(h.spoken()).toEqual(['pong from base']);
  });
});
