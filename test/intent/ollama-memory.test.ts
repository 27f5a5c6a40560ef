import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import { ChatMemory } from '../../src/intent/chat-memory.js';
import { Deduper, fingerprint, jaccard } from '../../src/intent/fingerprint.js';
import { ListenWindow, type Batch, type ListenWindowOptions } from '../../src/intent/listen-window.js';
import { OutageBreaker } from '../../src/intent/outage.js';

describe('chat memory: the last N turns', () => {
  const memory = (maxTurns = 2) => {
    const clock = new VirtualClock(0);
    return { clock, m: new ChatMemory({ maxTurns, idleMs: 120_000, clock }) };
  };

  it('trims the oldest whole turns once over N', () => {
    const { m } = memory(2);
    for (const n of [1, 2, 3]) {
      m.add('user', `q${n}`);
      m.add('assistant', `a${n}`);
    }
    expect(m.messages().map((x) => x.content)).toEqual(['q2', 'a2', 'q3', 'a3']);
    m.add('user', 'q4');
    // Never starts with an answer whose question was trimmed.
    expect(m.messages().map((x) => x.content)).toEqual(['q3', 'a3', 'q4']);
  });

  it('hands out copies, clears, and drops an unanswered request', () => {
    const { m } = memory();
    m.add('user', 'q1');
    m.messages()[0]!.content = 'changed';
    expect(m.messages()[0]!.content).toBe('q1');
    m.dropUnanswered();
    expect(m.length).toBe(0);
    m.add('user', 'q');
    m.add('assistant', 'a');
    m.dropUnanswered();
    expect(m.length).toBe(2);
    m.clear();
    expect(m.messages()).toEqual([]);
  });

  it('forgets after idleMs without a word', () => {
    const { m, clock } = memory();
    m.add('user', 'q1');
    clock.advanceTo(119_999);
    expect(m.length).toBe(1);
    clock.advanceTo(120_000);
    expect(m.messages()).toEqual([]);
  });
});

describe('always-listen window', () => {
  const defaults: ListenWindowOptions = {
    bufferMaxChars: 800,
    contextChars: 1500,
    triggerTimeoutMs: 3000,
    rateLimitMs: 2000,
    triggerOnQuestionMark: true,
    triggerOnPause: true,
  };
  function windowWith(opts: Partial<ListenWindowOptions> = {}) {
    const clock = new VirtualClock(0);
    const fromTimer: Batch[] = [];
    const w = new ListenWindow({ ...defaults, ...opts, clock, onBatch: (b) => fromTimer.push(b) });
    let n = 0;
    const hear = (text: string) => w.add({ text, ids: [`u${++n}`] });
    return { clock, w, fromTimer, hear };
  }

  it('batches speech until a trigger; the question mark is one', () => {
    const { hear } = windowWith();
    expect(hear('we are low on milk')).toBeNull();
    expect(hear('can you add it to the order?')).toEqual({
      newText: 'we are low on milk can you add it to the order?',
      context: '',
      ids: ['u1', 'u2'],
      trigger: 'question',
    });
  });

  it('a pause triggers; what was classified becomes context for the next call', () => {
    const { w, hear, clock } = windowWith();
    hear('we are low on milk');
    expect(w.pause()).toEqual(expect.objectContaining({ newText: 'we are low on milk', context: '', trigger: 'pause' }));
    clock.advanceBy(2000);
    hear('add three cases of it');
    expect(w.pause()).toEqual(expect.objectContaining({ newText: 'add three cases of it', context: 'we are low on milk', ids: ['u2'] }));
    // Nothing new: no call.
    expect(w.pause()).toBeNull();
  });

  it('3 s of inactivity triggers, restarted by each new utterance', () => {
    const { hear, clock, fromTimer } = windowWith({ triggerOnPause: false });
    hear('first part');
    clock.advanceTo(2500);
    hear('second part');
    clock.advanceTo(5499);
    expect(fromTimer).toEqual([]);
    clock.advanceTo(5500);
    expect(fromTimer).toEqual([expect.objectContaining({ newText: 'first part second part', trigger: 'inactivity' })]);
  });

  it('overflow past 800 characters forces a call, even inside the rate limit', () => {
    const { w, hear } = windowWith();
    hear('a');
    w.pause();
    expect(hear('x'.repeat(500))).toBeNull();
    expect(hear('y'.repeat(400))).toEqual(expect.objectContaining({ trigger: 'overflow' }));
  });

  it('rate limit: a trigger within 2 s of the last call is skipped, then retried by the timer', () => {
    const { w, hear, clock, fromTimer } = windowWith({ triggerTimeoutMs: 500 });
    hear('one?');
    clock.advanceTo(1000);
    expect(hear('two?')).toBeNull();
    expect(w.pause()).toBeNull();
    // The inactivity timer (500 ms) fires inside the limit, and tries again once it has passed.
    clock.advanceTo(1999);
    expect(fromTimer).toEqual([]);
    clock.advanceTo(2000);
    expect(fromTimer).toEqual([expect.objectContaining({ newText: 'two?', context: 'one?' })]);
  });

  it('context is FIFO, kept under 1500 characters; one huge utterance keeps its end', () => {
    const { w, hear, clock } = windowWith({ contextChars: 25 });
    for (const t of ['aaaaaaaaaa', 'bbbbbbbbbb', 'cccccccccc']) {
      hear(t);
      w.pause();
      clock.advanceBy(2000);
    }
    expect(w.sizes.context).toBeLessThanOrEqual(25);
    hear('next');
    expect(w.pause()!.context).toBe('bbbbbbbbbb cccccccccc');
    clock.advanceBy(2000);
    hear('z'.repeat(40) + 'END');
    w.pause();
    expect(w.sizes.context).toBe(25);
  });

  it('clear forgets both buffers', () => {
    const { w, hear, clock } = windowWith();
    hear('one');
    w.pause();
    clock.advanceBy(2000);
    hear('two');
    w.clear();
    expect(w.sizes).toEqual({ unprocessed: 0, context: 0 });
  });
});

describe('deduplication by fingerprint', () => {
  it('fingerprints are the significant words, sorted; similarity is Jaccard', () => {
    expect(fingerprint('add_to_list Three cases of the milk, please')).toEqual(['add', 'cases', 'list', 'milk', 'three']);
    expect(fingerprint('Yeah, okay, we need milk')).toEqual(['milk']);
    expect(jaccard(['a', 'b', 'c'], ['a', 'b', 'd'])).toBe(0.5);
  });

  it('suppresses a similar proposal (≥ 0.7) within 30 s, admits it after', () => {
    const clock = new VirtualClock(0);
    const d = new Deduper({ windowMs: 30_000, threshold: 0.7, max: 50, clock });
    expect(d.admit('add_to_list 3 cases of milk')).toBe(true);
    clock.advanceTo(29_999);
    expect(d.admit('add_to_list 3 cases of the milk')).toBe(false);
    expect(d.admit('add_to_list napkins')).toBe(true);
    clock.advanceTo(30_001);
    expect(d.admit('add_to_list 3 cases of milk')).toBe(true);
  });

  it('forgets a fingerprint it admitted (a proposal turned down), and only that one', () => {
    const clock = new VirtualClock(0);
    const d = new Deduper({ windowMs: 30_000, threshold: 0.7, max: 50, clock });
    expect(d.admit('add_to_list 3 cases of milk')).toBe(true);
    expect(d.admit('add_to_list napkins')).toBe(true);
    clock.advanceTo(1000);
    expect(d.forget('add_to_list 3 cases of milk')).toBe(true);
    expect(d.size).toBe(1);
    expect(d.forget('add_to_list 3 cases of milk')).toBe(false);
    expect(d.admit('add_to_list 3 cases of the milk')).toBe(true);
    expect(d.admit('add_to_list napkins')).toBe(false);
  });

  it('keeps at most 50 fingerprints, dropping the oldest', () => {
    const clock = new VirtualClock(0);
    const d = new Deduper({ windowMs: 30_000, threshold: 0.7, max: 50, clock });
    for (let i = 0; i < 60; i++) d.admit(`report_issue problem number${i}`);
    expect(d.size).toBe(50);
    expect(d.admit('report_issue problem number0')).toBe(true);
    expect(d.admit('report_issue problem number59')).toBe(false);
  });
});

describe('the outage breaker', () => {
  it('announces the first failure of an outage, opens for 30 s, probes once, and a success ends the outage', () => {
    const clock = new VirtualClock(0);
    const b = new OutageBreaker({ failures: 1, openMs: 30_000, clock });
    expect(b.permit()).toEqual({ allowed: true, probe: false });
    expect(b.failure('refused')).toEqual({ announce: true, opened: true });
    expect(b.permit()).toEqual(expect.objectContaining({ allowed: false, reason: 'not asking for 30 s after: refused' }));
    clock.advanceTo(30_000);
    expect(b.permit()).toEqual({ allowed: true, probe: true });
    expect(b.permit()).toEqual(expect.objectContaining({ allowed: false, reason: 'a probe request is already in flight' }));
    expect(b.failure('refused')).toEqual({ announce: false, opened: true });
    clock.advanceTo(60_000);
    expect(b.permit()).toEqual({ allowed: true, probe: true });
    expect(b.success()).toBe(true);
    expect(b.inOutage).toBe(false);
    expect(b.failure('timeout').announce).toBe(true);
  });

  it('with a threshold, stays closed until that many failures in a row', () => {
    const clock = new VirtualClock(0);
    const b = new OutageBreaker({ failures: 3, openMs: 30_000, clock });
    expect(b.failure('x')).toEqual({ announce: true, opened: false });
    expect(b.failure('x')).toEqual({ announce: false, opened: false });
    expect(b.permit().allowed).toBe(true);
    expect(b.failure('x')).toEqual({ announce: false, opened: true });
    expect(b.permit().allowed).toBe(false);
  });
});
