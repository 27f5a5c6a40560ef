import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { VirtualClock } from '../../src/core/clock.js';
import { memoryLogger } from '../../src/core/log.js';
import { HEAP_TRIM_EVERY_MS, heapTrimComponent } from '../../src/daemon/heap-trim.js';
import { ROOT } from '../support/paths.js';

/**
 * hark runs for weeks: memory its native code freed must go back to the kernel, or RSS keeps the
 * high-water mark of every segment's transient buffers.
 */

describe('the heap trim (hark-aec trimHeap: glibc malloc_trim)', () => {
  it('gives back the free pages left between live blocks, which glibc keeps by itself', () => {
    // 80 MB of 4 KB native blocks, one in ten kept: 72 MB free but interleaved with live blocks, so
    // glibc cannot shrink the heap's top. Run in a child so the figures are its own.
    const script = `
      const { trimHeap } = require(${JSON.stringify(join(ROOT, 'native/hark-aec/index.cjs'))});
      const rss = () => process.memoryUsage.rss() / 1e6;
      let all = [];
      for (let i = 0; i < 20000; i++) all.push(new Uint8Array(4096).fill(1));
      const kept = all.filter((_, i) => i % 10 === 0);
      all = null;
      setTimeout(() => {
        gc(); gc();
        setTimeout(() => {
          const before = rss();
          const released = trimHeap();
          console.log(JSON.stringify({ before, after: rss(), released, kept: kept.length }));
        }, 200);
      }, 100);`;
    const out = JSON.parse(execFileSync(process.execPath, ['--expose-gc', '-e', script], { encoding: 'utf8', timeout: 20_000 })) as {
      before: number;
      after: number;
      released: boolean;
    };
    expect(out.released).toBe(true);
    expect(out.before - out.after).toBeGreaterThan(40);
  });
});

describe('the daemon heap-trim component', () => {
  it('trims once a minute while hark runs, and never after it stops', () => {
    const clock = new VirtualClock();
    let trims = 0;
    const c = heapTrimComponent({ clock, log: memoryLogger(), trim: () => (trims++, true) });
    void c.start();
    clock.advanceTo(HEAP_TRIM_EVERY_MS - 1);
    expect(trims).toBe(0);
    clock.advanceTo(HEAP_TRIM_EVERY_MS * 10);
    expect(trims).toBe(10);
    void c.stop();
    clock.advanceTo(HEAP_TRIM_EVERY_MS * 100);
    expect(trims).toBe(10);
    expect(clock.pending()).toBe(0);
  });

  it('without the addon, schedules nothing and says why', () => {
    const clock = new VirtualClock();
    const log = memoryLogger();
    void heapTrimComponent({ clock, log, trim: null }).start();
    expect(clock.pending()).toBe(0);
    expect(log.lines.join('\n')).toMatch(/no heap trim: hark-aec did not load/);
  });

  it('a trim that throws is reported once and not asked again', () => {
    const clock = new VirtualClock();
    const log = memoryLogger();
    let calls = 0;
    void heapTrimComponent({
      clock,
      log,
      trim: () => {
        calls++;
        throw new Error('boom');
      },
    }).start();
    clock.advanceTo(HEAP_TRIM_EVERY_MS * 5);
    expect(calls).toBe(1);
    expect(log.lines.filter((l) => l.includes('cannot trim the heap'))).toHaveLength(1);
  });
});
