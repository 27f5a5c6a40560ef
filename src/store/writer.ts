import type { Database, Statement } from 'better-sqlite3';
import { SAMPLE_RATE, int16ToBuffer, rms } from '../audio/pcm.js';
import type { ActionInput, AudioState, IntentInput, ListItemInput, SegmentInput, TranscriptInput, UtteranceInput } from './records.js';
import { echoTrackProblem, encodePlayback } from './echo-track.js';
import { checkSplice } from './splice.js';

/**
 * The insert statements, prepared once. No transactions and no error handling here: the Store
 * decides what goes in one transaction and what to do when the disk is full.
 */
export class RowWriter {
  private readonly segment: Statement;
  private readonly audio: Statement;
  private readonly rawAudio: Statement;
  private readonly transcript: Statement;
  private readonly utterance: Statement;
  private readonly intent: Statement;
  private readonly action: Statement;
  private readonly listItem: Statement;
  private readonly segmentExists: Statement;
  private readonly utteranceSegment: Statement;
  private readonly supersede: Statement;

  constructor(db: Database) {
    this.segment = db.prepare(`INSERT INTO segments (created_at, started_at, source, stream_index, sample_rate, sample_count,
        preroll_samples, start_sample, vad_start_sample, end_sample, close_reason, opened_by, max_prob, rms, peak,
        splice_warning, splice_reason, splice_step, splice_typical_step, splice_level_before, splice_level_after, audio_state, audio_bytes,
        playback_json, raw_bytes, trailing_silence_ms)
      VALUES (@createdAt, @startedAt, @source, @index, @sampleRate, @sampleCount, @prerollSamples, @startSample, @vadStartSample,
        @endSample, @closeReason, @openedBy, @maxProb, @rms, @peak, @spliceWarning, @spliceReason, @spliceStep, @spliceTypicalStep,
        @spliceLevelBefore, @spliceLevelAfter, @audio, @audioBytes, @playback, @rawBytes, @trailingSilenceMs)`);
    this.audio = db.prepare('INSERT INTO segment_audio (segment_id, pcm) VALUES (?, ?)');
    this.rawAudio = db.prepare('INSERT INTO segment_raw_audio (segment_id, pcm) VALUES (?, ?)');
    this.transcript = db.prepare(`INSERT INTO transcripts (segment_id, created_at, engine, raw_text, text, tokens_json, stt_ms, fallback_reason, dropped_reason)
      VALUES (@segmentId, @createdAt, @engine, @rawText, @text, @tokens, @sttMs, @fallbackReason, @droppedReason)`);
    this.utterance = db.prepare(`INSERT OR REPLACE INTO utterances (id, segment_id, created_at, engine, text, raw_text, stt_ms, fallback_reason, language)
      VALUES (@id, @segmentId, @createdAt, @engine, @text, @rawText, @sttMs, @fallbackReason, @language)`);
    this.intent =
      db.prepare(`INSERT INTO intents (segment_id, utterance_id, created_at, kind, intent, target, slots_json, confidence, model, latency_ms, reason)
      VALUES (@segmentId, @utteranceId, @createdAt, @kind, @intent, @target, @slots, @confidence, @model, @latencyMs, @reason)`);
    this.action = db.prepare(`INSERT INTO actions (segment_id, utterance_id, created_at, name, args_json, outcome, error, latency_ms)
      VALUES (@segmentId, @utteranceId, @createdAt, @name, @args, @outcome, @error, @latencyMs)`);
    this.listItem = db.prepare(`INSERT INTO list_items (list, item, quantity, unit, op, note, segment_id, utterance_id, created_at)
      VALUES (@list, @item, @quantity, @unit, @op, @note, @segmentId, @utteranceId, @createdAt)`);
    this.segmentExists = db.prepare('SELECT 1 FROM segments WHERE id = ?').pluck();
    this.utteranceSegment = db.prepare('SELECT segment_id FROM utterances WHERE id = ?').pluck();
    // The latest fired row of that action from that utterance (IS: a timer's action has no utterance).
    this.supersede = db.prepare(`UPDATE actions SET outcome = 'superseded', error = @by WHERE id = (
      SELECT id FROM actions WHERE utterance_id IS @utteranceId AND name = @name AND outcome = 'ok' ORDER BY id DESC LIMIT 1)`);
  }

  insertSegment(s: SegmentInput, audio: AudioState, createdAt: number): number {
    const raw = s.echo && !echoTrackProblem(s.echo, s.pcm.length) ? s.echo.raw : null;
    return this.insertSegmentRow(segmentRow(s), audio === 'stored' ? s.pcm : null, createdAt, audio === 'stored' ? raw : null);
  }

  /**
   * A row made by segmentRow(): `pcm` null stores it without audio (its row says 'disk-full'). `raw`
   * is the raw microphone of a segment heard over playback, stored only with its audio.
   */
  insertSegmentRow(row: SegmentRow, pcm: Int16Array | null, createdAt: number, raw: Int16Array | null = null): number {
    const audio: AudioState = pcm ? 'stored' : row.audioOff ? 'off' : 'disk-full';
    const { audioOff: _off, ...values } = row;
    const rawKept = pcm && raw ? raw : null;
    const rawBytes = rawKept ? rawKept.byteLength : 0;
    const id = Number(this.segment.run({ ...values, createdAt, audio, audioBytes: pcm ? pcm.byteLength + rawBytes : 0, rawBytes }).lastInsertRowid);
    // Little-endian bytes, the host order on every Pi; the blob is bound (copied) by SQLite here.
    if (pcm) this.audio.run(id, int16ToBuffer(pcm));
    if (rawKept) this.rawAudio.run(id, int16ToBuffer(rawKept));
    return id;
  }

  insertTranscript(segmentId: number | null, t: TranscriptInput, createdAt: number): number {
    return Number(
      this.transcript.run({
        segmentId,
        createdAt,
        engine: t.engine,
        rawText: t.rawText,
        text: t.text,
        tokens: json(t.tokens),
        sttMs: t.sttMs ?? null,
        fallbackReason: t.fallbackReason ?? null,
        droppedReason: t.droppedReason ?? null,
      }).lastInsertRowid,
    );
  }

  insertUtterance(segmentId: number | null, u: UtteranceInput, createdAt: number): void {
    this.utterance.run({
      id: u.id,
      segmentId,
      createdAt,
      engine: u.engine,
      text: u.text,
      rawText: u.rawText ?? u.text,
      sttMs: u.sttMs ?? null,
      fallbackReason: u.fallbackReason ?? null,
      language: u.language ?? null,
    });
  }

  insertIntent(segmentId: number | null, i: IntentInput, createdAt: number): number {
    return Number(
      this.intent.run({
        segmentId,
        utteranceId: i.utteranceId ?? null,
        createdAt,
        kind: i.kind,
        intent: i.intent ?? null,
        target: i.target ?? null,
        slots: json(i.slots),
        confidence: i.confidence ?? null,
        model: i.model ?? null,
        latencyMs: i.latencyMs ?? null,
        reason: i.reason ?? null,
      }).lastInsertRowid,
    );
  }

  insertAction(segmentId: number | null, a: ActionInput, createdAt: number): number {
    return Number(
      this.action.run({
        segmentId,
        utteranceId: a.utteranceId ?? null,
        createdAt,
        name: a.name,
        args: json(a.args),
        outcome: a.outcome,
        error: a.error ?? null,
        latencyMs: a.latencyMs ?? null,
      }).lastInsertRowid,
    );
  }

  /** Mark an action already written as superseded; false when no such row was found. */
  supersedeAction(utteranceId: string | null, name: string, by: string): boolean {
    return this.supersede.run({ utteranceId, name, by }).changes > 0;
  }

  insertListItem(segmentId: number | null, l: ListItemInput, createdAt: number): number {
    return Number(
      this.listItem.run({
        list: l.list,
        item: l.item,
        quantity: l.quantity ?? null,
        unit: l.unit ?? null,
        op: l.op ?? 'add',
        note: l.note ?? null,
        segmentId,
        utteranceId: l.utteranceId ?? null,
        createdAt,
      }).lastInsertRowid,
    );
  }

  /**
   * The segment a late row belongs to: the id given if it is still stored, else the utterance's
   * segment, else none. A row whose segment was purged is kept unlinked rather than lost.
   */
  resolveSegment(segmentId: number | null | undefined, utteranceId: string | null | undefined): number | null {
    if (segmentId != null && this.segmentExists.get(segmentId)) return segmentId;
    if (utteranceId != null) {
      const found = this.utteranceSegment.get(utteranceId) as number | null | undefined;
      if (found != null) return found;
    }
    return null;
  }
}

/**
 * A segment's row values, computed from its PCM once: a row waiting in the store's queue (full disk)
 * keeps these few numbers, not the audio.
 */
export function segmentRow(s: SegmentInput, audioOff = false) {
  const sampleRate = s.sampleRate ?? SAMPLE_RATE;
  const splice = checkSplice(s.pcm, s.prerollSamples, sampleRate);
  return {
    startedAt: s.startedAt,
    source: s.source ?? 'mic',
    index: s.index ?? null,
    sampleRate,
    sampleCount: s.pcm.length,
    prerollSamples: s.prerollSamples,
    startSample: s.startSample ?? null,
    vadStartSample: s.vadStartSample ?? null,
    endSample: s.endSample ?? null,
    closeReason: s.closeReason ?? null,
    openedBy: s.openedBy ?? null,
    trailingSilenceMs: s.trailingSilenceMs ?? null,
    maxProb: s.maxProb ?? null,
    rms: rms(s.pcm),
    peak: peak(s.pcm),
    spliceWarning: splice ? (splice.warning ? 1 : 0) : null,
    spliceReason: splice?.reason ?? null,
    spliceStep: splice?.step ?? null,
    spliceTypicalStep: splice?.typicalStep ?? null,
    spliceLevelBefore: splice?.levelBefore ?? null,
    spliceLevelAfter: splice?.levelAfter ?? null,
    // The spans are a few numbers, kept even when the audio is not (a row queued on a full disk too).
    playback: s.echo && !echoTrackProblem(s.echo, s.pcm.length) ? encodePlayback(s.echo.playback) : null,
    audioOff,
  };
}

export type SegmentRow = ReturnType<typeof segmentRow>;

function peak(pcm: Int16Array): number {
  let p = 0;
  for (let i = 0; i < pcm.length; i++) {
    const v = Math.abs(pcm[i]!);
    if (v > p) p = v;
  }
  return p / 32768;
}

function json(value: unknown): string | null {
  return value === undefined || value === null ? null : JSON.stringify(value);
}
