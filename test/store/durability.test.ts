import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Store } from '../../src/store/store.js';
import { scratch } from './fixtures.js';

/** A row reported stored survives a power cut — every commit is synced (FULL = 2). */
describe('store durability', () => {
  it('opens the log with synchronous = FULL in WAL mode', () => {
    const s = new Store({ path: join(scratch('durability'), 'hark.db'), housekeeping: null });
    try {
      expect(s.db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(s.db.pragma('synchronous', { simple: true })).toBe(2);
    } finally {
      s.close();
    }
  });
});
