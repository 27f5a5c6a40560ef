import { EVENT } from './voice-api.js';

/**
 * How Home Assistant's pipeline run ended, read from the events it sent for the run. Pure.
 *
 * Home Assistant's pipeline (assist_pipeline pipeline.py, PipelineInput.execute) always ends a run
 * with RUN_END, in a `finally`: after its last stage, after an ERROR, and also when its task is
 * cancelled. A cancelled run is the one RUN_END that comes while a stage it started is still open
 * (STT_START without STT_END, INTENT_START without INTENT_END, TTS_START without TTS_END), or right
 * after RUN_START with no stage at all: nothing in the pipeline ends a stage early without an ERROR.
 * Home Assistant cancels a satellite's run when it announces or starts a conversation on it
 * (assist_satellite entity.py `_cancel_running_pipeline`), when the same device starts another run,
 * and when it stops (core.py async_stop cancels every background task before the integrations
 * disconnect) — which one it was shows in what follows: an announcement, a disconnect, or nothing.
 */
export type RunEnding = 'answered' | 'failed' | 'cancelled' | 'finished';

const STAGES: readonly [number, number][] = [
  [EVENT.STT_START, EVENT.STT_END],
  [EVENT.INTENT_START, EVENT.INTENT_END],
  [EVENT.TTS_START, EVENT.TTS_END],
];

/** `events`: the run's event types in the order they came, RUN_END not included. */
export function runEnding(events: readonly number[]): RunEnding {
  if (events.includes(EVENT.ERROR)) return 'failed';
  if (events.includes(EVENT.TTS_END)) return 'answered';
  const started = STAGES.filter(([start]) => events.includes(start));
  const open = started.some(([start, end]) => events.lastIndexOf(start) > events.lastIndexOf(end));
  if (open) return 'cancelled';
  // RUN_START and then nothing: cancelled before its first stage began.
  if (started.length === 0 && events.includes(EVENT.RUN_START)) return 'cancelled';
  // Every stage it began ended: a run with no answer (the agent said nothing), or one Home Assistant
  // meant to end early (speech-to-text only, for a question it asked; a wake word it intercepted).
  return 'finished';
}
