import { describe, expect, it } from 'vitest';
import { validateConfig } from '../../src/config/load.js';
import { RING_CEILING, withGain, type GainCarry } from '../../src/speech/alarm-level.js';
import { synthEarcon } from '../../src/speech/earcons.js';
import { EspeakTts } from '../../src/speech/espeak.js';
import { thdPct } from '../support/room-acoustics.js';

/**
 * The ring raised over the voice is never clipped: a clipped earcon is a square wave whose harmonics
 * fill the band a "stop" is said in, and the canceller loses the word under what it leaves of them
 * (docs/echo.md, "A louder ring"). withGain holds it under RING_CEILING with a look-ahead limiter:
 * the top step keeps what loudness the sample format has room for.
 */
const rmsDb = (x: Int16Array, where: Int16Array) => {
  let s = 0;
  let n = 0;
  for (let i = 0; i < x.length; i++) {
    if (where[i] === 0) continue;
    s += x[i]! * x[i]!;
    n++;
  }
  return 10 * Math.log10(s / n / 32768 / 32768);
};
const peak = (x: Int16Array) => x.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
/** The longest run of samples at full scale (what a clip leaves). */
const fullScaleRun = (x: Int16Array) => {
  let run = 0;
  let best = 0;
  for (const v of x) {
    run = v >= 32767 || v <= -32767 ? run + 1 : 0;
    best = Math.max(best, run);
  }
  return best;
};
const sineEarcon = (volume: number) => Int16Array.from({ length: 16000 }, (_, i) => Math.round(volume * 32767 * Math.sin((2 * Math.PI * 1568 * i) / 16000)));

describe("the ring at the technician's maximum (+14 dB over the voice)", () => {
  const config = validateConfig({}, 'test');
  const earcon = synthEarcon('timer', config.speech.earconVolume);

  it("its beeps reach aplay under full scale, not one sample clipped, and at least 5.5 dB over the beeps at the voice's level", () => {
    const top = withGain(earcon, config.speech.alarmMaxDb);
    expect(fullScaleRun(top)).toBe(0);
    expect(peak(top)).toBeLessThanOrEqual(RING_CEILING);
    expect(rmsDb(top, earcon) - rmsDb(earcon, earcon)).toBeGreaterThan(5.5);
  });

  it('its spoken name keeps 7 dB of the 14 (a limiter on its peaks, not a clip)', async () => {
    const tts = new EspeakTts({ voice: config.speech.voice, speed: config.speech.speed, volume: config.speech.volume });
    const said = await tts.render('Pasta timer done.');
    const top = withGain(said, config.speech.alarmMaxDb);
    expect(fullScaleRun(top)).toBe(0);
    expect(peak(top)).toBeLessThanOrEqual(RING_CEILING);
    expect(rmsDb(top, said) - rmsDb(said, said)).toBeGreaterThan(7);
  }, 30_000);

  it('a name streamed in chunks (a Wyoming voice) is held across the seams: no jump back up at each chunk', async () => {
    const tts = new EspeakTts({ voice: config.speech.voice, speed: config.speech.speed, volume: config.speech.volume });
    const said = await tts.render('Pasta timer done.');
    const carry: GainCarry = {};
    const out = new Int16Array(said.length);
    for (let at = 0; at < said.length; at += 1024) out.set(withGain(said.subarray(at, at + 1024), config.speech.alarmMaxDb, carry), at);
    expect(peak(out)).toBeLessThanOrEqual(RING_CEILING);
    // The gain over the 2 ms after each seam against the 2 ms before it, where the voice is loud.
    const energy = (x: Int16Array, a: number, b: number) => x.subarray(a, b).reduce((e, v) => e + v * v, 1);
    const jumps: number[] = [];
    for (let at = 1024; at + 32 < said.length; at += 1024) {
      if (energy(said, at - 32, at) < 32 * 1e6) continue;
      jumps.push(10 * Math.log10(energy(out, at, at + 32) / energy(said, at, at + 32)) - 10 * Math.log10(energy(out, at - 32, at) / energy(said, at - 32, at)));
    }
    expect(jumps.length).toBeGreaterThan(3);
    expect(Math.max(...jumps)).toBeLessThan(2);
  }, 30_000);

  it('a steady tone raised past the ceiling stays a tone: no harmonics of a clip', () => {
    const tone = sineEarcon(0.5);
    const raised = withGain(tone, 14);
    // After the first few milliseconds (the limiter's look-ahead), the tone is the tone at the ceiling.
    expect(thdPct(Float32Array.from(raised.subarray(1000)), 1568)).toBeLessThan(0.05);
    expect(peak(raised.subarray(1000))).toBeGreaterThan(RING_CEILING - 200);
  });

  it('under the ceiling the gain is exact; at 0 dB the voice is handed back as it is', () => {
    const quiet = withGain(earcon, 4);
    const g = Math.pow(10, 4 / 20);
    expect(Array.from(quiet)).toEqual(Array.from(earcon, (v) => Math.round(v * g)));
    expect(withGain(earcon, 0)).toBe(earcon);
  });
});
