import { describe, expect, it } from 'vitest';
import { runEnding, type RunEnding } from '../../src/ha/satellite/run-end.js';
import { EVENT } from '../../src/ha/satellite/voice-api.js';

/**
 * How a run ended, from the events Home Assistant's pipeline sent before its RUN_END (pipeline.py
 * PipelineInput.execute: RUN_END in a `finally`, so also for a cancelled task).
 */
const { RUN_START, STT_START, STT_END, INTENT_START, INTENT_END, TTS_START, TTS_END, ERROR } = EVENT;

describe('runEnding', () => {
  it.each<[string, number[], RunEnding]>([
    ['an answer', [RUN_START, STT_START, STT_END, INTENT_START, INTENT_END, TTS_START, TTS_END], 'answered'],
    ['the agent said nothing: every stage it began ended', [RUN_START, STT_START, STT_END, INTENT_START, INTENT_END], 'finished'],
    ['speech-to-text only (Home Assistant asked a question and takes the words)', [RUN_START, STT_START, STT_END], 'finished'],
    ['a wake word Home Assistant intercepted: RUN_END alone', [], 'finished'],
    ['nothing heard', [RUN_START, STT_START, ERROR], 'failed'],
    ['the wake-word cooldown', [RUN_START, ERROR], 'failed'],
    ['cancelled while transcribing (a restart, an announcement)', [RUN_START, STT_START], 'cancelled'],
    ['cancelled while the agent thinks', [RUN_START, STT_START, STT_END, INTENT_START], 'cancelled'],
    ['cancelled while the answer is synthesised', [RUN_START, STT_START, STT_END, INTENT_START, INTENT_END, TTS_START], 'cancelled'],
    ['cancelled before its first stage', [RUN_START], 'cancelled'],
  ])('%s', (_what, events, ending) => {
    expect(runEnding(events)).toBe(ending);
  });
});
