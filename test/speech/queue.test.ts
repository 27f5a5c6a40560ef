import { describe, expect, it } from 'vitest';
import { Bus } from '../../src/core/bus.js';
import { VirtualClock } from '../../src/core/clock.js';
import type { SpeechOutput } from '../../src/speech/item.js';
import { SpeechQueue } from '../../src/speech/queue.js';
import { SimulatedOutput } from '../../src/speech/simulated-output.js';

function rig(output?: (clock: VirtualClock) => SpeechOutput) {
  const clock = new VirtualClock();
  const bus = new Bus();
  const sim = new SimulatedOutput({ clock, msPerChar: 10, earconMs: 100 });
  const queue = new SpeechQueue({ output: output ? output(clock) : sim, clock, bus });
  const events: string[] = [];
  bus.onAny((type, p) => {
    const e = p as { text?: string; reason?: string; playedMs?: number; dropped?: number; offsetMs?: number };
    const extra =
      type === 'speak.stopped' ? ` ${e.reason} played=${e.playedMs} dropped=${e.dropped}` : type === 'speak.start' && e.offsetMs ? ` from=${e.offsetMs}` : '';
    events.push(`${clock.now()} ${type.replace('speak.', '')} ${e.text}${extra}`);
  });
  return { clock, bus, queue, sim, events };
}

describe('speech queue', () => {
  it('plays one item at a time, in order, with start and end events', async () => {
    const r = rig();
    const a = r.queue.say('first one'); // 9 chars: 90 ms
    const b = r.queue.say('second');
    expect(r.queue.isSpeaking).toBe(true);
    r.clock.advanceBy(1000);
    expect(r.events).toEqual(['0 start first one', '90 end first one', '90 start second', '150 end second']);
    expect(await a.done).toBe('ended');
    expect(await b.done).toBe('ended');
    expect(r.queue.busy).toBe(false);
  });

  it('errors and confirmations go first, long read-backs last, first come first served within a priority', () => {
    const r = rig();
    r.queue.say('now playing');
    r.queue.say('readback one', { priority: 'readback' });
    r.queue.say('normal one');
    r.queue.say('confirm one', { priority: 'confirm' });
    r.queue.say('alert one', { priority: 'alert' });
    r.queue.say('normal two');
    expect(r.queue.pending().map((i) => i.text)).toEqual(['alert one', 'confirm one', 'normal one', 'normal two', 'readback one']);
  });

  it('an alert cuts into a long read-back, which then resumes a little before where it was cut', () => {
    const r = rig();
    r.queue.say('onions, leeks, carrots, potatoes, thyme, garlic, butter, cream', { priority: 'readback' }); // 62 chars: 620 ms
    r.clock.advanceBy(300);
    r.queue.say('timer done', { priority: 'alert' });
    r.clock.advanceBy(2000);
    expect(r.events).toEqual([
      '0 start onions, leeks, carrots, potatoes, thyme, garlic, butter, cream',
      '300 stopped onions, leeks, carrots, potatoes, thyme, garlic, butter, cream preempted played=300 dropped=0',
      '300 start timer done',
      '400 end timer done',
      // resumed 500 ms back from the cut, never before the start
      '400 start onions, leeks, carrots, potatoes, thyme, garlic, butter, cream',
      '1020 end onions, leeks, carrots, potatoes, thyme, garlic, butter, cream',
    ]);
    r.queue.say('x'.repeat(200), { priority: 'readback' });
    r.clock.advanceBy(1500);
    r.queue.say('confirm?', { priority: 'confirm' });
    r.clock.advanceBy(80);
    expect(r.events.slice(-2)).toEqual(['3880 end confirm?', `3880 start ${'x'.repeat(200)} from=1000`]);
  });

  it('ordinary speech does not cut in; it waits its turn', () => {
    const r = rig();
    r.queue.say('a long read back', { priority: 'readback' });
    r.clock.advanceBy(50);
    r.queue.say('hello');
    r.clock.advanceBy(1000);
    expect(r.events.map((e) => e.split(' ').slice(1, 3).join(' '))).toEqual(['start a', 'end a', 'start hello', 'end hello']);
  });

  it('stop() silences what plays and drops what waits, with one speak.stopped', async () => {
    const r = rig();
    const a = r.queue.say('a sentence being said');
    const b = r.queue.say('next');
    const c = r.queue.earcon('confirmed');
    r.clock.advanceBy(120);
    expect(r.queue.stop('button')).toBe(true);
    expect(r.queue.isSpeaking).toBe(false);
    expect(r.queue.busy).toBe(false);
    r.clock.advanceBy(5000);
    expect(r.events).toEqual(['0 start a sentence being said', '120 stopped a sentence being said button played=120 dropped=2']);
    expect(await Promise.all([a.done, b.done, c.done])).toEqual(['stopped', 'dropped', 'dropped']);
    expect(r.sim.log[0]).toMatchObject({ endMs: 120, outcome: 'stopped' });
    expect(r.queue.stop('button')).toBe(false);
  });

  it('after stop() it speaks again normally', () => {
    const r = rig();
    r.queue.say('one');
    r.queue.stop('barge-in');
    r.queue.say('two');
    r.clock.advanceBy(100);
    expect(r.events.slice(-2)).toEqual(['0 start two', '30 end two']);
  });

  it('an earcon plays but is not "speaking" (the interruption filter only guards words)', () => {
    const r = rig();
    r.queue.earcon('listening');
    expect(r.queue.isPlaying).toBe(true);
    expect(r.queue.isSpeaking).toBe(false);
  });

  it('a failing item is reported and the queue goes on', async () => {
    const r = rig((clock) => ({
      play(item, cb) {
        if (item.text === 'bad') {
          cb.finished('espeak-ng could not say "bad": boom');
          return { stop() {} };
        }
        cb.started(10);
        const t = clock.setTimer(10, () => cb.finished());
        return { stop: () => clock.clearTimer(t) };
      },
    }));
    const bad = r.queue.say('bad');
    r.queue.say('good');
    r.clock.advanceBy(100);
    expect(r.events).toEqual(['0 error bad', '0 start good', '10 end good']);
    expect(await bad.done).toBe('error');
  });

  it('an output that throws does not wedge the queue', () => {
    let calls = 0;
    const r = rig((clock) => ({
      play(_item, cb) {
        if (calls++ === 0) throw new Error('spawn failed');
        cb.started(5);
        clock.setTimer(5, () => cb.finished());
        return { stop() {} };
      },
    }));
    r.queue.say('one');
    r.queue.say('two');
    r.clock.advanceBy(10);
    expect(r.events).toEqual(['0 error one', '0 start two', '5 end two']);
  });

  it('stop() from a speak.start listener silences the output too', () => {
    const r = rig();
    r.bus.on('speak.start', () => r.queue.stop('listener'));
    r.queue.say('hello there');
    r.clock.advanceBy(1000);
    expect(r.sim.log[0]).toMatchObject({ outcome: 'stopped', endMs: 0 });
    // (the bus tells onAny listeners after named ones, so the nested stop is logged first)
    expect(r.events.sort()).toEqual(['0 start hello there', '0 stopped hello there listener played=0 dropped=0']);
  });
});
