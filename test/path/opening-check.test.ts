import { describe, expect, it } from 'vitest';
import { Bus } from '../../src/core/bus.js';
import { VirtualClock } from '../../src/core/clock.js';
import { memoryLogger } from '../../src/core/log.js';
import { validateConfig } from '../../src/config/load.js';
import { kitchenLanguage } from '../../src/language/config.js';
import { openingPhrases } from '../../src/path/opening.js';
import { OpeningJudge } from '../../src/path/opening-check.js';
import type { SttEngine } from '../../src/stt/engine.js';
import { ScriptedEngine, type Script } from '../kit/stt.js';
import { sttStack } from '../kit/stt-stack.js';

/**
 * The wake-phrase check of a long segment's opening, on its own: the opening's audio in, a verdict out
 * (transcribe the whole, hand it past the local engine, or keep only the opening's words). The real
 * transcriber over the kit's engines. What a user notices: a long command that starts with the wake
 * phrase is heard whole; a radio presenter talking is not transcribed at length; while a timer rings,
 * "turn it off and ..." is heard too.
 * Why the check exists: docs/decisions.md#the-opening-check-of-a-long-segment.
 */

const RATE = 16_000;
const PREROLL = 8000;
const config = validateConfig({ router: { mode: 'wake-word' }, speech: { device: 'null' } }, 'test');
const phrases = openingPhrases(config.router.frames)!;
const WAKE = phrases[0]!.join(' ');
const OPENING = PREROLL + config.stt.opening.seconds * RATE;

function judge(engines: SttEngine[], o: { ringing?: boolean } = {}) {
  const clock = new VirtualClock(0);
  const bus = new Bus();
  const log = memoryLogger();
  const stt = sttStack({ engines, clock, bus, log });
  return { stt, log, judge: new OpeningJudge({ stt, config: config.stt, log, phrases, ringing: () => o.ringing ?? false, language: () => kitchenLanguage() }) };
}

const local = (script: Script) => new ScriptedEngine({ script });
const opening = () => ({ index: 7, pcm: new Int16Array(OPENING), maxProb: 0.95, waitedMs: 0 });

describe('the opening check', () => {
  it('the opening is the pre-roll and stt.opening.seconds of speech, a view of the segment (no copy)', () => {
    const { judge: j } = judge([local(['x'])]);
    const pcm = new Int16Array(PREROLL + 6 * RATE);
    const head = j.openingOf(pcm, PREROLL);
    expect(head.length).toBe(OPENING);
    expect(head.buffer).toBe(pcm.buffer);
  });

  it('opens with the wake phrase: the whole is to be transcribed; only the first words were decoded', async () => {
    const engine = local([`${WAKE} set a timer`]);
    const { judge: j } = judge([engine]);
    expect(await j.judge(opening())).toEqual({ kind: 'wake', sttMs: expect.any(Number) });
    expect(engine.calls).toMatchObject([{ samples: OPENING, maxTokens: expect.any(Number) }]);
    expect(engine.calls[0]!.maxTokens).toBeLessThanOrEqual(16);
  });

  it('no wake phrase: the opening’s words are all the segment gets', async () => {
    const { judge: j } = judge([local(['and the weather for the weekend'])]);
    const v = await j.judge(opening());
    expect(v).toMatchObject({ kind: 'none', transcript: { hearing: { kind: 'heard', utterance: { text: 'and the weather for the weekend' } } } });
  });

  it('while a timer rings, the words that stop it open a long segment too', async () => {
    const said = 'turn it off and then the fryer';
    expect(await judge([local([said])], { ringing: true }).judge.judge(opening())).toMatchObject({ kind: 'wake' });
    expect(await judge([local([said])], { ringing: false }).judge.judge(opening())).toMatchObject({ kind: 'none' });
  });

  it('the local engine hears nothing on clear speech: no judgement, the whole goes past it to the cloud', async () => {
    const cloud = new ScriptedEngine({ id: 'deepgram', script: ['computer set a timer'] });
    const { judge: j } = judge([local(['[BLANK_AUDIO]']), cloud]);
    expect(await j.judge(opening())).toMatchObject({ kind: 'pass' });
    // The cloud is not asked about the opening: it hears the segment once, whole, later.
    expect(cloud.calls).toEqual([]);
  });

  it('a failure of the check itself is logged and gives no verdict (the segment is judged at its close)', async () => {
    const { judge: j, stt, log } = judge([local(['x'])]);
    stt.transcriber.opening = async () => {
      throw new Error('a bug in the check');
    };
    expect(await j.judge(opening())).toBeNull();
    expect(log.lines.some((l) => l.includes('the opening check failed') && l.includes('a bug in the check'))).toBe(true);
  });
});
