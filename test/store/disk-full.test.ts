import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Bus } from '../../src/core/bus.js';
import { memoryLogger } from '../../src/core/log.js';
import { Store } from '../../src/store/store.js';
import { jfkWrites, scratch } from './fixtures.js';

/**
 * A full disk, as SQLite reports it (SQLITE_FULL), made real with max_page_count: the file cannot
 * grow past its current size plus a little, exactly as when the SD card has no room left.
 */
describe('a full disk', () => {
  it('stops audio storage, keeps the text rows, keeps going, and resumes once there is room', async () => {
    const bus = new Bus();
    const events: string[] = [];
    bus.onAny((name) => {
      if (name === 'store.audio-paused' || name === 'store.audio-resumed' || name === 'store.write-failed' || name === 'store.row-queued') events.push(name);
    });
    const logger = memoryLogger();
    const wall = { now: Date.UTC(2025, 0, 1) };
    const free = { bytes: 10 * 1024 * 1024 };
    const s = new Store({
      path: join(scratch('disk-full'), 'hark.db'),
      bus,
      logger,
      housekeeping: null,
      wallNow: () => wall.now,
      freeBytes: () => free.bytes,
      resumeFreeBytes: 64 * 1024 * 1024,
      resumeAfterMs: 60_000,
    });
    try {
      const writes = await jfkWrites();
      const first = s.recordSegment(writes[0]!)!;
      expect(first.audio).toBe('stored');

      const pages = s.db.pragma('page_count', { simple: true }) as number;
      s.db.pragma(`max_page_count = ${pages + 8}`); // room for a few rows, not for 2 s of PCM

      const second = s.recordSegment(writes[1]!)!;
      expect(second.audio).toBe('disk-full');
      expect(s.getAudio(second.id)).toBeNull();
      expect(s.getSegment(second.id)!.transcripts[0]!.text).toBe('ask not');
      expect(s.getSegment(second.id)!.actions).toHaveLength(1);
      expect(events).toEqual(['store.audio-paused']);
      expect(s.health()).toMatchObject({ audioStorage: 'paused-disk-full', pausedReason: expect.stringMatching(/full/) });
      expect(logger.lines.some((l) => l.includes('STORE DISK FULL'))).toBe(true);

      // while paused, audio is not even attempted
      expect(s.recordSegment(writes[2]!)!.audio).toBe('disk-full');

      // completely full: the oldest audio is given up for the text; when even that is not
      // enough, the row waits in memory, nothing throws, and it is written once there is room
      s.db.pragma(`max_page_count = ${s.db.pragma('page_count', { simple: true })}`);
      const big = { ...writes[3]!, transcripts: [{ engine: 'whisper', rawText: 'x'.repeat(200_000), text: 'x' }] };
      expect(s.recordSegment(big)).toBeNull();
      expect(events).toEqual(['store.audio-paused', 'store.row-queued']);
      expect(s.getAudio(first.id)).toBeNull();
      expect(s.getSegment(first.id)!.audio).toBe('reclaimed');
      expect(s.listSegments({ limit: 10 }).segments).toHaveLength(3);
      expect(s.health()).toMatchObject({ pendingRows: 1, reclaimedSegments: 1 });

      // space comes back: not before resumeAfterMs, not without enough free bytes
      s.db.pragma('max_page_count = 1073741823');
      free.bytes = 1024 * 1024 * 1024;
      s.runHousekeeping();
      expect(s.health().pendingRows).toBe(0);
      expect(s.listSegments({ limit: 10 }).segments).toHaveLength(4);
      expect(s.health().audioStorage).toBe('paused-disk-full');
      wall.now += 61_000;
      free.bytes = 10 * 1024 * 1024;
      s.runHousekeeping();
      expect(s.health().audioStorage).toBe('paused-disk-full');
      free.bytes = 1024 * 1024 * 1024;
      s.runHousekeeping();
      expect(s.health().audioStorage).toBe('on');
      expect(events.at(-1)).toBe('store.audio-resumed');
      expect(s.recordSegment(writes[3]!)!.audio).toBe('stored');
    } finally {
      s.close();
    }
  });
});
