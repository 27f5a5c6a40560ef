import { describe, expect, it } from 'vitest';
import { Bus, type HarkEvents } from '../../src/core/bus.js';
import { VirtualClock } from '../../src/core/clock.js';
import { memoryLogger } from '../../src/core/log.js';
import { TimeUp } from '../../src/core/time-up.js';
import { validateConfig } from '../../src/config/load.js';
import { kitchenLanguage } from '../../src/language/config.js';
import type { OpenSegment } from '../../src/path/open-segment.js';
import { openingPhrases } from '../../src/path/opening.js';
import { OpeningJudge, type OpeningVerdict } from '../../src/path/opening-check.js';
import { NO_WAKE_PHRASE, WordsStage } from '../../src/path/words.js';
import type { Segment } from '../../src/vad/segment.js';
import { ScriptedEngine, type Script } from '../kit/stt.js';
import { sttStack } from '../kit/stt-stack.js';

/**
 * The words stage on its own: a closed segment in, its transcript (or a fate decided here) out. The
 * real transcriber and opening check over the kit's scripted engine, on a virtual clock. What a user
 * notices: radio in a loud room is not transcribed whole unless it opens with the wake phrase; a
 * command that waited too long is kept for replay instead of acted on late; push-to-talk always counts.
 */

const RATE = 16_000;
const PREROLL = 8000;
const config = validateConfig({ router: { mode: 'wake-word' }, speech: { device: 'null' } }, 'test');
const phrases = openingPhrases(config.router.frames)!;
const WAKE = phrases[0]!.join(' ');

function stage(script: Script, o: { whole?: boolean; costMs?: number } = {}) {
  const clock = new VirtualClock(100_000);
  const bus = new Bus();
  const log = memoryLogger();
  const engine = new ScriptedEngine({ script, clock, costMs: o.costMs ?? 0 });
  const stt = sttStack({ engines: [engine], clock, bus, log });
  const judge = new OpeningJudge({ stt, config: config.stt, log, phrases, ringing: () => false, language: () => kitchenLanguage() });
  const outOfTime = new TimeUp();
  const skipped: HarkEvents['segment.skipped'][] = [];
  bus.on('segment.skipped', (e) => void skipped.push(e));
  const words = new WordsStage({ stt, config: config.stt, bus, log, judge, wantsWholeTranscript: () => o.whole ?? false, hangoverMs: () => 600, outOfTime });
  return { clock, engine, words, skipped, outOfTime, log };
}

/** A closed segment: pre-roll, `speechSec` of speech, then a 600 ms hangover's silence. */
function segment(speechSec: number, o: { ptt?: boolean; index?: number } = {}): Segment {
  const n = PREROLL + Math.round((speechSec + 0.6) * RATE);
  return {
    index: o.index ?? 3,
    pcm: new Int16Array(n),
    prerollSamples: PREROLL,
    startSample: 0,
    vadStartSample: PREROLL,
    endSample: n,
    closeReason: o.ptt ? 'ptt-release' : 'hangover',
    maxProb: 0.95,
    openedBy: o.ptt ? 'ptt' : 'vad',
  };
}

const heardText = (w: Awaited<ReturnType<WordsStage['hear']>>) => (w.transcript?.hearing.kind === 'heard' ? w.transcript.hearing.utterance.text : null);

describe('the words stage', () => {
  it('a short command is transcribed whole, once', async () => {
    const s = stage(['set a timer for five minutes']);
    const w = await s.words.hear({ segment: segment(1.5), seg: null, waitedMs: 0, late: false });
    expect(heardText(w)).toBe('set a timer for five minutes');
    expect(w.decided).toBeNull();
    expect(s.engine.heard).toEqual([segment(1.5).pcm.length]);
    expect(s.skipped).toEqual([]);
  });

  it('a long segment without the wake phrase at its start: only its opening is transcribed, and it is dropped as such', async () => {
    const s = stage(['the weather today will be mostly sunny']);
    const w = await s.words.hear({ segment: segment(6), seg: null, waitedMs: 0, late: false });
    expect(w.decided).toEqual({ kind: 'dropped', reason: NO_WAKE_PHRASE });
    // One inference, on the pre-roll and the opening's seconds only.
    expect(s.engine.heard).toEqual([PREROLL + config.stt.opening.seconds * RATE]);
    expect(s.skipped).toEqual([{ segment: 3, reason: 'no-wake-phrase', waitedMs: 0 }]);
    // The record says what became of it.
    expect(w.transcript!.attempts.at(-1)!.droppedReason).toMatch(/^no wake phrase at its start/);
  });

  it('a long segment that opens with the wake phrase is transcribed whole after its opening', async () => {
    const s = stage([`${WAKE} set a`, `${WAKE} set a timer for ten minutes and then remind me`]);
    const w = await s.words.hear({ segment: segment(6), seg: null, waitedMs: 0, late: false });
    expect(w.decided).toBeNull();
    expect(heardText(w)).toBe(`${WAKE} set a timer for ten minutes and then remind me`);
    expect(s.engine.heard).toEqual([PREROLL + config.stt.opening.seconds * RATE, segment(6).pcm.length]);
  });

  it('the verdict of the check made while it was still open is used: no second look at the opening', async () => {
    const s = stage(['the whole of it']);
    const verdict: OpeningVerdict = { kind: 'wake', sttMs: 120 };
    const seg: OpenSegment = {
      startSample: 0,
      key: '@0',
      live: null,
      speaking: false,
      held: false,
      spans: 0,
      candidate: null,
      pauses: 0,
      bargeIds: new Set(),
      prerollSamples: PREROLL,
      lastPause: null,
      opening: { pcm: new Int16Array(0), maxProb: 0.95, verdict: Promise.resolve(verdict), result: verdict },
    };
    const w = await s.words.hear({ segment: segment(6), seg, waitedMs: 0, late: false });
    expect(heardText(w)).toBe('the whole of it');
    expect(s.engine.heard).toEqual([segment(6).pcm.length]);
  });

  it('with something waiting for an answer every segment is transcribed whole, long or not', async () => {
    const s = stage(['the weather today will be mostly sunny'], { whole: true });
    const w = await s.words.hear({ segment: segment(6), seg: null, waitedMs: 0, late: false });
    expect(w.decided).toBeNull();
    expect(s.engine.heard).toEqual([segment(6).pcm.length]);
  });

  it('a segment that waited past the bound is kept for replay, untranscribed and told; push-to-talk is transcribed however late', async () => {
    const s = stage(['turn on the oven']);
    const late = await s.words.hear({ segment: segment(1.5), seg: null, waitedMs: 9200, late: true });
    expect(late.decided).toEqual({ kind: 'untranscribed', reason: expect.stringMatching(/^backlog: waited 9\.2 s for speech-to-text .*hark replay$/) });
    expect(s.engine.calls).toEqual([]);
    expect(s.skipped).toEqual([{ segment: 3, reason: 'backlog-wait', waitedMs: 9200 }]);
    const ptt = await s.words.hear({ segment: segment(1.5, { ptt: true }), seg: null, waitedMs: 9200, late: true });
    expect(heardText(ptt)).toBe('turn on the oven');
  });

  it('hark stopping while the engine is still at work: the segment is stored untranscribed, to be replayed', async () => {
    const s = stage(['turn on the oven'], { costMs: 5000 });
    const heard = s.words.hear({ segment: segment(1.5), seg: null, waitedMs: 0, late: false });
    s.clock.advanceBy(1000);
    s.outOfTime.fire();
    const w = await heard;
    expect(w).toEqual({ transcript: null, decided: { kind: 'untranscribed', reason: 'not transcribed: hark was stopping (replay it with hark replay)' } });
  });

  it('every engine failing is a transcript that says so, not a fate decided here (the fate stage decides)', async () => {
    const s = stage([{ fail: 'error', message: 'model missing' }]);
    const w = await s.words.hear({ segment: segment(1.5), seg: null, waitedMs: 0, late: false });
    expect(w.decided).toBeNull();
    expect(w.transcript!.hearing).toMatchObject({ kind: 'dropped', engine: null });
    expect(w.transcript!.attempts).toMatchObject([{ engine: 'whisper', outcome: 'failed' }]);
  });
});
