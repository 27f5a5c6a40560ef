import { beforeAll, describe, expect, it } from 'vitest';
import { MIN_REST_MS, wakeCut } from '../../src/ha/satellite/wake-cut.js';
import { espeakPhrase, soxNoise } from '../support/speech.js';

/**
 * Where Home Assistant's audio starts: after the wake phrase, in the pause that follows it, on real
 * speech (espeak-ng) over a little room noise, with the times speech-to-text gives (a little off, as
 * real ones are), with Whisper's token times, and with none at all.
 */
const PHRASES = ['computer', 'hey computer', 'ok computer'];
const ms = (n: number) => Math.round((n * 16000) / 1000);

type At = { wakeEnd: number; commandStart: number; commandEnd: number; speechStart: number };
let pcm: Int16Array;
let at: At;
/** A short pause (100 ms): less than the margin, so all of it is kept. */
let short: { pcm: Int16Array; at: At };

async function said(pauseMs: number): Promise<{ pcm: Int16Array; at: At }> {
  const wake = await espeakPhrase('computer');
  const command = await espeakPhrase('turn on the extractor fan');
  const noise = await soxNoise('pinknoise', 4000, 0.004);
  const pre = ms(500);
  const pause = ms(pauseMs);
  const out = new Int16Array(pre + wake.length + pause + command.length + ms(600));
  out.set(wake, pre);
  out.set(command, pre + wake.length + pause);
  for (let i = 0; i < out.length; i++) out[i] = Math.max(-32768, Math.min(32767, out[i]! + (noise[i % noise.length] ?? 0)));
  return {
    pcm: out,
    at: { speechStart: pre, wakeEnd: pre + wake.length, commandStart: pre + wake.length + pause, commandEnd: pre + wake.length + pause + command.length },
  };
}

beforeAll(async () => {
  ({ pcm, at } = await said(180));
  short = await said(100);
});

const inPause = (cut: number) => {
  expect(cut).toBeGreaterThanOrEqual(at.wakeEnd - ms(10));
  expect(cut).toBeLessThanOrEqual(at.commandStart);
};

/** Deepgram-style words for a recording, the wake word's end off by `offMs`. */
const timed = (a: At, offMs: number) => ({
  text: 'Computer, turn on the extractor fan.',
  words: [
    { word: 'computer', start: a.speechStart / 16000, end: (a.wakeEnd + ms(offMs)) / 16000 },
    { word: 'turn', start: a.commandStart / 16000, end: a.commandStart / 16000 + 0.2 },
  ],
  speechStartSample: a.speechStart,
});

describe('wakeCut', () => {
  // Whisper's token times are rough (±120 ms): Home Assistant's speech-to-text gets the first word whole.
  it.each([-80, 0, 90])('keeps at least 150 ms of a longer pause before the first command word (times off by %d ms)', (offMs) => {
    const c = wakeCut(pcm, timed(at, offMs), PHRASES);
    inPause(c.cutSample);
    expect(at.commandStart - c.cutSample).toBeGreaterThanOrEqual(ms(150));
  });

  it('…and so does the estimate, with no times at all', () => {
    const c = wakeCut(pcm, { text: 'Computer turn on the extractor fan', speechStartSample: at.speechStart }, PHRASES);
    expect(c.by).toBe('estimate');
    inPause(c.cutSample);
    expect(at.commandStart - c.cutSample).toBeGreaterThanOrEqual(ms(150));
  });

  it('keeps all of a pause shorter than the margin (and nothing of the wake word)', () => {
    const c = wakeCut(short.pcm, timed(short.at, 0), PHRASES);
    expect(c.by).toBe('word times');
    expect(c.cutSample).toBeGreaterThanOrEqual(short.at.wakeEnd - ms(10));
    // The quiet stretch starts within a frame or two of the wake word's last sound.
    expect(c.cutSample).toBeLessThanOrEqual(short.at.wakeEnd + ms(30));
  });

  it.each([-80, -30, 0, 40, 90])('Deepgram word times off by %d ms: still cut in the pause', (offMs) => {
    const end = (at.wakeEnd + ms(offMs)) / 16000;
    const start = at.commandStart / 16000;
    const c = wakeCut(
      pcm,
      {
        text: 'Computer, turn on the extractor fan.',
        words: [
          { word: 'computer', start: at.speechStart / 16000, end },
          { word: 'turn', start, end: start + 0.2 },
        ],
        speechStartSample: at.speechStart,
      },
      PHRASES,
    );
    expect(c).toMatchObject({ phrase: 'computer', by: 'word times' });
    inPause(c.cutSample);
  });

  it("Whisper's tokens: joined into words (punctuation and word pieces), special tokens skipped", () => {
    const t = (text: string, a: number, b: number, id = 1) => ({ text, id, p: 0.9, t0: (a * 1000) / 16000, t1: (b * 1000) / 16000 });
    const tokens = [
      t('[_BEG_]', 0, 0, 50363),
      t(' Hey', at.speechStart, at.speechStart + ms(100)),
      t(' comp', at.speechStart + ms(100), at.speechStart + ms(300)),
      t('uter', at.speechStart + ms(300), at.wakeEnd - ms(40)),
      t(',', at.wakeEnd - ms(40), at.wakeEnd),
      t(' turn', at.commandStart, at.commandStart + ms(200)),
      t('[_TT_100]', at.commandEnd, at.commandEnd, 50463),
    ];
    const c = wakeCut(pcm, { text: 'Hey computer, turn', tokens, speechStartSample: at.speechStart }, PHRASES);
    expect(c).toMatchObject({ phrase: 'hey computer', by: 'word times' });
    inPause(c.cutSample);
  });

  it('tokens without times (Whisper told not to time them): estimated instead', () => {
    const c = wakeCut(pcm, { text: 'computer turn on the extractor fan', tokens: [{ text: ' computer', id: 1 }], speechStartSample: at.speechStart }, PHRASES);
    expect(c.by).toBe('estimate');
    inPause(c.cutSample);
  });

  it('no times at all (a Wyoming engine): estimated from the words, snapped to the pause', () => {
    const c = wakeCut(pcm, { text: 'Computer turn on the extractor fan', speechStartSample: at.speechStart }, PHRASES);
    expect(c).toMatchObject({ phrase: 'computer', by: 'estimate' });
    inPause(c.cutSample);
  });

  it('the longest wake phrase that matches is the one named', () => {
    expect(wakeCut(pcm, { text: 'OK, computer: turn on the extractor fan' }, PHRASES).phrase).toBe('ok computer');
  });

  it('no wake phrase at the start (the button, an answer): nothing cut, none named', () => {
    expect(wakeCut(pcm, { text: 'turn on the extractor fan computer' }, PHRASES)).toEqual({ phrase: null, cutSample: 0, by: 'none' });
    expect(wakeCut(pcm, undefined, PHRASES)).toEqual({ phrase: null, cutSample: 0, by: 'none' });
  });

  it(`nothing after the wake phrase (under ${MIN_REST_MS} ms left): the phrase is named, nothing cut`, () => {
    const only = pcm.slice(0, at.wakeEnd + ms(60));
    const c = wakeCut(only, { text: 'computer', words: [{ word: 'computer', start: at.speechStart / 16000, end: at.wakeEnd / 16000 }] }, PHRASES);
    expect(c).toEqual({ phrase: 'computer', cutSample: 0, by: 'none' });
  });
});
