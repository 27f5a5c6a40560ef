import type { Bus } from '../../core/bus.js';
import type { TimerHandle } from '../../core/clock.js';
import type { ApiConnection } from './connection.js';
import { CHUNK_SAMPLES } from './voice-api.js';

/** One pipeline run hark asked Home Assistant for, from its VoiceAssistantRequest to its RUN_END. */
export interface Run {
  conn: ApiConnection;
  /** What Home Assistant gets: the segment from where the wake phrase ends; null until the speech comes (a continued conversation). */
  audio: Int16Array | null;
  accepted: boolean;
  /** The pipeline's events for this run, in order (RUN_END not included). */
  events: number[];
  continueConversation: boolean;
  /** The answer: none yet, being fetched and played, or done (played, stopped or failed). */
  answer: 'none' | 'playing' | 'done';
  /** VoiceAssistantAnnounceFinished went out for this run. */
  finishedSent: boolean;
  /** RUN_END came. */
  ended: boolean;
  timer: TimerHandle | null;
}

export function newRun(conn: ApiConnection, audio: Int16Array | null): Run {
  return { conn, audio, accepted: false, events: [], continueConversation: false, answer: 'none', finishedSent: false, ended: false, timer: null };
}

/**
 * The run's audio over the API itself (port 0: API audio, as hark announced), then its graceful end.
 * Never an empty chunk: Home Assistant's audio stream ends at the first one (assist_satellite.py
 * _wrap_audio_stream).
 */
export function sendRunAudio(run: Run, bus: Bus): void {
  const a = run.audio!;
  const bytes = Buffer.from(a.buffer, a.byteOffset, a.byteLength);
  for (let i = 0; i < a.length; i += CHUNK_SAMPLES) {
    run.conn.send('VoiceAssistantAudio', { data: bytes.subarray(i * 2, Math.min(a.length, i + CHUNK_SAMPLES) * 2) });
  }
  // VoiceAssistantAudio{end}: aioesphomeapi handle_stop(False), the run goes on to an answer.
  // (VoiceAssistantRequest{start: false} would be handle_stop(True): the run cancelled.)
  run.conn.send('VoiceAssistantAudio', { end: true });
  bus.emit('ha.satellite.audio', { bytes: bytes.length });
}

/** How long hark waits for Home Assistant to accept a run (VoiceAssistantResponse). */
export const ACCEPT_MS = 5000;
/** After a run that asked something back, the answer needs no wake phrase for this long. */
export const FOLLOW_UP_MS = 8000;
/**
 * A cancelled run is judged within this long: a clean stop disconnects in the same shutdown step
 * that cancelled it (core.py async_stop); an announcement follows once its media is resolved.
 */
export const CANCEL_WINDOW_MS = 2000;
