import { describe, expect, it } from 'vitest';
import { harness } from './harness.js';

/** Open a query with "computer", then say each line one second apart. */
function inQuery(...lines: string[]) {
  const h = harness();
  h.say('computer');
  h.sayAll(...lines);
  return h;
}

describe('query frame', () => {
  const table: { lines: string[]; stack: string[]; submits: string[]; spoken?: string[] }[] = [
    { lines: ['soup of the day', 'cancel'], stack: ['base'], submits: [] },
    { lines: ['soup of the day', 'abort'], stack: ['base'], submits: [] },
    { lines: ['soup of the day', 'go'], stack: ['base'], submits: ['soup of the day'] },
    { lines: ['soup of the day', 'done'], stack: ['base'], submits: ['soup of the day'] },
    { lines: ['soup of the day', 'Send.'], stack: ['base'], submits: ['soup of the day'] },
    { lines: ['soup of the day', 'and the special', 'read back'], stack: ['base', 'query'], submits: [], spoken: ['soup of the day and the special'] },
    { lines: ['read back'], stack: ['base', 'query'], submits: [], spoken: ['Nothing yet.'] },
    { lines: ['go'], stack: ['base'], submits: [], spoken: ['Nothing to send.'] },
  ];
  it.each(table)('$lines', (c) => {
    const h = inQuery(...c.lines);
    expect(h.stack()).toEqual(c.stack);
    expect(h.submits().map((s) => s.text)).toEqual(c.submits);
    if (c.spoken) expect(h.spoken()).toEqual(c.spoken);
  });

  it('submits to the frame target (file by default) and the target receives it', async () => {
    const h = inQuery('what time is service', 'go');
    await h.core.idle();
    expect(h.submits()).toEqual([{ frame: 'query', target: 'file', text: 'what time is service' }]);
    expect(h.targets.get('file')!.got).toEqual([
      expect.objectContaining({ kind: 'submit', frame: 'query', text: 'what time is service', utteranceIds: ['u2'] }),
    ]);
    expect(h.of('earcon').map((e) => e.name)).toEqual(['listening', 'sent']);
  });

  it('runs direct timer commands at once and closes', () => {
    const h = inQuery('set a timer for five minutes');
    expect(h.actions()).toEqual([{ name: 'timer.set', args: { seconds: 300 } }]);
    expect(h.stack()).toEqual(['base']);
  });

  it('gives the base frame first refusal (check-parent before the catch-all)', () => {
    const h = inQuery('first part', 'mode query', 'second part');
    expect(h.spoken()).toEqual(['Wake word mode. Say computer first.']);
    h.clock.advanceBy(4000);
    // "mode query" was taken by the base frame, so it is not part of the query text.
    expect(h.submits().map((s) => s.text)).toEqual(['first part second part']);
  });

  it('lets a base command push over the query, and the query survives beneath it', () => {
    const h = inQuery('soup', 'switch voice');
    expect(h.stack()).toEqual(['base', 'query', 'voice']);
    // The query's silence timer is paused while covered: 10 s later nothing was submitted.
    h.clock.advanceBy(10_000);
    expect(h.submits()).toEqual([]);
    h.say('british', h.clock.now() + 100);
    expect(h.stack()).toEqual(['base', 'query']);
    h.clock.advanceBy(4000);
    expect(h.submits().map((s) => s.text)).toEqual(['soup']);
  });

  it('fillers alone are not appended', () => {
    const h = inQuery('um', 'uh', 'soup', 'hmm');
    h.clock.advanceBy(4000);
    expect(h.submits().map((s) => s.text)).toEqual(['soup']);
    expect(h.ignored().map((i) => i.text)).toEqual(['um', 'uh', 'hmm']);
  });
});

describe('query silence timer', () => {
  it('submits the text 4 s after the last utterance', () => {
    const h = harness();
    h.say('computer', 0);
    h.say('how many covers tonight', 1000);
    h.clock.advanceTo(4999);
    expect(h.submits()).toEqual([]);
    h.clock.advanceTo(5000);
    expect(h.submits().map((s) => s.text)).toEqual(['how many covers tonight']);
    expect(h.stack()).toEqual(['base']);
  });

  it('restarts on every utterance, so a slow talker is not cut off', () => {
    const h = harness();
    h.say('computer', 0);
    h.say('one', 3000);
    h.say('two', 6500);
    h.say('three', 10_000);
    h.clock.advanceTo(13_999);
    expect(h.submits()).toEqual([]);
    h.clock.advanceTo(14_000);
    expect(h.submits().map((s) => s.text)).toEqual(['one two three']);
  });

  it('closes quietly with the cancelled earcon when nothing was said', () => {
    const h = harness();
    h.say('computer', 0);
    h.clock.advanceTo(4000);
    expect(h.stack()).toEqual(['base']);
    expect(h.submits()).toEqual([]);
    expect(h.of('earcon').map((e) => e.name)).toEqual(['listening', 'cancelled']);
  });

  it('honours a configured silence', () => {
    const h = harness({ config: { router: { frames: { query: { silenceMs: 8000 } } } } });
    h.say('computer', 0);
    h.say('slow', 1000);
    h.clock.advanceTo(8999);
    expect(h.submits()).toEqual([]);
    h.clock.advanceTo(9000);
    expect(h.submits()).toHaveLength(1);
  });
});

describe('frame state', () => {
  it('is gone after pop: a new query starts empty', () => {
    const h = inQuery('old words', 'cancel');
    h.say('computer', h.clock.now() + 1000);
    h.say('read back', h.clock.now() + 1000);
    expect(h.spoken()).toEqual(['Nothing yet.']);
  });

  it('does not leak a popped query timer into the next query', () => {
    const h = harness();
    h.say('computer', 0);
    h.say('first', 1000);
    h.say('cancel', 2000);
    h.say('computer', 3000);
    h.say('second', 5500);
    // The first query's timer would have fired at 5000; only the second one's (9500) may.
    h.clock.advanceTo(9499);
    expect(h.submits()).toEqual([]);
    h.clock.advanceTo(9500);
    expect(h.submits().map((s) => s.text)).toEqual(['second']);
  });
});
