import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import { EngineFailure } from '../../src/stt/types.js';
import { UninterruptibleLine } from '../../src/stt/uninterruptible-line.js';

/**
 * Whisper.cpp cannot be stopped. The line its calls wait in, on a virtual clock: a call
 * past its deadline fails at once but its work runs on (and is counted as abandoned meanwhile), and a
 * call given up on before its turn never starts.
 */

/** Work that takes `ms` of virtual time; `started` records the order work really began in. */
function job(clock: VirtualClock, ms: number, name: string, started: string[]) {
  return () =>
    new Promise<string>((resolve) => {
      started.push(name);
      clock.setTimer(ms, () => resolve(name));
    });
}

async function advance(clock: VirtualClock, ms: number): Promise<void> {
  for (let t = 0; t < ms; t += 10) {
    clock.advanceBy(10);
    for (let i = 0; i < 5; i++) await Promise.resolve();
  }
}

describe('calls to an engine that cannot be interrupted', () => {
  it('one at a time, in order, each with its result', async () => {
    const clock = new VirtualClock();
    const line = new UninterruptibleLine('whisper', clock);
    const started: string[] = [];
    const a = line.run(1000, job(clock, 300, 'a', started));
    const b = line.run(1000, job(clock, 300, 'b', started));
    await advance(clock, 20);
    expect(started).toEqual(['a']);
    await advance(clock, 700);
    await expect(a).resolves.toBe('a');
    await expect(b).resolves.toBe('b');
    expect(line.abandoned).toBe(0);
  });

  it('past its deadline: fails at once with `deadline`, and is counted as abandoned until its work really ends', async () => {
    const clock = new VirtualClock();
    const line = new UninterruptibleLine('whisper', clock);
    const started: string[] = [];
    const slow = line.run(500, job(clock, 2000, 'slow', started)).catch((e: unknown) => e);
    await advance(clock, 510);
    const err = await slow;
    expect(err).toBeInstanceOf(EngineFailure);
    expect((err as EngineFailure).reason).toBe('whisper deadline: no result within 500 ms');
    expect(line.abandoned).toBe(1);
    expect(line.busyReason()).toBe('busy with an inference past the deadline (it cannot be stopped)');
    expect(line.late).toBe(1);
    await advance(clock, 1500);
    expect(line.abandoned).toBe(0);
    expect(line.busyReason()).toBeNull();
  });

  it('a call given up on while it waited behind an abandoned one never starts its work', async () => {
    const clock = new VirtualClock();
    const line = new UninterruptibleLine('whisper', clock);
    const started: string[] = [];
    const first = line.run(500, job(clock, 3000, 'first', started)).catch((e: unknown) => e);
    const second = line.run(1000, job(clock, 300, 'second', started)).catch((e: unknown) => e);
    const third = line.run(10_000, job(clock, 300, 'third', started));
    await advance(clock, 1010);
    expect(await first).toBeInstanceOf(EngineFailure);
    expect(((await second) as EngineFailure).kind).toBe('deadline');
    await advance(clock, 2400);
    // "second" was already given up on when its turn came: whisper.cpp goes straight to "third".
    expect(started).toEqual(['first', 'third']);
    await expect(third).resolves.toBe('third');
    expect(line.calls).toBe(2);
    expect(line.abandoned).toBe(0);
  });

  it('work that throws is an `error` EngineFailure', async () => {
    const clock = new VirtualClock();
    const line = new UninterruptibleLine('whisper', clock);
    const err = await line.run(1000, () => Promise.reject(new Error('bad magic'))).catch((e: unknown) => e);
    expect((err as EngineFailure).reason).toBe('whisper error: bad magic');
  });
});
