import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { VirtualClock } from '../../src/core/clock.js';
import { memoryLogger } from '../../src/core/log.js';
import { CLIP_MS, clockVerdict, measureClocks, type ClockReading } from '../../src/daemon/clock-measure.js';
import { keptSkew } from '../../src/daemon/kept-skew.js';
import { Store } from '../../src/store/store.js';
import { scratch } from '../store/fixtures.js';

const reading = (r: Partial<ClockReading>): ClockReading => ({ ppm: null, errorPpm: null, followedPpm: 0, unfollowable: false, noEcho: false, ...r });

describe("hark clocks: what the canceller's reading says", () => {
  it.each([
    ['nothing yet', reading({}), null],
    ['a skew known roughly, not yet followed', reading({ ppm: 148, errorPpm: 3 }), null],
    ['a skew followed but not settled', reading({ ppm: 149, errorPpm: 1.4, followedPpm: 149 }), null],
    ['a skew followed and settled (the canceller keeps it)', reading({ ppm: 149.5, errorPpm: 0.7, followedPpm: 149.5 }), 'followed'],
    ['one clock, known closely', reading({ ppm: -0.1, errorPpm: 0.05 }), 'one-clock'],
    ['near zero but still loose', reading({ ppm: 0.4, errorPpm: 0.6 }), null],
    ['a card that lies about its rate', reading({ ppm: 4800, errorPpm: 20, unfollowable: true }), 'too-far'],
    ["hark's sound not in the microphone", reading({ noEcho: true }), 'no-echo'],
  ] as const)('%s', (_what, r, kind) => {
    expect(clockVerdict(r)?.kind ?? null).toBe(kind);
  });
});

describe('hark clocks: playing until the skew is settled', () => {
  function rig(readings: Array<ClockReading | null>) {
    const clock = new VirtualClock(0);
    const played: number[] = [];
    let i = 0;
    return {
      clock,
      played,
      deps: {
        clock,
        // The reading after the n-th clip is readings[n - 1].
        read: () => readings[Math.min(Math.max(0, i - 1), readings.length - 1)]!,
        play: async (ms: number) => {
          played.push(ms);
          clock.advanceBy(ms);
          i++;
        },
      },
    };
  }

  it('plays clip after clip and stops at the first settled reading', async () => {
    const r = rig([reading({}), reading({ ppm: 150, errorPpm: 2, followedPpm: 150 }), reading({ ppm: 150.2, errorPpm: 0.6, followedPpm: 150.2 })]);
    const v = await measureClocks({ ...r.deps, timeoutMs: 120_000 });
    expect(v).toEqual({ kind: 'followed', ppm: 150.2, errorPpm: 0.6 });
    expect(r.played).toEqual([CLIP_MS, CLIP_MS, CLIP_MS]);
  });

  it('gives up when the time is up, with the last reading', async () => {
    const r = rig([reading({ ppm: 30, errorPpm: 4 })]);
    const v = await measureClocks({ ...r.deps, timeoutMs: 10_000 });
    expect(v).toEqual({ kind: 'unsettled', ppm: 30, errorPpm: 4 });
    expect(r.played.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(10_000 + 500);
  });

  it("does not call hark's sound missing on the canceller's first search alone", async () => {
    const late = rig([reading({ noEcho: true }), reading({ noEcho: true }), reading({ ppm: 0.02, errorPpm: 0.04 })]);
    expect((await measureClocks({ ...late.deps, timeoutMs: 60_000 })).kind).toBe('one-clock');
    const never = rig([reading({ noEcho: true })]);
    expect((await measureClocks({ ...never.deps, timeoutMs: 60_000 })).kind).toBe('no-echo');
    expect(never.played.length).toBe(3);
  });
});

describe('the skew kept for a pair of cards', () => {
  const cards = { capture: { device: 'plughw:CARD=Mic,DEV=0' }, speech: { device: 'plughw:CARD=Headphones,DEV=0' } };

  it('unmeasured cards: the journal says how to measure them now; a one-clock pair measured by hark clocks starts from nothing, silently', () => {
    const store = new Store({ path: join(scratch('clock-kept'), 'hark.db'), housekeeping: null });
    try {
      const log = memoryLogger();
      expect(keptSkew(cards, () => store, log).known()).toBeNull();
      expect(log.lines.join('\n')).toMatch(/`hark clocks` measures it now/);
      store.echoSkew().save('plughw:CARD=Mic,DEV=0 -> plughw:CARD=Headphones,DEV=0', 0.03, 0.04);
      const again = memoryLogger();
      expect(keptSkew(cards, () => store, again).known()).toBeNull();
      expect(again.lines).toEqual([]);
      store.echoSkew().save('plughw:CARD=Mic,DEV=0 -> plughw:CARD=Headphones,DEV=0', 87.4, 0.5);
      expect(keptSkew(cards, () => store, again).known()).toBe(87.4);
    } finally {
      store.close();
    }
  });
});
