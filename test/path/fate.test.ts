import { afterEach, describe, expect, it } from 'vitest';
import { Bus } from '../../src/core/bus.js';
import { VirtualClock } from '../../src/core/clock.js';
import { memoryLogger } from '../../src/core/log.js';
import { validateConfig } from '../../src/config/load.js';
import { Conversation } from '../../src/path/conversation.js';
import { arbitrate, decideFate } from '../../src/path/fate.js';
import type { OpenSegment } from '../../src/path/open-segment.js';
import type { Arbiter } from '../../src/path/plugins.js';
import type { SegmentTranscript } from '../../src/stt/events.js';
import type { Segment } from '../../src/vad/segment.js';
import { testSpeech } from '../kit/speech.js';
import { ScriptedEngine, type Answer } from '../kit/stt.js';
import { sttStack } from '../kit/stt-stack.js';

/**
 * The fate stage on its own: a segment's words (the real transcriber's, over the kit's scripted
 * engine) and how it closed in, one Fate out, decided by the real interruption filter. What a user
 * notices: a cough or a blank does nothing; "yeah" said over hark lets it talk on; a failed
 * transcription of speech over hark gives the person the floor; a device that heard better acts instead.
 */

const config = validateConfig({ router: { mode: 'wake-word' }, speech: { device: 'null' } }, 'test');

let closers: (() => void)[] = [];
afterEach(() => {
  for (const c of closers.splice(0)) c();
});

function rig() {
  const clock = new VirtualClock(100_000);
  const bus = new Bus();
  const log = memoryLogger();
  const voice = testSpeech({ clock, bus });
  const conv = new Conversation({ config, bus, clock, log, store: null, speech: voice.speech });
  closers.push(() => (conv.dispose(), voice.speech.close()));
  /** What the real transcriber makes of an engine's answer. */
  const words = (answer: Answer, maxProb = 0.95): Promise<SegmentTranscript> =>
    sttStack({ engines: [new ScriptedEngine({ script: [answer] })], clock, bus, log }).transcriber.transcribe({
      index: 4,
      pcm: new Int16Array(16_000),
      maxProb,
    });
  const allowed: unknown[] = [];
  bus.on('interruption.allowed', (e) => void allowed.push(e));
  return { conv, voice, words, allowed };
}

const segment: Segment = {
  index: 4,
  pcm: new Int16Array(16_000),
  prerollSamples: 8000,
  startSample: 0,
  vadStartSample: 8000,
  endSample: 16_000,
  closeReason: 'hangover',
  maxProb: 0.95,
  openedBy: 'vad',
};
const open = (speaking: boolean): OpenSegment => ({
  startSample: 0,
  key: '@0',
  live: null,
  speaking,
  held: false,
  spans: 0,
  candidate: null,
  pauses: 0,
  bargeIds: new Set(),
  prerollSamples: 8000,
  opening: null,
  lastPause: null,
});

describe('the fate of a segment', () => {
  it('a command heard while hark is quiet is dispatched', async () => {
    const r = rig();
    const fate = decideFate(r.conv, { segment, transcript: await r.words('computer set a timer for five minutes'), seg: open(false), cancelled: false });
    expect(fate).toMatchObject({ kind: 'dispatched', utterance: { text: 'computer set a timer for five minutes', segmentId: 4 } });
  });

  it('no words: a blank, a known hallucination, or no speech-to-text at all is dropped with why', async () => {
    const r = rig();
    expect(decideFate(r.conv, { segment, transcript: await r.words('[BLANK_AUDIO]', 0.5), seg: null, cancelled: false })).toEqual({
      kind: 'dropped',
      reason: expect.stringMatching(/^non-speech/),
    });
    expect(decideFate(r.conv, { segment, transcript: await r.words('Thank you for watching.', 0.5), seg: null, cancelled: false })).toEqual({
      kind: 'dropped',
      reason: 'hallucination: "thank you for watching"',
    });
    expect(decideFate(r.conv, { segment, transcript: null, seg: null, cancelled: false })).toEqual({ kind: 'dropped', reason: 'no speech-to-text' });
  });

  it('a push-to-talk tap cancels the segment whatever was heard', async () => {
    const r = rig();
    expect(decideFate(r.conv, { segment, transcript: await r.words('computer set a timer for five minutes'), seg: null, cancelled: true })).toEqual({
      kind: 'cancelled',
      reason: 'push-to-talk cancelled (tap or mute hold)',
    });
  });

  it('"yeah" said over hark is filtered as a backchannel: hark talks on', async () => {
    const r = rig();
    r.voice.speakOver();
    const fate = decideFate(r.conv, { segment, transcript: await r.words('yeah'), seg: open(true), cancelled: false });
    expect(fate).toMatchObject({ kind: 'filtered', utterance: { text: 'yeah' } });
    expect(r.voice.speech.queue.isSpeaking).toBe(true);
    expect(r.voice.log).toEqual([]);
  });

  it('speech over hark that no engine could transcribe gives the person the floor: hark stops', async () => {
    const r = rig();
    r.voice.speakOver();
    const fate = decideFate(r.conv, {
      segment,
      transcript: await r.words({ fail: 'error', message: 'whisper.cpp exited' }),
      seg: open(true),
      cancelled: false,
    });
    expect(fate).toMatchObject({ kind: 'dropped' });
    expect(r.voice.log.filter((l) => l.startsWith('stop (barge-in)'))).toHaveLength(1);
    expect(r.allowed).toMatchObject([{ reason: expect.stringContaining('speech-to-text failed'), confidence: 0 }]);
  });

  it('the same failure while hark is quiet stops nothing', async () => {
    const r = rig();
    decideFate(r.conv, { segment, transcript: await r.words({ fail: 'error', message: 'whisper.cpp exited' }), seg: open(false), cancelled: false });
    expect(r.voice.log).toEqual([]);
    expect(r.allowed).toEqual([]);
  });

  it('a dispatched command another device heard better yields to it; anything else is not asked about', async () => {
    const r = rig();
    const asked: string[] = [];
    const arbiter: Arbiter = { decide: async (_s, u) => (asked.push(u.text), { act: false, to: 'kitchen-2' }) };
    const heard = decideFate(r.conv, { segment, transcript: await r.words('computer set a timer for five minutes'), seg: null, cancelled: false });
    expect(await arbitrate(arbiter, segment, heard)).toMatchObject({
      kind: 'yielded',
      reason: 'yielded to kitchen-2',
      utterance: { text: 'computer set a timer for five minutes' },
    });
    expect(await arbitrate(arbiter, segment, { kind: 'dropped', reason: 'blank' })).toEqual({ kind: 'dropped', reason: 'blank' });
    expect(asked).toEqual(['computer set a timer for five minutes']);
    // The arbiter lets this device act: the fate stands.
    expect(await arbitrate({ decide: async () => ({ act: true }) }, segment, heard)).toBe(heard);
  });
});
