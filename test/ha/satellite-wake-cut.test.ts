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

let pcm: Int16Array;
let at: { wakeEnd: number; commandStart: number; commandEnd: number; speechStart: number };
beforeAll(async () => {
  const wake = await espeakPhrase('computer');
  const command = await espeakPhrase('turn on the extractor fan');
  const noise = await soxNoise('pinknoise', 4000, 0.004);
  const pre = ms(500);
  const pause = ms(180);
  pcm = new Int16Array(pre + wake.length + pause + command.length + ms(600));
  pcm.set(wake, pre);
  pcm.set(command, pre + wake.length + pause);
  for (let i = 0; i < pcm.length; i++) pcm[i] = Math.max(-32768, Math.min(32767, pcm[i]! + (noise[i % noise.length] ?? 0)));
  at = { speechStart: pre, wakeEnd: pre + wake.length, commandStart: pre + wake.length + pause, commandEnd: pre + wake.length + pause + command.length };
});

const inPause = (cut: number) => {
  expect(cut).toBeGreaterThanOrEqual(at.wakeEnd - ms(10));
  expect(cut).toBeLessThanOrEqual(at.commandStart);
};

describe('wakeCut', () => {
  it.each([-80, -30, 0, 40, 90])('Deepgram word times off by %d ms: still cut in the pause', (offMs) => {
    const end = (at.wakeEnd + ms(offMs)) / 16000;
    const start = at.commandStart / 16000;
    const c = wakeCut(pcm, { text: 'Computer, turn on the extractor fan.', words: [{ word: 'computer', start: at.speechStart / 16000, end }, { word: 'turn', start, end: start + 0.2 }], speechStartSample: at.speechStart }, PHRASES);
    expect(c).toMatchObject({ phrase: 'computer', by: 'word times' });
    inPause(c.cutSample);
  });

  it("Whisper's tokens: joined into words (punctuation and word pieces), special tokens skipped", () => {
    const t = (text: string, a: number, b: number, id = 1) => ({ text, id, p: 0.9, t0: (a * 1000) / 16000, t1: (b * 1000) / 16000 });
    const tokens = [t('[_BEG_]', 0, 0, 50363), t(' Hey', at.speechStart, at.speechStart + ms(100)), t(' comp', at.speechStart + ms(100), at.speechStart + ms(300)), t('uter', at.speechStart + ms(300), at.wakeEnd - ms(40)), t(',', at.wakeEnd - ms(40), at.wakeEnd), t(' turn', at.commandStart, at.commandStart + ms(200)), t('[_TT_100]', at.commandEnd, at.commandEnd, 50463)];
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
