import { rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, migrate } from '../../src/store/schema.js';
import { Store } from '../../src/store/store.js';
import { jfkPcm, scratch } from './fixtures.js';

/** Each utterance's language is stored (schema version 9) and read back with its segment. */
const open: Store[] = [];
afterEach(() => {
  for (const s of open.splice(0)) s.close();
});

describe('the language of a stored utterance', () => {
  it('is kept with the utterance, and an utterance that named none reads null', async () => {
    const s = new Store({ path: join(scratch('store-language'), 'hark.db'), housekeeping: null });
    open.push(s);
    const pcm = (await jfkPcm()).slice(0, 8000);
    const es = s.recordSegment({
      segment: { pcm, prerollSamples: 0, startedAt: 1 },
      utterance: { id: 'u-es', text: 'pon un temporizador', engine: 'deepgram', language: 'es' },
    })!.id;
    const none = s.recordSegment({
      segment: { pcm, prerollSamples: 0, startedAt: 2 },
      utterance: { id: 'u-none', text: 'set a timer', engine: 'whisper' },
    })!.id;
    expect(s.getSegment(es)!.utterances[0]).toMatchObject({ id: 'u-es', language: 'es' });
    expect(s.getSegment(none)!.utterances[0]).toMatchObject({ id: 'u-none', language: null });
  });

  it('a file at version 5 gains the column; its rows read null', () => {
    const path = join(scratch('store-language'), 'v5.db');
    rmSync(path, { force: true });
    const db = new Database(path);
    try {
      migrate(
        db,
        'v5',
        MIGRATIONS.filter((m) => m.version <= 5),
      );
      db.prepare("INSERT INTO utterances (id, segment_id, created_at, engine, text, raw_text) VALUES ('old', NULL, 1, 'whisper', 'hi', 'hi')").run();
      expect(migrate(db, 'v5', MIGRATIONS)).toBeGreaterThanOrEqual(6);
      expect(db.prepare("SELECT language FROM utterances WHERE id = 'old'").get()).toEqual({ language: null });
    } finally {
      db.close();
    }
  });
});
