import { describe, expect, it } from 'vitest';
import { memoryLogger } from '../../src/core/log.js';
import { AsrEventSource, normalizeDeepgram } from '../../src/stt/asr-event-source.js';
import type { AsrEvent } from '../../src/stt/types.js';

const results = (over: Record<string, unknown> = {}) => ({
  type: 'Results',
  channel_index: [0, 1],
  start: 1.5,
  duration: 0.75,
  is_final: false,
  speech_final: false,
  channel: {
    alternatives: [
      {
        transcript: 'turn on',
        confidence: 0.91,
        words: [
          { word: 'turn', start: 1.5, end: 1.7, confidence: 0.9, punctuated_word: 'Turn' },
          { word: 'on', start: 1.7, end: 1.9, confidence: 0.5 },
        ],
      },
    ],
  },
  metadata: { request_id: 'r' },
  ...over,
});

describe('AsrEventSource (Deepgram message normalisation)', () => {
  it('maps interim Results to a partial, stamped with the receive time', () => {
    const n = normalizeDeepgram(results(), 1234);
    expect(n).toEqual({
      event: {
        kind: 'partial',
        text: 'turn on',
        words: [
          { word: 'turn', start: 1.5, end: 1.7, confidence: 0.9, punctuated: 'Turn' },
          { word: 'on', start: 1.7, end: 1.9, confidence: 0.5 },
        ],
        confidence: 0.91,
        start: 1.5,
        duration: 0.75,
        speechFinal: false,
        fromFinalize: false,
        receivedAt: 1234,
      },
    });
  });

  it('maps is_final Results to a final, keeping speech_final and from_finalize', () => {
    const n = normalizeDeepgram(results({ is_final: true, speech_final: true, from_finalize: true }), 1);
    expect('event' in n && n.event.kind).toBe('final');
    expect('event' in n && n.event.kind === 'final' && [n.event.speechFinal, n.event.fromFinalize]).toEqual([true, true]);
  });

  it.each([
    [
      { type: 'UtteranceEnd', channel: [0, 1], last_word_end: 2.1 },
      { kind: 'utterance-end', lastWordEnd: 2.1, receivedAt: 7 },
    ],
    [
      { type: 'SpeechStarted', channel: [0], timestamp: 0.4 },
      { kind: 'speech-started', timestamp: 0.4, receivedAt: 7 },
    ],
    [
      { type: 'Metadata', request_id: 'abc', sha256: 'x', created: 'now', duration: 1, channels: 1 },
      { kind: 'metadata', requestId: 'abc', receivedAt: 7 },
    ],
  ])('maps %j', (msg, event) => {
    expect(normalizeDeepgram(msg, 7)).toEqual({ event });
  });

  it.each([
    ['{"type": "Resul', 'not JSON'],
    [42, 'not a JSON object'],
    [{ type: 'Wat' }, 'unknown message type "Wat"'],
    [{ no: 'type' }, 'unknown message type null'],
    [{ type: 'Results', start: 0, duration: 1 }, 'Results without channel.alternatives'],
    [results({ start: 'soon' }), 'Results without numeric start/duration'],
    [results({ channel: { alternatives: [{ confidence: 1 }] } }), 'no transcript string'],
    [results({ channel: { alternatives: [{ transcript: 'x', words: [{ word: 'x' }] }] } }), 'malformed word'],
    [{ type: 'UtteranceEnd' }, 'UtteranceEnd without a numeric last_word_end'],
  ])('skips %j with a reason', (msg, reason) => {
    const n = normalizeDeepgram(msg, 0);
    expect('skip' in n && n.skip).toContain(reason);
  });

  it('an empty alternatives list is silence, not an error', () => {
    const n = normalizeDeepgram(results({ is_final: true, channel: { alternatives: [] } }), 0);
    expect('event' in n && n.event.kind === 'final' && n.event.text).toBe('');
  });

  it('logs and skips bad messages and keeps passing good ones on', () => {
    const log = memoryLogger();
    const got: AsrEvent[] = [];
    const src = new AsrEventSource(
      () => 5,
      log,
      (e) => got.push(e),
    );
    src.handle('garbage{');
    src.handle(results());
    src.handle({ type: 'Nope' });
    src.handle(results({ is_final: true }));
    expect(got.map((e) => e.kind)).toEqual(['partial', 'final']);
    expect(src.skipped).toBe(2);
    expect(log.lines.filter((l) => l.includes('deepgram message skipped'))).toHaveLength(2);
  });
});
