import type { Database } from 'better-sqlite3';
import { HarkError } from '../core/errors.js';

/**
 * The schema as an ordered list of migrations. `PRAGMA user_version` holds how many have run; each
 * runs in its own transaction together with the version bump, so a crash mid-migration leaves the
 * file at the previous version. Never edit a migration that has shipped: append a new one.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'segment log',
    sql: `
      CREATE TABLE segments (
        id INTEGER PRIMARY KEY,
        created_at INTEGER NOT NULL,
        started_at INTEGER NOT NULL,
        source TEXT NOT NULL,
        stream_index INTEGER,
        sample_rate INTEGER NOT NULL,
        sample_count INTEGER NOT NULL,
        preroll_samples INTEGER NOT NULL,
        start_sample INTEGER,
        vad_start_sample INTEGER,
        end_sample INTEGER,
        close_reason TEXT,
        opened_by TEXT,
        max_prob REAL,
        rms REAL NOT NULL,
        peak REAL NOT NULL,
        splice_warning INTEGER,
        splice_reason TEXT,
        splice_step INTEGER,
        splice_typical_step REAL,
        splice_level_before REAL,
        splice_level_after REAL,
        audio_state TEXT NOT NULL,
        audio_bytes INTEGER NOT NULL DEFAULT 0
      );
      CREATE INDEX segments_started_at ON segments (started_at);

      -- PCM in its own table: the segments rows stay small and dense, so listing, searching and the
      -- retention sums never page through megabytes of overflow pages.
      CREATE TABLE segment_audio (
        segment_id INTEGER PRIMARY KEY REFERENCES segments (id) ON DELETE CASCADE,
        pcm BLOB NOT NULL
      );

      CREATE TABLE transcripts (
        id INTEGER PRIMARY KEY,
        segment_id INTEGER REFERENCES segments (id) ON DELETE CASCADE,
        created_at INTEGER NOT NULL,
        engine TEXT NOT NULL,
        raw_text TEXT NOT NULL,
        text TEXT NOT NULL,
        tokens_json TEXT,
        stt_ms REAL,
        fallback_reason TEXT,
        dropped_reason TEXT
      );
      CREATE INDEX transcripts_segment ON transcripts (segment_id);

      CREATE TABLE utterances (
        id TEXT PRIMARY KEY,
        segment_id INTEGER REFERENCES segments (id) ON DELETE CASCADE,
        created_at INTEGER NOT NULL,
        engine TEXT NOT NULL,
        text TEXT NOT NULL,
        raw_text TEXT NOT NULL,
        stt_ms REAL,
        fallback_reason TEXT
      );
      CREATE INDEX utterances_segment ON utterances (segment_id);

      CREATE TABLE intents (
        id INTEGER PRIMARY KEY,
        segment_id INTEGER REFERENCES segments (id) ON DELETE CASCADE,
        utterance_id TEXT,
        created_at INTEGER NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('proposal', 'ambiguous', 'commit', 'discard')),
        intent TEXT,
        target TEXT,
        slots_json TEXT,
        confidence REAL,
        model TEXT,
        latency_ms REAL,
        reason TEXT
      );
      CREATE INDEX intents_segment ON intents (segment_id);

      CREATE TABLE actions (
        id INTEGER PRIMARY KEY,
        segment_id INTEGER REFERENCES segments (id) ON DELETE CASCADE,
        utterance_id TEXT,
        created_at INTEGER NOT NULL,
        name TEXT NOT NULL,
        args_json TEXT,
        outcome TEXT NOT NULL,
        error TEXT,
        latency_ms REAL
      );
      CREATE INDEX actions_segment ON actions (segment_id);

      -- Lists are the user's data (inventory, shopping), not a debug log: retention never deletes
      -- them, and losing the segment they came from only unlinks them.
      CREATE TABLE list_items (
        id INTEGER PRIMARY KEY,
        list TEXT NOT NULL,
        item TEXT NOT NULL,
        quantity REAL,
        unit TEXT,
        op TEXT NOT NULL DEFAULT 'add',
        note TEXT,
        segment_id INTEGER REFERENCES segments (id) ON DELETE SET NULL,
        utterance_id TEXT,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX list_items_list ON list_items (list, id);
      CREATE INDEX list_items_segment ON list_items (segment_id);
    `,
  },
  {
    version: 2,
    name: 'kitchen timers',
    // Running, paused and ringing timers, so a restart or power cut loses none (store/timers.ts).
    // Times are wall-clock epoch ms: the process clock does not survive a restart.
    sql: `
      CREATE TABLE timers (
        id INTEGER PRIMARY KEY,
        label TEXT,
        seconds REAL NOT NULL,
        state TEXT NOT NULL,
        due_at INTEGER,
        remaining_ms INTEGER,
        command TEXT,
        updated_at INTEGER NOT NULL
      );
    `,
  },
  {
    version: 3,
    name: 'echo tracks',
    // A segment heard while hark played keeps the raw microphone beside the cleaned audio,
    // and where the playback was. Only such segments have a segment_raw_audio row (its own table, as
    // segment_audio, so rows stay small); playback_json is null for every other segment, and for every
    // row written before this version. audio_bytes counts both tracks (retention's budget is all the
    // PCM kept); raw_bytes says how much of it is the raw track.
    sql: `
      ALTER TABLE segments ADD COLUMN playback_json TEXT;
      ALTER TABLE segments ADD COLUMN raw_bytes INTEGER NOT NULL DEFAULT 0;
      CREATE TABLE segment_raw_audio (
        segment_id INTEGER PRIMARY KEY REFERENCES segments (id) ON DELETE CASCADE,
        pcm BLOB NOT NULL
      );
    `,
  },
  {
    version: 4,
    name: 'ring stops',
    // A ring of another device's timer stopped here: the stop is kept until that device's state says
    // the timer no longer rings, and sent again at every reconnect meanwhile (store/timers.ts).
    sql: `
      CREATE TABLE ring_stops (
        stop_id TEXT PRIMARY KEY,
        owner TEXT NOT NULL,
        timer_id INTEGER NOT NULL,
        by TEXT NOT NULL,
        device TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );
    `,
  },
  {
    version: 5,
    name: 'voice picking',
    // Voice-directed picking (src/picking/): assignments from the warehouse system, each pick's state,
    // the signed-on operator, and the outbox of confirmed picks, so a kill mid-assignment resumes at
    // the first unconfirmed pick and loses no result. Like lists, this is work, not a debug log:
    // retention never deletes it. Times are wall-clock epoch ms.
    sql: `
      CREATE TABLE pick_assignments (
        id TEXT PRIMARY KEY,
        arrived INTEGER NOT NULL,
        received_at INTEGER NOT NULL,
        body_json TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('waiting', 'active', 'done'))
      );
      CREATE TABLE pick_lines (
        assignment_id TEXT NOT NULL REFERENCES pick_assignments (id) ON DELETE CASCADE,
        pick_id TEXT NOT NULL,
        turn INTEGER NOT NULL,
        picked INTEGER,
        confirmed_at INTEGER,
        PRIMARY KEY (assignment_id, pick_id)
      );
      CREATE TABLE pick_outbox (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        body_json TEXT NOT NULL,
        utterance_id TEXT,
        created_at INTEGER NOT NULL,
        sent_at INTEGER,
        attempts INTEGER NOT NULL DEFAULT 0,
        last_error TEXT
      );
      CREATE TABLE pick_operator (
        one INTEGER PRIMARY KEY CHECK (one = 1),
        operator TEXT NOT NULL,
        since INTEGER NOT NULL
      );
      CREATE TABLE pick_notes (
        id INTEGER PRIMARY KEY,
        at INTEGER NOT NULL,
        operator TEXT,
        kind TEXT NOT NULL,
        assignment_id TEXT,
        pick_id TEXT,
        utterance_id TEXT
      );
      CREATE INDEX pick_notes_at ON pick_notes (at);
    `,
  },
  {
    version: 6,
    name: 'picking rates',
    // Each operator's speaking rate ("faster", "slower"), kept across sign-off and restarts: an
    // operator who slowed hark down should not have to do it again every shift.
    sql: `
      CREATE TABLE pick_rates (
        operator TEXT PRIMARY KEY,
        wpm INTEGER NOT NULL,
        set_at INTEGER NOT NULL
      );
    `,
  },
  {
    version: 7,
    name: 'echo skew',
    // The speaker's clock against the microphone's, as the echo canceller last measured it settled,
    // per pair of cards (capture.device and speech.device as configured): a restart starts from it
    // instead of measuring it afresh over the first 8-16 s of hark's sound (src/echo/drift.ts).
    // A pair not in it (cards changed) starts from nothing.
    sql: `
      CREATE TABLE echo_skew (
        cards TEXT PRIMARY KEY,
        ppm REAL NOT NULL,
        error_ppm REAL NOT NULL,
        measured_at INTEGER NOT NULL
      );
    `,
  },
  {
    version: 8,
    name: 'timer language',
    // The language a timer was set in, when not the device's first: it rings in it after a restart
    // too ("Temporizador de arroz terminado."). Null: the device's first language.
    sql: `ALTER TABLE timers ADD COLUMN lang TEXT;`,
  },
  {
    version: 9,
    name: 'utterance language',
    // The language each utterance was heard in (a pack code: the one speech-to-text named, or a text
    // line's), so the log and the page say which of the device's languages a segment was; NULL when
    // none was named, and for every row written before this version.
    sql: `
      ALTER TABLE utterances ADD COLUMN language TEXT;
    `,
  },
  {
    version: 10,
    name: 'trailing silence',
    // How long before the close the person stopped speaking (the hangover in force then, the pause of
    // an early close; src/core/speech-end.ts), so replay counts the response cascade from the moment
    // the device did. NULL for every row written before this version: replay then takes the config's
    // base hangover, as it always had (docs/decisions.md#speechendat-is-stored-with-the-segment).
    sql: `ALTER TABLE segments ADD COLUMN trailing_silence_ms INTEGER;`,
  },
];

export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

export function schemaVersion(db: Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/** Bring the file up to SCHEMA_VERSION. Refuses a file written by a newer hark rather than guess. */
export function migrate(db: Database, name: string, migrations: readonly Migration[] = MIGRATIONS): number {
  const current = schemaVersion(db);
  const latest = migrations[migrations.length - 1]?.version ?? 0;
  if (current > latest) {
    throw new HarkError(`${name}: database schema version ${current} is newer than this hark understands (${latest}); upgrade hark or use another file`);
  }
  for (const m of migrations) {
    if (m.version <= current) continue;
    db.transaction(() => {
      db.exec(m.sql);
      db.pragma(`user_version = ${m.version}`);
    })();
  }
  return schemaVersion(db);
}
