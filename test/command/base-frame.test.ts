import { describe, expect, it } from 'vitest';
import { harness } from './harness.js';

describe('base frame in wake-word mode', () => {
  const cases: { say: string; stack: string[]; spoken?: string[]; actions?: { name: string; args: object }[]; ignored?: boolean; mode?: string }[] = [
    { say: 'computer', stack: ['base', 'query'] },
    { say: 'Computer.', stack: ['base', 'query'] },
    { say: 'hey computer', stack: ['base', 'query'] },
    { say: 'mode query', stack: ['base'], spoken: ['Wake word mode. Say computer first.'] },
    { say: 'Mode query?', stack: ['base'], spoken: ['Wake word mode. Say computer first.'] },
    { say: 'always listen', stack: ['base'], mode: 'always-listen', spoken: ['Always listening.'] },
    { say: 'wake word mode', stack: ['base'], mode: 'wake-word', spoken: ['Wake word mode. Say computer first.'] },
    { say: 'start dictation', stack: ['base', 'dictation'] },
    { say: 'switch voice', stack: ['base', 'voice'] },
    { say: 'start inventory', stack: ['base', 'inventory'] },
    { say: 'stop', stack: ['base'], actions: [{ name: 'stop', args: {} }] },
    { say: 'Cancel!', stack: ['base'], actions: [{ name: 'stop', args: {} }] },
    { say: 'never mind', stack: ['base'], actions: [{ name: 'stop', args: {} }] },
    { say: 'what is the soup of the day', stack: ['base'], ignored: true },
    { say: 'set a timer for ten minutes', stack: ['base'], ignored: true },
    { say: 'computers are great', stack: ['base'], ignored: true },
  ];
  it.each(cases)('"$say"', (c) => {
    const h = harness();
    h.say(c.say);
    expect(h.stack()).toEqual(c.stack);
    if (c.spoken) expect(h.spoken()).toEqual(c.spoken);
    if (c.actions) expect(h.actions()).toEqual(c.actions);
    expect(h.ignored().length).toBe(c.ignored ? 1 : 0);
    if (c.mode) expect(h.core.router.mode).toBe(c.mode);
  });

  it('reports an ignored utterance with the frame, the text and why', () => {
    const h = harness();
    h.say('turn the radio up');
    expect(h.of('ignored')).toEqual([expect.objectContaining({ frame: 'base', text: 'turn the radio up', reason: 'wake-word mode and no wake phrase' })]);
  });

  it('stop says stop-speaking, and repeat says the last thing hark said again', () => {
    const h = harness();
    h.say('mode query');
    h.say('stop', 500);
    expect(h.of('stop-speaking')).toHaveLength(1);
    h.say('say that again', 3000);
    // repeat acts at once: last-wins no longer holds it back for the conflict window.
    expect(h.spoken()).toEqual(['Wake word mode. Say computer first.', 'Wake word mode. Say computer first.']);
  });

  it('repeat with nothing said yet says so', () => {
    const h = harness();
    h.say('repeat');
    h.clock.advanceBy(2000);
    expect(h.spoken()).toEqual(['I have not said anything yet.']);
  });
});

describe('wake phrase', () => {
  it('alone opens a query and plays the listening earcon', () => {
    const h = harness();
    h.say('computer');
    expect(h.stack()).toEqual(['base', 'query']);
    expect(h.of('earcon').map((e) => e.name)).toEqual(['listening']);
    expect(h.of('stack').map((e) => e.frames)).toEqual([['base', 'query']]);
  });

  it('with a following command opens the query and runs the command in it', () => {
    const h = harness();
    h.say('Computer, set a timer for ten minutes.');
    expect(h.actions()).toEqual([{ name: 'timer.set', args: { seconds: 600 } }]);
    // The timer is a direct command: it acts at once and closes the query.
    expect(h.of('stack').map((e) => e.frames)).toEqual([['base', 'query'], ['base']]);
  });

  it('with following words appends them to the new query, as said', () => {
    const h = harness();
    h.say("Computer, what's the soup of the day?");
    h.clock.advanceBy(4000);
    expect(h.submits()).toEqual([{ frame: 'query', target: 'file', text: "what's the soup of the day?" }]);
  });

  it('again while a query is open does not nest a second query', () => {
    const h = harness();
    h.say('computer');
    h.say('computer', 1000);
    expect(h.stack()).toEqual(['base', 'query']);
    h.say('computer cancel', 2000);
    expect(h.stack()).toEqual(['base']);
    expect(h.submits()).toEqual([]);
  });

  it('nested wake phrases stop after a few levels instead of looping', () => {
    const h = harness();
    h.say('computer computer computer computer computer hello');
    expect(h.of('ignored').map((e) => e.reason)).toEqual(['too many nested wake phrases']);
  });
});

describe('always-listen mode', () => {
  it('treats every utterance as if the wake phrase came first', () => {
    const h = harness();
    h.say('always listen');
    h.say('what is the soup of the day', 1000);
    h.say('and the special', 2000);
    expect(h.stack()).toEqual(['base', 'query']);
    h.clock.advanceBy(4000);
    expect(h.submits()).toEqual([{ frame: 'query', target: 'file', text: 'what is the soup of the day and the special' }]);
    expect(h.ignored()).toEqual([]);
  });

  it('still runs base commands directly, and wake word mode switches back', () => {
    const h = harness({ config: { router: { mode: 'always-listen' } } });
    h.say('mode query');
    expect(h.spoken()).toEqual(['Always listening.']);
    h.say('wake word mode', 1000);
    expect(h.of('mode').map((e) => e.mode)).toEqual(['wake-word']);
    h.say('hello', 2000);
    expect(h.ignored()).toEqual([{ frame: 'base', text: 'hello' }]);
  });

  it('runs direct commands without the wake phrase', () => {
    const h = harness({ config: { router: { mode: 'always-listen' } } });
    h.say('set a timer for 2 minutes');
    expect(h.actions()).toEqual([{ name: 'timer.set', args: { seconds: 120 } }]);
    expect(h.stack()).toEqual(['base']);
  });

  it('ignores fillers alone', () => {
    const h = harness({ config: { router: { mode: 'always-listen' } } });
    h.say('um');
    expect(h.stack()).toEqual(['base']);
    expect(h.of('ignored').map((e) => e.reason)).toEqual(['no real words']);
  });
});

describe('empty utterances', () => {
  it('are reported as ignored, not dropped', () => {
    const h = harness();
    h.say('   ');
    expect(h.of('ignored')).toEqual([expect.objectContaining({ frame: 'base', reason: 'nothing was said' })]);
  });
});
