import type { Bus } from '../core/bus.js';
import type { TranscriptSummary } from '../store/events.js';
import type { StoreHealth } from '../store/store.js';

/** Upper bounds (seconds) of the STT latency histogram: tiny/base Whisper on a Pi lands in 0.5–4 s. */
export const STT_BUCKETS_S = [0.1, 0.25, 0.5, 1, 2, 4, 8, 16];

export interface CaptureStatus {
  state: 'unknown' | 'starting' | 'up' | 'down';
  device: string | null;
  /** Wall-clock ms of the last change. */
  since: number | null;
  reason: string | null;
}

/** The speech-to-text line's state (the segment path's QueueLoad), read at scrape time. */
export interface SttLoad {
  depth: number;
  audioSec: number;
  oldestWaitMs: number;
  behind: boolean;
}

/** The real-time factor is taken over this much recent time. */
export const RTF_WINDOW_MS = 5 * 60_000;

interface Histogram {
  counts: number[];
  sum: number;
  count: number;
}

/**
 * Counters since this process started, fed from the bus (what the store wrote, what capture did),
 * rendered in Prometheus text format with the store's gauges at scrape time.
 */
export class Metrics {
  readonly segments = new Map<string, number>();
  readonly dropped = new Map<string, number>();
  readonly fallbacks = new Map<string, number>();
  readonly stt = new Map<string, Histogram>();
  /** Speculative Whisper runs at a pause: started, used at the close, thrown away (speech resumed). */
  readonly preemptive = new Map<string, number>();
  /** The fleet's MQTT queue: events dropped while the broker was away (the bound was reached). */
  fleetDropped = 0;
  fleetQueued = 0;
  /** The fleet's last reported state (null: MQTT is off), for /healthz and the page. */
  fleet: { state: string; url: string | null; device: string | null; room: string | null; lastError: string | null } | null = null;
  captureRestarts = 0;
  writeFailures = 0;
  capture: CaptureStatus = { state: 'unknown', device: null, since: null, reason: null };
  private captureUps = 0;
  /** Segments not transcribed whole on purpose, by reason (no-wake-phrase, backlog-wait, backlog-memory). */
  readonly skipped = new Map<string, number>();
  /** Recent transcriptions: wall ms, seconds of audio, seconds of speech-to-text. */
  private readonly recent: { at: number; audioSec: number; sttSec: number }[] = [];

  constructor(private readonly wallNow: () => number = Date.now) {}

  /**
   * Speech-to-text seconds per second of audio over the last RTF_WINDOW_MS: above 1, talk arrives
   * faster than this device transcribes it. null: nothing transcribed lately.
   */
  realTimeFactor(): number | null {
    const since = this.wallNow() - RTF_WINDOW_MS;
    while (this.recent.length && this.recent[0]!.at < since) this.recent.shift();
    let audio = 0;
    let stt = 0;
    for (const r of this.recent) {
      audio += r.audioSec;
      stt += r.sttSec;
    }
    return audio > 0 ? Math.round((stt / audio) * 1000) / 1000 : null;
  }

  /** Listen on the bus; returns the unsubscribe. Capture events are read by name, without importing the daemon. */
  attach(bus: Bus): () => void {
    return bus.onAny((name, payload) => {
      const p = (payload ?? {}) as Record<string, unknown>;
      switch (name) {
        case 'store.segment': {
          const audio = String(p.audio);
          this.segments.set(audio, (this.segments.get(audio) ?? 0) + 1);
          for (const t of (p.transcripts as TranscriptSummary[] | undefined) ?? []) this.observe(t);
          break;
        }
        case 'store.row':
          if (p.transcript) this.observe(p.transcript as TranscriptSummary);
          break;
        case 'store.write-failed':
          this.writeFailures++;
          break;
        case 'capture.up':
          if (this.captureUps++ > 0) this.captureRestarts++;
          this.capture = { state: 'up', device: str(p.device), since: this.wallNow(), reason: null };
          break;
        case 'capture.starting':
          this.capture = { state: 'starting', device: str(p.device), since: this.wallNow(), reason: null };
          break;
        case 'capture.down':
          this.capture = { state: 'down', device: str(p.device), since: this.wallNow(), reason: str(p.reason) };
          break;
        case 'stt.preemptive': {
          const outcome = String(p.outcome);
          this.preemptive.set(outcome, (this.preemptive.get(outcome) ?? 0) + 1);
          break;
        }
        case 'segment.skipped': {
          const reason = String(p.reason);
          this.skipped.set(reason, (this.skipped.get(reason) ?? 0) + 1);
          break;
        }
        case 'stt.segment': {
          // The engines' own time on it (not its wait in line), over the audio it held.
          const attempts = (p.attempts as { sttMs?: number }[] | undefined) ?? [];
          const sttSec = attempts.reduce((a, t) => a + (t.sttMs ?? 0), 0) / 1000;
          if (typeof p.audioSec === 'number' && p.audioSec > 0) {
            this.recent.push({ at: this.wallNow(), audioSec: p.audioSec, sttSec });
            if (this.recent.length > 10_000) this.recent.shift();
          }
          break;
        }
        case 'fleet.state':
          if (typeof p.dropped === 'number') this.fleetDropped = p.dropped;
          if (typeof p.queued === 'number') this.fleetQueued = p.queued;
          this.fleet = { state: String(p.state), url: str(p.url), device: str(p.device), room: str(p.room), lastError: str(p.lastError) };
          break;
      }
    });
  }

  observe(t: TranscriptSummary): void {
    if (t.droppedReason) this.dropped.set(t.droppedReason, (this.dropped.get(t.droppedReason) ?? 0) + 1);
    if (t.fallbackReason) this.fallbacks.set(t.engine, (this.fallbacks.get(t.engine) ?? 0) + 1);
    if (t.sttMs !== null && Number.isFinite(t.sttMs)) {
      let h = this.stt.get(t.engine);
      if (!h) this.stt.set(t.engine, (h = { counts: STT_BUCKETS_S.map(() => 0), sum: 0, count: 0 }));
      const s = t.sttMs / 1000;
      STT_BUCKETS_S.forEach((le, i) => {
        if (s <= le) h!.counts[i]!++;
      });
      h.sum += s;
      h.count++;
    }
  }

  render(store: StoreHealth | null, sseClients: number, load: SttLoad | null = null): string {
    const out: string[] = [];
    const family = (name: string, type: string, help: string, samples: [labels: Record<string, string>, value: number][]) => {
      out.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
      for (const [labels, value] of samples) out.push(`${name}${fmtLabels(labels)} ${fmtNumber(value)}`);
    };
    const byLabel = (m: Map<string, number>, label: string) => [...m].map(([k, v]) => [{ [label]: k }, v] as [Record<string, string>, number]);

    family('hark_segments_total', 'counter', 'Segments logged since start, by whether their audio was stored.', byLabel(this.segments, 'audio'));
    family('hark_transcripts_dropped_total', 'counter', 'Transcripts thrown away since start, by reason.', byLabel(this.dropped, 'reason'));
    family(
      'hark_stt_fallbacks_total',
      'counter',
      'Transcripts made by a fallback engine after the first failed, by the engine that took over.',
      byLabel(this.fallbacks, 'engine'),
    );
    out.push('# HELP hark_stt_duration_seconds Speech-to-text time per transcript, by engine.', '# TYPE hark_stt_duration_seconds histogram');
    for (const [engine, h] of this.stt) {
      STT_BUCKETS_S.forEach((le, i) => out.push(`hark_stt_duration_seconds_bucket${fmtLabels({ engine, le: String(le) })} ${h.counts[i]}`));
      out.push(`hark_stt_duration_seconds_bucket${fmtLabels({ engine, le: '+Inf' })} ${h.count}`);
      out.push(`hark_stt_duration_seconds_sum${fmtLabels({ engine })} ${fmtNumber(h.sum)}`);
      out.push(`hark_stt_duration_seconds_count${fmtLabels({ engine })} ${h.count}`);
    }
    if (load) {
      family('hark_stt_queue_depth', 'gauge', 'Segments (and text or taps) waiting for speech-to-text and the router.', [[{}, load.depth]]);
      family('hark_stt_queue_audio_seconds', 'gauge', 'Seconds of audio waiting for speech-to-text.', [[{}, load.audioSec]]);
      family('hark_stt_queue_oldest_wait_seconds', 'gauge', 'How long the oldest waiting segment has waited.', [[{}, load.oldestWaitMs / 1000]]);
      family('hark_stt_behind', 'gauge', '1 while speech-to-text is behind (stt.queue.maxWaitMs reached or audio evicted, within the last bound).', [
        [{}, load.behind ? 1 : 0],
      ]);
    }
    const rtf = this.realTimeFactor();
    family(
      'hark_stt_real_time_factor',
      'gauge',
      `Speech-to-text seconds per second of audio over the last ${RTF_WINDOW_MS / 60_000} minutes (above 1: falling behind; no sample: nothing transcribed lately).`,
      rtf === null ? [] : [[{}, rtf]],
    );
    family(
      'hark_segments_skipped_total',
      'counter',
      'Segments not transcribed whole on purpose, by reason (no-wake-phrase, backlog-wait, backlog-memory).',
      byLabel(this.skipped, 'reason'),
    );
    family(
      'hark_stt_preemptive_total',
      'counter',
      'Speculative transcriptions at a pause in speech, by outcome (started, used, discarded).',
      byLabel(this.preemptive, 'outcome'),
    );
    family('hark_fleet_queued_events', 'gauge', 'Fleet (MQTT) events waiting for the broker.', [[{}, this.fleetQueued]]);
    family('hark_fleet_dropped_events_total', 'counter', 'Fleet (MQTT) events dropped because the broker was away longer than the queue could hold.', [
      [{}, this.fleetDropped],
    ]);
    family('hark_capture_restarts_total', 'counter', 'Times the microphone recorder came back after going down.', [[{}, this.captureRestarts]]);
    family('hark_capture_up', 'gauge', '1 while the microphone delivers audio, 0 when down, -1 when unknown.', [
      [{}, this.capture.state === 'up' ? 1 : this.capture.state === 'down' ? 0 : -1],
    ]);
    family('hark_store_write_failures_total', 'counter', 'Store writes lost since start.', [[{}, this.writeFailures]]);
    if (store) {
      family('hark_store_segments', 'gauge', 'Segments in the log now.', [[{}, store.segments]]);
      family('hark_store_audio_bytes', 'gauge', 'PCM bytes stored now.', [[{}, store.audioBytes]]);
      family('hark_store_file_bytes', 'gauge', 'Database file and WAL size on disk.', [[{}, store.fileBytes]]);
      family('hark_store_audio_paused', 'gauge', '1 while audio storage is stopped because the disk was full.', [
        [{}, store.audioStorage === 'paused-disk-full' ? 1 : 0],
      ]);
    }
    family('hark_debug_sse_clients', 'gauge', 'Viewer pages connected to the event stream.', [[{}, sseClients]]);
    return out.join('\n') + '\n';
  }
}

function str(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

function fmtLabels(labels: Record<string, string>): string {
  const parts = Object.entries(labels).map(([k, v]) => `${k}="${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`);
  return parts.length ? `{${parts.join(',')}}` : '';
}

function fmtNumber(v: number): string {
  return Number.isFinite(v) ? String(v) : v > 0 ? '+Inf' : v < 0 ? '-Inf' : 'NaN';
}
