import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import type { Utterance } from '../../src/core/utterance.js';
import { DEFAULT_HALLUCINATIONS, HallucinationFilter } from '../../src/stt/hallucination-filter.js';
import type { AsrResult } from '../../src/stt/types.js';
import { UtteranceBuilder, type SegmentContext, type UtteranceEvent } from '../../src/stt/utterance-builder.js';

const OPTS = { silenceGapMs: 750, punctuationPauseMs: 300, maxDurationMs: 12_000, maxChars: 500, stabilizer: { windowSize: 3, minConfidence: 0.6, requireRepetition: true } };

function setup(live = true, ctx: Partial<SegmentContext> = {}) {
  const clock = new VirtualClock(1000);
  const events: UtteranceEvent[] = [];
  let n = 0;
  const b = new UtteranceBuilder(OPTS, clock, new HallucinationFilter({ phrases: DEFAULT_HALLUCINATIONS }), (e) => events.push(e), () => `u${++n}`);
  b.beginSegment({ segmentId: 7, engine: 'deepgram', startedAt: 1000, live, ...ctx });
  const finals = () => events.filter((e): e is Extract<UtteranceEvent, { type: 'final' }> => e.type === 'final').map((e) => e.utterance);
  const dropped = () => events.filter((e): e is Extract<UtteranceEvent, { type: 'dropped' }> => e.type === 'dropped').map((e) => e.utterance);
  return { clock, b, events, finals, dropped };
}

/** A Deepgram result whose words are spread 0.3 s apart from `at` seconds. */
function result(kind: 'partial' | 'final', text: string, at = 0): AsrResult {
  const ws = text.split(' ').filter(Boolean);
  const words = ws.map((w, i) => ({ word: w.toLowerCase().replace(/[^a-z0-9']/g, ''), punctuated: w, start: at + i * 0.3, end: at + i * 0.3 + 0.25, confidence: 0.95 }));
  return { kind, text, words, confidence: 0.95, start: at, duration: ws.length * 0.3, speechFinal: kind === 'final', fromFinalize: false, receivedAt: 0 };
}

describe('utterance builder: state machine', () => {
  it('IDLE until the first word; open, updates with stable and raw text, then final', () => {
    const { b, events, finals, clock } = setup();
    b.asr(result('partial', ''));
    expect(b.state).toBe('idle');
    b.asr(result('partial', 'turn'));
    expect(b.state).toBe('active');
    clock.advanceBy(100);
    b.asr(result('partial', 'turn on'));
    b.asr(result('final', 'turn on the lights'));
    b.endSegment();
    expect(events.map((e) => e.type)).toEqual(['open', 'update', 'update', 'update', 'final']);
    const up = events.filter((e) => e.type === 'update');
    expect(up[up.length - 1]).toMatchObject({ stableText: 'turn on the lights', rawText: 'turn on the lights', durationMs: 100 });
    expect(finals()).toEqual([
      expect.objectContaining({ id: 'u1', text: 'turn on the lights', rawText: 'turn on the lights', engine: 'deepgram', segmentId: 7, closeReason: 'segment-end', sttMs: 100 }),
    ]);
  });

  it('closes on UtteranceEnd (priority 1)', () => {
    const { b, finals } = setup();
    b.asr(result('final', 'stop'));
    b.asr({ kind: 'utterance-end', lastWordEnd: 0.25, receivedAt: 0 });
    expect(finals()).toMatchObject([{ text: 'stop', closeReason: 'utterance-end' }]);
    expect(b.state).toBe('idle');
  });

  it('closes on terminal punctuation followed by 300 ms without new words', () => {
    const { b, clock, finals } = setup();
    b.asr(result('final', 'What time is it?'));
    clock.advanceBy(299);
    expect(finals()).toHaveLength(0);
    clock.advanceBy(1);
    expect(finals()).toMatchObject([{ text: 'What time is it?', closeReason: 'punctuation' }]);
  });

  it('new words and SpeechStarted cancel the punctuation pause', () => {
    const { b, clock, finals } = setup();
    b.asr(result('final', 'Stop.'));
    clock.advanceBy(200);
    b.asr({ kind: 'speech-started', timestamp: 0.5, receivedAt: 0 });
    clock.advanceBy(200);
    expect(finals()).toHaveLength(0);
    b.asr(result('partial', 'actually continue', 0.6));
    clock.advanceBy(300);
    expect(finals()).toHaveLength(0);
  });

  it('closes after a 750 ms silence gap', () => {
    const { b, clock, finals } = setup();
    b.asr(result('partial', 'set a timer'));
    clock.advanceBy(500);
    b.asr(result('partial', 'set a timer for'));
    clock.advanceBy(749);
    expect(finals()).toHaveLength(0);
    clock.advanceBy(1);
    expect(finals()).toMatchObject([{ text: 'set a timer for', closeReason: 'silence' }]);
  });

  it('guards against runaway utterances: 12 s and 500 characters', () => {
    const a = setup();
    for (let t = 0; t < 20; t++) {
      a.b.asr(result('partial', Array.from({ length: t + 1 }, () => 'la').join(' ')));
      a.clock.advanceBy(700);
      if (a.finals().length) break;
    }
    expect(a.finals()[0]?.closeReason).toBe('max-duration');

    const c = setup();
    c.b.asr(result('final', Array.from({ length: 150 }, (_, i) => `w${i}x`).join(' ')));
    expect(c.finals()[0]?.closeReason).toBe('max-length');
  });

  it('a late final for words an early close already took does not open a second utterance', () => {
    const { b, clock, finals, events } = setup();
    b.asr(result('partial', 'lights off.'));
    clock.advanceBy(300);
    expect(finals()).toMatchObject([{ text: 'lights off.', closeReason: 'punctuation' }]);
    b.asr(result('final', 'Lights off.'));
    b.asr(result('final', 'and the fan', 0.7));
    b.endSegment();
    expect(finals().map((u) => u.text)).toEqual(['lights off.', 'and the fan']);
    expect(events.filter((e) => e.type === 'open')).toHaveLength(2);
  });

  it('does not run the time rules when the segment was not streamed live', () => {
    const { b, clock, finals } = setup(false);
    b.asr(result('final', 'Stop.'));
    clock.advanceBy(60_000);
    expect(finals()).toHaveLength(0);
    b.endSegment();
    expect(finals()).toMatchObject([{ text: 'Stop.', closeReason: 'segment-end' }]);
  });
});

describe('utterance builder: drops are never silent', () => {
  it('a segment with nothing heard gives one dropped utterance saying why', () => {
    const { b, dropped, finals } = setup(false, { engine: 'whisper' });
    b.asr(result('final', '[BLANK_AUDIO]'));
    b.endSegment();
    expect(finals()).toHaveLength(0);
    expect(dropped()).toMatchObject([{ text: '', rawText: '[BLANK_AUDIO]', engine: 'whisper', dropReason: 'non-speech: [BLANK_AUDIO]', segmentId: 7 }]);
  });

  it('a hallucinated transcript is closed and dropped with the filter reason', () => {
    const { b, dropped, finals } = setup(false, { engine: 'whisper', fallbackReason: 'deepgram connect: timeout' });
    b.asr(result('final', ' Thanks for watching!'));
    b.endSegment();
    expect(finals()).toHaveLength(0);
    expect(dropped()).toMatchObject([{ rawText: 'Thanks for watching!', dropReason: 'hallucination: "thanks for watching"', fallbackReason: 'deepgram connect: timeout' }]);
  });

  it('an abandoned attempt drops its open utterance with the reason', () => {
    const { b, dropped } = setup();
    b.asr(result('partial', 'turn on'));
    b.abandonSegment('deepgram closed: 1011');
    expect(dropped()).toMatchObject([{ text: 'turn on', dropReason: 'abandoned: deepgram closed: 1011' }]);
    expect(b.state).toBe('idle');
  });

  it('a segment no engine could do is one dropped utterance carrying every reason', () => {
    const { b, dropped } = setup();
    b.endSegment();
    b.failSegment({ segmentId: 8, engine: 'whisper', startedAt: 1000, live: false }, 'whisper deadline: 3 s; no deepgram: DEEPGRAM_API_KEY is not set');
    expect(dropped()[1]).toMatchObject({ segmentId: 8, text: '', dropReason: 'whisper deadline: 3 s; no deepgram: DEEPGRAM_API_KEY is not set' });
  });
});

describe('utterance builder: the Whisper path', () => {
  it('one final per segment, with tokens and fallback reason, closed by the segment end', () => {
    const { b, finals } = setup(false, { engine: 'whisper', tokens: [{ text: '[_BEG_]', id: 50363, p: 1 }] });
    b.asr({ kind: 'final', text: ' [BLANK_AUDIO] Turn on the lights.', words: [], confidence: 0.8, start: 0, duration: 0, speechFinal: true, fromFinalize: true, receivedAt: 0 });
    b.endSegment();
    const u: Utterance = finals()[0]!;
    expect(u).toMatchObject({ text: 'Turn on the lights.', rawText: '[BLANK_AUDIO] Turn on the lights.', engine: 'whisper', closeReason: 'segment-end' });
    expect(u.tokens).toEqual([{ text: '[_BEG_]', id: 50363, p: 1 }]);
  });
});
