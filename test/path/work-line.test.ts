import { describe, expect, it } from 'vitest';
import { Bus } from '../../src/core/bus.js';
import { VirtualClock } from '../../src/core/clock.js';
import { memoryLogger } from '../../src/core/log.js';
import { WorkLine } from '../../src/path/work-line.js';

/**
 * The line in front of speech-to-text and the router, on its own: jobs are plain functions that note
 * when they run, the clock is virtual. What a user notices: commands are handled in the order they
 * were said, one at a time; a push-to-talk command jumps the radio in front of it; one failure does not
 * stop the next; too much audio waiting is stored for replay, not lost.
 */

function line(bounds = { maxWaitMs: 10_000, maxBytes: 1_000_000 }) {
  const clock = new VirtualClock(50_000);
  const bus = new Bus();
  const log = memoryLogger();
  const loads: { depth: number; behind: boolean }[] = [];
  bus.on('stt.queue', (q) => void loads.push({ depth: q.depth, behind: q.behind }));
  return { clock, log, loads, work: new WorkLine({ bus, clock, log }, bounds) };
}

/** A job that can be finished by the test, noting when it started and ended. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { open, opened };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('the work line', () => {
  it('runs jobs one at a time, in the order they joined', async () => {
    const { work } = line();
    const seen: string[] = [];
    const first = gate();
    void work.enqueue(async () => {
      seen.push('one starts');
      await first.opened;
      seen.push('one ends');
    }, 'failed');
    void work.enqueue(async () => void seen.push('two'), 'failed');
    void work.enqueue(async () => void seen.push('three'), 'failed');
    await tick();
    // The second waits for the first, however long it takes.
    expect(seen).toEqual(['one starts']);
    expect(work.waiting).toBe(2);
    first.open();
    await work.idle();
    expect(seen).toEqual(['one starts', 'one ends', 'two', 'three']);
    expect(work.waiting).toBe(0);
  });

  it('a failing job is logged with its fields and the next job still runs', async () => {
    const { work, log } = line();
    const seen: string[] = [];
    const failed = work.enqueue(
      async () => {
        throw new Error('the engine fell over');
      },
      'segment handling failed',
      { segment: 7 },
    );
    const next = work.enqueue(async () => void seen.push('next'), 'failed');
    await Promise.all([failed, next]);
    expect(seen).toEqual(['next']);
    const line0 = log.lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.msg === 'segment handling failed');
    expect(line0).toMatchObject({ level: 'error', segment: 7, error: 'the engine fell over' });
  });

  it('a push-to-talk segment closed behind radio is taken first', async () => {
    const { work } = line();
    const seen: string[] = [];
    const busy = gate();
    void work.enqueue(async () => void (await busy.opened), 'failed');
    const audio = (lane: 'first' | 'normal') => ({ lane, bytes: 32_000, audioSec: 1, evict: () => {} });
    void work.enqueue(async () => void seen.push('radio 1'), 'failed', {}, audio('normal'));
    void work.enqueue(async () => void seen.push('radio 2'), 'failed', {}, audio('normal'));
    void work.enqueue(async () => void seen.push('push-to-talk'), 'failed', {}, audio('first'));
    busy.open();
    await work.idle();
    expect(seen).toEqual(['push-to-talk', 'radio 1', 'radio 2']);
  });

  it('a segment that waited past the wait bound is handed over as late, with how long it waited', async () => {
    const { work, clock, loads } = line({ maxWaitMs: 4000, maxBytes: 1_000_000 });
    const busy = gate();
    void work.enqueue(async () => void (await busy.opened), 'failed');
    const taken: { waitedMs: number; late: boolean }[] = [];
    const done = work.enqueue(
      async (t) => void taken.push({ waitedMs: t.waitedMs, late: t.late }),
      'failed',
      {},
      { lane: 'normal', bytes: 32_000, audioSec: 1, evict: () => {} },
    );
    await tick();
    clock.advanceBy(5000);
    // The page's header: the line is behind.
    expect(work.load()).toMatchObject({ depth: 1, oldestWaitMs: 5000, behind: true, audioSec: 1 });
    busy.open();
    await done;
    expect(taken).toEqual([{ waitedMs: 5000, late: true }]);
    expect(loads.at(-1)).toEqual({ depth: 0, behind: true });
  });

  it('past the audio bound the oldest waiting segment is stored at once (its evict), never run, and its caller is told it is done', async () => {
    const { work } = line({ maxWaitMs: 10_000, maxBytes: 64_000 });
    const seen: string[] = [];
    const busy = gate();
    void work.enqueue(async () => void (await busy.opened), 'failed');
    const seg = (name: string) =>
      work.enqueue(
        async () => void seen.push(`ran ${name}`),
        'failed',
        {},
        { lane: 'normal', bytes: 32_000, audioSec: 1, evict: () => void seen.push(`stored ${name}`) },
      );
    const a = seg('a');
    void seg('b');
    void seg('c');
    // a is out of the line already: its promise settles though the first job still runs.
    await a;
    expect(seen).toEqual(['stored a']);
    busy.open();
    await work.idle();
    expect(seen).toEqual(['stored a', 'ran b', 'ran c']);
  });

  it('a failure storing an evicted segment is logged and the line goes on', async () => {
    const { work, log } = line({ maxWaitMs: 10_000, maxBytes: 32_000 });
    const seen: string[] = [];
    const busy = gate();
    void work.enqueue(async () => void (await busy.opened), 'failed');
    void work.enqueue(
      async () => void seen.push('a'),
      'failed',
      { segment: 1 },
      {
        lane: 'normal',
        bytes: 32_000,
        audioSec: 1,
        evict: () => {
          throw new Error('disk full');
        },
      },
    );
    void work.enqueue(async () => void seen.push('b'), 'failed', { segment: 2 }, { lane: 'normal', bytes: 32_000, audioSec: 1, evict: () => {} });
    busy.open();
    await work.idle();
    expect(seen).toEqual(['b']);
    expect(log.lines.some((l) => l.includes('storing an evicted segment failed') && l.includes('disk full') && l.includes('"segment":1'))).toBe(true);
  });

  it('the metrics’ largest depth is the peak since they last asked', async () => {
    const { work } = line();
    const busy = gate();
    void work.enqueue(async () => void (await busy.opened), 'failed');
    for (let i = 0; i < 3; i++) void work.enqueue(async () => {}, 'failed');
    busy.open();
    await work.idle();
    expect(work.takePeakDepth()).toBeGreaterThanOrEqual(3);
    expect(work.takePeakDepth()).toBe(0);
  });
});
