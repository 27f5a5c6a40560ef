import { afterEach, describe, expect, it, vi } from 'vitest';
import { HarkError } from '../../src/core/errors.js';
import { memoryLogger } from '../../src/core/log.js';
import { Lifecycle, type Component } from '../../src/path/lifecycle.js';

/**
 * The daemon's parts started in order and stopped in reverse, on their own. What a user notices: a
 * part that cannot start leaves nothing half-started behind and says which part it was; SIGTERM always
 * ends hark, even when one part hangs on its way down. The stop deadline runs on fake timers.
 */

afterEach(() => {
  vi.useRealTimers();
});

function parts(seen: string[], o: { failStart?: string; failStop?: string; hangStop?: string; harkError?: boolean } = {}): Component[] {
  return ['store', 'speech', 'capture'].map((name) => ({
    name,
    start: () => {
      if (name === o.failStart) throw o.harkError ? new HarkError('no microphone: arecord exited') : new Error('arecord exited');
      seen.push(`start ${name}`);
    },
    stop: () => {
      if (name === o.failStop) throw new Error('already gone');
      if (name === o.hangStop) return new Promise<void>(() => {});
      seen.push(`stop ${name}`);
    },
  }));
}

describe('the lifecycle', () => {
  it('starts each part in order and stops them in reverse', async () => {
    const seen: string[] = [];
    const life = new Lifecycle(memoryLogger());
    await life.start(parts(seen));
    expect(life.names()).toEqual(['store', 'speech', 'capture']);
    await life.stop(3000);
    expect(seen).toEqual(['start store', 'start speech', 'start capture', 'stop capture', 'stop speech', 'stop store']);
    expect(life.names()).toEqual([]);
  });

  it('a part that fails to start stops the ones already started, and the error names it', async () => {
    const seen: string[] = [];
    const life = new Lifecycle(memoryLogger());
    await expect(life.start(parts(seen, { failStart: 'capture' }))).rejects.toThrow('capture failed to start: arecord exited');
    expect(seen).toEqual(['start store', 'start speech', 'stop speech', 'stop store']);
  });

  it('hark’s own error (one the command prints as it is) passes through unchanged', async () => {
    const life = new Lifecycle(memoryLogger());
    await expect(life.start(parts([], { failStart: 'speech', harkError: true }))).rejects.toThrow(/^no microphone: arecord exited$/);
  });

  it('a part that fails to stop is logged and the rest still stop', async () => {
    const seen: string[] = [];
    const log = memoryLogger();
    const life = new Lifecycle(log);
    await life.start(parts(seen, { failStop: 'speech' }));
    await life.stop(3000);
    expect(seen.filter((s) => s.startsWith('stop'))).toEqual(['stop capture', 'stop store']);
    expect(log.lines.some((l) => l.includes('stop failed') && l.includes('"component":"speech"') && l.includes('already gone'))).toBe(true);
  });

  it('a part that hangs on its way down is given up on at the deadline, and the rest still stop', async () => {
    vi.useFakeTimers();
    const seen: string[] = [];
    const log = memoryLogger();
    const life = new Lifecycle(log);
    await life.start(parts(seen, { hangStop: 'capture' }));
    let stopped = false;
    const stopping = life.stop(2000).then(() => void (stopped = true));
    await vi.advanceTimersByTimeAsync(1999);
    expect(stopped).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await stopping;
    expect(seen.filter((s) => s.startsWith('stop'))).toEqual(['stop speech', 'stop store']);
    expect(log.lines.some((l) => l.includes('"component":"capture"') && l.includes('did not stop within 2000 ms'))).toBe(true);
  });
});
