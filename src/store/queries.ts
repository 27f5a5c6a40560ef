import type { Database, Statement } from 'better-sqlite3';
import { bufferToInt16 } from '../audio/pcm.js';
import { readPlayback } from './echo-track.js';
import type {
  ActionView,
  AudioState,
  EchoTrackView,
  IntentKind,
  IntentView,
  ListItemFields,
  ListItemView,
  SegmentPage,
  SegmentQuery,
  SegmentView,
  TranscriptView,
  UtteranceView,
} from './records.js';

/**
 * The read side of the segment log: pages of segments with everything hung off them, one segment,
 * its audio. Children of a page are fetched with one query per table for the whole page (not one
 * per segment), so a page of 50 costs six queries however busy the segments were.
 */
export class SegmentReader {
  private readonly cache = new Map<string, Statement>();
  constructor(private readonly db: Database) {}

  list(query: SegmentQuery): SegmentPage {
    const where: string[] = [];
    const params: Record<string, unknown> = { limit: query.limit + 1 };
    if (query.before !== undefined) {
      where.push('s.id < @before');
      params.before = query.before;
    }
    if (query.q) {
      where.push(`(EXISTS (SELECT 1 FROM transcripts t WHERE t.segment_id = s.id AND (t.raw_text LIKE @q ESCAPE '\\' OR t.text LIKE @q ESCAPE '\\'))
        OR EXISTS (SELECT 1 FROM utterances u WHERE u.segment_id = s.id AND u.text LIKE @q ESCAPE '\\'))`);
      params.q = `%${query.q.replace(/[\\%_]/g, (c) => '\\' + c)}%`;
    }
    if (query.engine) {
      where.push('EXISTS (SELECT 1 FROM transcripts t WHERE t.segment_id = s.id AND t.engine = @engine)');
      params.engine = query.engine;
    }
    if (query.dropped === true) {
      where.push('EXISTS (SELECT 1 FROM transcripts t WHERE t.segment_id = s.id AND t.dropped_reason IS NOT NULL)');
    } else if (query.dropped === false) {
      where.push('NOT EXISTS (SELECT 1 FROM transcripts t WHERE t.segment_id = s.id AND t.dropped_reason IS NOT NULL)');
    } else if (typeof query.dropped === 'string') {
      where.push('EXISTS (SELECT 1 FROM transcripts t WHERE t.segment_id = s.id AND t.dropped_reason = @dropped)');
      params.dropped = query.dropped;
    }
    const sql = `SELECT s.* FROM segments s ${where.length ? 'WHERE ' + where.join(' AND ') : ''} ORDER BY s.id DESC LIMIT @limit`;
    const rows = this.stmt(sql).all(params) as SegmentRow[];
    const more = rows.length > query.limit;
    if (more) rows.pop();
    return { segments: this.withChildren(rows), nextBefore: more ? rows[rows.length - 1]!.id : null };
  }

  get(id: number): SegmentView | undefined {
    const row = this.stmt('SELECT * FROM segments WHERE id = ?').get(id) as SegmentRow | undefined;
    return row ? this.withChildren([row])[0] : undefined;
  }

  /** undefined: no such segment; null: the segment exists but its audio is not stored. */
  audio(id: number): { pcm: Int16Array; sampleRate: number } | null | undefined {
    const row = this.stmt('SELECT s.sample_rate, a.pcm FROM segments s LEFT JOIN segment_audio a ON a.segment_id = s.id WHERE s.id = ?').get(id) as
      { sample_rate: number; pcm: Buffer | null } | undefined;
    if (!row) return undefined;
    if (!row.pcm) return null;
    // Stored little-endian, which is the host order on every Pi (and x86) hark runs on.
    return { pcm: bufferToInt16(row.pcm), sampleRate: row.sample_rate };
  }

  /**
   * The raw microphone of a segment heard over hark's playback. undefined: no such
   * segment; `missing`: why there is none (never heard over playback, not stored, or damaged).
   */
  rawAudio(id: number): { pcm: Int16Array; sampleRate: number } | { missing: string } | undefined {
    const row = this.stmt(
      'SELECT s.sample_rate, s.sample_count, s.playback_json, s.audio_state, r.pcm FROM segments s LEFT JOIN segment_raw_audio r ON r.segment_id = s.id WHERE s.id = ?',
    ).get(id) as { sample_rate: number; sample_count: number; playback_json: string | null; audio_state: string; pcm: Buffer | null } | undefined;
    if (!row) return undefined;
    if (row.playback_json == null && !row.pcm) return { missing: 'it was not heard while hark played, so only the cleaned track exists' };
    if (!row.pcm) return { missing: row.audio_state === 'stored' ? 'its raw track was not stored' : `its audio is not stored (${row.audio_state})` };
    // A blob that is not exactly the segment's samples is damaged (or hand-made): refused, not guessed at.
    if (!Buffer.isBuffer(row.pcm) || row.pcm.byteLength !== row.sample_count * 2) {
      const size = Buffer.isBuffer(row.pcm) ? `${row.pcm.byteLength} bytes` : `a ${typeof row.pcm} value`;
      return { missing: `its raw track is damaged (${size} stored, ${row.sample_count * 2} expected)` };
    }
    return { pcm: bufferToInt16(row.pcm), sampleRate: row.sample_rate };
  }

  listItems(list?: string): ListItemView[] {
    const rows =
      list === undefined ? this.stmt('SELECT * FROM list_items ORDER BY id').all() : this.stmt('SELECT * FROM list_items WHERE list = ? ORDER BY id').all(list);
    return (rows as ListItemRow[]).map(listItemView);
  }

  private withChildren(rows: SegmentRow[]): SegmentView[] {
    if (rows.length === 0) return [];
    const ids = JSON.stringify(rows.map((r) => r.id));
    const views = new Map<number, SegmentView>(rows.map((r) => [r.id, segmentView(r)]));
    const children = <T>(table: string) =>
      this.stmt(`SELECT * FROM ${table} WHERE segment_id IN (SELECT value FROM json_each(?)) ORDER BY id`).all(ids) as (T & { segment_id: number })[];
    for (const r of children<TranscriptRow>('transcripts')) views.get(r.segment_id)!.transcripts.push(transcriptView(r));
    for (const r of children<UtteranceRow>('utterances')) views.get(r.segment_id)!.utterances.push(utteranceView(r));
    for (const r of children<IntentRow>('intents')) views.get(r.segment_id)!.intents.push(intentView(r));
    for (const r of children<ActionRow>('actions')) views.get(r.segment_id)!.actions.push(actionView(r));
    for (const r of children<ListItemRow>('list_items')) views.get(r.segment_id)!.listItems.push(listItemView(r));
    return rows.map((r) => views.get(r.id)!);
  }

  private stmt(sql: string): Statement {
    let s = this.cache.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.cache.set(sql, s);
    }
    return s;
  }
}

interface SegmentRow {
  id: number;
  created_at: number;
  started_at: number;
  source: string;
  stream_index: number | null;
  sample_rate: number;
  sample_count: number;
  preroll_samples: number;
  start_sample: number | null;
  vad_start_sample: number | null;
  end_sample: number | null;
  close_reason: string | null;
  /** Schema 10 (a file replay opens read-only may be older). */
  trailing_silence_ms?: number | null;
  opened_by: string | null;
  max_prob: number | null;
  rms: number;
  peak: number;
  splice_warning: number | null;
  splice_reason: string | null;
  splice_step: number | null;
  splice_typical_step: number | null;
  splice_level_before: number | null;
  splice_level_after: number | null;
  audio_state: string;
  audio_bytes: number;
  /** Schema 3. */
  playback_json?: string | null;
  raw_bytes?: number;
}
interface TranscriptRow {
  id: number;
  created_at: number;
  engine: string;
  raw_text: string;
  text: string;
  tokens_json: string | null;
  stt_ms: number | null;
  fallback_reason: string | null;
  dropped_reason: string | null;
}
interface UtteranceRow {
  id: string;
  created_at: number;
  engine: string;
  text: string;
  raw_text: string;
  stt_ms: number | null;
  fallback_reason: string | null;
  language: string | null;
}
interface IntentRow {
  id: number;
  created_at: number;
  utterance_id: string | null;
  kind: string;
  intent: string | null;
  target: string | null;
  slots_json: string | null;
  confidence: number | null;
  model: string | null;
  latency_ms: number | null;
  reason: string | null;
}
/** An `actions` row as SQLite returns it (also read by `hark replay`). */
export interface ActionRow {
  id: number;
  created_at: number;
  utterance_id: string | null;
  name: string;
  args_json: string | null;
  outcome: string;
  error: string | null;
  latency_ms: number | null;
}
interface ListItemRow extends ListItemFields {
  id: number;
  created_at: number;
  segment_id: number | null;
  utterance_id: string | null;
}

function segmentView(r: SegmentRow): SegmentView {
  const ms = (samples: number) => (samples * 1000) / r.sample_rate;
  return {
    id: r.id,
    createdAt: r.created_at,
    startedAt: r.started_at,
    vadAt: r.started_at + ms(r.preroll_samples),
    endedAt: r.started_at + ms(r.sample_count),
    source: r.source,
    streamIndex: r.stream_index,
    sampleRate: r.sample_rate,
    sampleCount: r.sample_count,
    durationMs: ms(r.sample_count),
    prerollSamples: r.preroll_samples,
    prerollMs: ms(r.preroll_samples),
    startSample: r.start_sample,
    vadStartSample: r.vad_start_sample,
    endSample: r.end_sample,
    closeReason: r.close_reason,
    openedBy: r.opened_by,
    trailingSilenceMs: r.trailing_silence_ms ?? null,
    maxProb: r.max_prob,
    rms: r.rms,
    peak: r.peak,
    splice:
      r.splice_warning === null
        ? null
        : {
            warning: r.splice_warning === 1,
            reason: (r.splice_reason as 'step' | 'level' | null) ?? null,
            step: r.splice_step ?? 0,
            typicalStep: r.splice_typical_step ?? 0,
            levelBefore: r.splice_level_before ?? 0,
            levelAfter: r.splice_level_after ?? 0,
          },
    audio: r.audio_state as AudioState,
    audioBytes: r.audio_bytes,
    echo: echoView(r),
    transcripts: [],
    utterances: [],
    intents: [],
    actions: [],
    listItems: [],
  };
}

function echoView(r: SegmentRow): EchoTrackView | null {
  // Absent (undefined) too: `hark replay` reads files of older schemas read-only, unmigrated.
  if (r.playback_json == null) return null;
  const raw = (r.raw_bytes ?? 0) > 0 && r.audio_state === 'stored';
  return { ...readPlayback(r.playback_json, r.sample_count, r.sample_rate), raw, rawBytes: raw ? (r.raw_bytes ?? 0) : 0 };
}

function transcriptView(r: TranscriptRow): TranscriptView {
  return {
    id: r.id,
    createdAt: r.created_at,
    engine: r.engine,
    rawText: r.raw_text,
    text: r.text,
    tokens: parseJson(r.tokens_json),
    sttMs: r.stt_ms,
    fallbackReason: r.fallback_reason,
    droppedReason: r.dropped_reason,
  };
}

function utteranceView(r: UtteranceRow): UtteranceView {
  return {
    id: r.id,
    createdAt: r.created_at,
    engine: r.engine,
    text: r.text,
    rawText: r.raw_text,
    sttMs: r.stt_ms,
    fallbackReason: r.fallback_reason,
    language: r.language,
  };
}

function intentView(r: IntentRow): IntentView {
  return {
    id: r.id,
    createdAt: r.created_at,
    utteranceId: r.utterance_id,
    kind: r.kind as IntentKind,
    intent: r.intent,
    target: r.target,
    slots: parseJson(r.slots_json),
    confidence: r.confidence,
    model: r.model,
    latencyMs: r.latency_ms,
    reason: r.reason,
  };
}

export function actionView(r: ActionRow): ActionView {
  return {
    id: r.id,
    createdAt: r.created_at,
    utteranceId: r.utterance_id,
    name: r.name,
    args: parseJson(r.args_json),
    outcome: r.outcome,
    error: r.error,
    latencyMs: r.latency_ms,
  };
}

function listItemView(r: ListItemRow): ListItemView {
  return {
    id: r.id,
    createdAt: r.created_at,
    list: r.list,
    item: r.item,
    quantity: r.quantity,
    unit: r.unit,
    op: r.op,
    note: r.note,
    segmentId: r.segment_id,
    utteranceId: r.utterance_id,
  };
}

/** JSON columns are written by us, but a hand-edited file must not break the page: fall back to the text. */
function parseJson(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
