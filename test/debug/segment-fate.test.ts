import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Utterance } from '../../src/core/utterance.js';
import { presentSegment } from '../../src/debug/present.js';
import type { Fate } from '../../src/path/fate.js';
import { segmentWrite, type SegmentRecord } from '../../src/path/segment-record.js';
import type { SttAttempt } from '../../src/stt/events.js';
import { startHarness, type Harness } from './harness.js';

/**
 * The card's headline is read back from the rows the daemon's path writes: each fate is
 * written here by the path's own segmentWrite, stored, and served as the page gets it.
 */
let h: Harness;
let n = 0;
beforeAll(async () => {
  h = await startHarness({ suite: 'debug-segment-fate' });
});
afterAll(() => h?.close());

const BLANK = 'whisper blank on clear speech (blank audio; VAD peak 0.97)';
const blank: SttAttempt = { engine: 'whisper', outcome: 'ok', rawText: '[BLANK_AUDIO]', text: '', sttMs: 400, droppedReason: BLANK };
const heard: SttAttempt = { engine: 'deepgram', outcome: 'ok', rawText: 'stop the timer', text: 'stop the timer', sttMs: 600, fallbackReason: BLANK };

/** What the page's headline says of a segment handled with these attempts and this fate. */
function headline(attempts: SttAttempt[] | null, fate: (u: Utterance) => Fate): string | null {
  const index = ++n;
  const u: Utterance = { id: `u-${index}`, text: 'stop the timer', rawText: 'stop the timer', engine: 'deepgram', atMs: 0 };
  const segment = {
    pcm: new Int16Array(8000),
    prerollSamples: 1600,
    index,
    startSample: 0,
    vadStartSample: 1600,
    endSample: 8000,
    closeReason: 'hangover' as const,
    maxProb: 0.97,
    openedBy: 'vad' as const,
  };
  const transcript = attempts && { segmentId: index, attempts, hearing: { kind: 'heard' as const, utterance: u }, sttMs: 1000 };
  const rec: SegmentRecord = {
    segment,
    transcript,
    fate: fate(u),
    actions: [],
    closedAt: 0,
    closedWallAt: Date.now(),
    speechEndAt: 0,
    firstActionAt: null,
    written: false,
  };
  const { id } = h.store.recordSegment(segmentWrite(rec, 'mic'))!;
  return presentSegment(h.store.getSegment(id)!).fate?.text ?? null;
}

describe('the headline says what became of a segment, whatever its first engine did', () => {
  it('dispatched, filtered or yielded when the next engine heard the words', () => {
    expect(headline([blank, heard], (utterance) => ({ kind: 'dispatched', utterance }))).toBe('dispatched');
    expect(headline([blank, heard], (utterance) => ({ kind: 'filtered', utterance, reason: 'backchannel only ("ok")' }))).toBe(
      'filtered: backchannel only ("ok")',
    );
    expect(headline([blank, heard], (utterance) => ({ kind: 'yielded', utterance, reason: 'yielded to hall-1' }))).toBe('yielded to hall-1');
  });

  it('dropped with the reason that stood when nothing was heard', () => {
    const failed: SttAttempt = { engine: 'deepgram', outcome: 'failed', rawText: '', text: '', sttMs: 0, error: 'deadline 4000 ms', fallbackReason: BLANK };
    expect(headline([blank, failed], () => ({ kind: 'dropped', reason: `${BLANK}; deadline 4000 ms` }))).toBe('dropped: deadline 4000 ms');
    expect(headline(null, () => ({ kind: 'cancelled', reason: 'push-to-talk cancelled (tap or mute hold)' }))).toBe(
      'dropped: push-to-talk cancelled (tap or mute hold)',
    );
  });

  it('says nothing of a segment whose words never met the command side (a POSTed one)', () => {
    const { id } = h.store.recordSegment({
      segment: { pcm: new Int16Array(1600), prerollSamples: 0, startedAt: Date.now(), source: 'post' },
      transcripts: [{ engine: 'external', rawText: 'hello', text: 'hello' }],
    })!;
    expect(presentSegment(h.store.getSegment(id)!).fate).toBeNull();
  });
});
