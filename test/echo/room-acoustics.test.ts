import { describe, expect, it } from 'vitest';
import { Convolver, dbfs, sampleAt } from '../support/room-acoustics.js';
import { micSignal, rms, RoomPaths } from '../support/room-sim.js';
import { drifted, kitchen, roomDrr, roomsByName, type RoomSpec } from '../support/room-spec.js';

/**
 * The simulated kitchen is what the echo matrix's verdicts rest on: it must have the acoustics its
 * RoomSpec claims, at every setting the matrix uses, or a filter length "chosen" there means nothing.
 */
function tailDecayMs(ir: Float32Array, from: number): number {
  // Schroeder's backward integral over the tail, its slope fitted from -5 to -35 dB (T30).
  const edc = new Float64Array(ir.length - from);
  let e = 0;
  for (let i = ir.length - 1; i >= from; i--) edc[i - from] = e += ir[i]! * ir[i]!;
  const db = (i: number) => 10 * Math.log10(edc[i]! / edc[0]!);
  const at = (level: number) => edc.findIndex((_, i) => db(i) <= level);
  return ((at(-35) - at(-5)) / 16) * 2;
}

describe('the simulated kitchen', () => {
  it.each([200, 350, 500, 700])('RT60 %i ms: the tail falls 60 dB in that time, as loud against the direct sound as Sabine says', (rt) => {
    const spec = kitchen(rt, 50);
    const paths = new RoomPaths(spec);
    const onset = Math.round(spec.tailOnsetMs * 16) + 48;
    expect(tailDecayMs(paths.echoIr, onset)).toBeGreaterThan(rt * 0.9);
    expect(tailDecayMs(paths.echoIr, onset)).toBeLessThan(rt * 1.1);
    // The kitchen's early reflections come before its tail's onset: from there on it is all tail.
    let tail = 0;
    for (let i = Math.round(spec.tailOnsetMs * 16); i < paths.echoIr.length; i++) tail += paths.echoIr[i]! ** 2;
    expect(10 * Math.log10(1 / tail)).toBeCloseTo(roomDrr(spec).speakerDb, 0);
    // The cook, 2 m away, is heard more through the room than directly; hark's speaker, the other way round.
    expect(roomDrr(spec).personDb).toBeLessThan(0);
    expect(roomDrr(spec).speakerDb).toBeGreaterThan(roomDrr(spec).personDb + 10);
  });

  it.each([20, 60, 100])("hark's sound reaches the mic %i ms late, and 30 ms later still after the card ran dry", (latencyMs) => {
    const spec: RoomSpec = {
      ...kitchen(300, latencyMs),
      noise: { fanDbfs: null, humDbfs: null, humHz: 50 },
      speaker: { distanceM: 0.37, directivity: 2, highPassHz: 0 },
      cardRestart: { atMs: 1000, shiftMs: 30 },
    };
    const played = new Int16Array(32000);
    played[1600] = 20000;
    played[24000] = 20000;
    const { mic } = micSignal(spec, played);
    const peak = (a: number, b: number) => a + mic.subarray(a, b).reduce((best, v, i, x) => (Math.abs(v) > Math.abs(x[best]!) ? i : best), 0);
    expect(peak(0, 16000) / 16).toBeCloseTo(100 + latencyMs, 0);
    expect(peak(16000, 32000) / 16).toBeCloseTo(1500 + latencyMs + 30, 0);
  });

  it.each([200, 20, -20, -200])(
    'a speaker %i ppm off the microphone: its echo comes that much sooner (later) each second, and keeps its shape',
    (ppm) => {
      const spec: RoomSpec = {
        ...drifted(kitchen(300, 50), ppm),
        noise: { fanDbfs: null, humDbfs: null, humHz: 50 },
        speaker: { distanceM: 0.37, directivity: 2, highPassHz: 0 },
      };
      const played = new Int16Array(60 * 16000);
      // A 1 kHz burst 1 s and 55 s in: its echo's direct sound, located to a fraction of a sample.
      const burst = (at: number) => {
        for (let i = 0; i < 320; i++) played[at + i] = Math.round(15000 * Math.sin((2 * Math.PI * 1000 * i) / 16000) * Math.sin((Math.PI * i) / 320));
      };
      burst(16000);
      burst(55 * 16000);
      const { mic } = micSignal(spec, played);
      const clean = micSignal({ ...spec, speakerPpm: 0 }, played).mic;
      // Where the drifted echo lines up with the one-clock echo best, by sub-sample shifts of the latter.
      const lag = (at: number, around: number) => {
        let best = { d: 0, e: Infinity };
        const tryAt = (d: number) => {
          let e = 0;
          for (let i = at; i < at + 480; i++) e += (mic[i]! - sampleAt(clean, i - d)) ** 2;
          if (e < best.e) best = { d, e };
        };
        for (let d = around - 8; d <= around + 8; d += 0.25) tryAt(d);
        for (let d = best.d - 0.25; d <= best.d + 0.25; d += 1 / 64) tryAt(d);
        return best;
      };
      // Searched 8 samples either side of where the clocks put it (a one-clock room would be 176 off at 200 ppm).
      const first = lag(16000 + 800, -16000 * ppm * 1e-6);
      const late = lag(55 * 16000 + 800, -55 * 16000 * ppm * 1e-6);
      // The speaker counts (1 + ppm·1e-6) samples in each of the microphone's: t s in, ppm × t µs sooner.
      expect(first.d).toBeCloseTo(-16000 * ppm * 1e-6, 0);
      expect(late.d).toBeCloseTo(-55 * 16000 * ppm * 1e-6, 0);
      // The same echo, moved: what is left after lining it up is 40 dB under it.
      const energy = rms(mic, 55 * 16000 + 800, 55 * 16000 + 1280) ** 2 * 480;
      expect(10 * Math.log10(energy / late.e)).toBeGreaterThan(40);
    },
    20_000,
  );

  it("rooms by name take the speaker's clock: -drift+20, -drift-150, after a restart", () => {
    expect(roomsByName('kitchen-rt400-lat80-drift+20')[0]).toMatchObject({ name: 'kitchen-rt400-lat80-drift+20', speakerPpm: 20, latencyMs: 80 });
    expect(roomsByName('kitchen-rt250-lat30-restart20at50-drift-150')[0]).toMatchObject({ speakerPpm: -150, cardRestart: { atMs: 50_000, shiftMs: 20 } });
    expect(() => roomsByName('kitchen-rt250-lat30-drift+5000')).toThrow(/no crystal/);
  });

  it('a small speaker (roll-off at 300 Hz) gives out in the bass: 100 Hz comes out 15 dB or more under 1 kHz', () => {
    const tone = (hz: number) => Int16Array.from({ length: 16000 }, (_, i) => Math.round(10000 * Math.sin((2 * Math.PI * hz * i) / 16000)));
    const spec: RoomSpec = { ...kitchen(250, 20), noise: { fanDbfs: null, humDbfs: null, humHz: 50 } };
    const level = (hz: number) => rms(micSignal(spec, tone(hz)).echo, 4000, 16000);
    expect(20 * Math.log10(level(1000) / level(100))).toBeGreaterThan(15);
  });

  it.each([
    [-50, null],
    [null, -55],
    [-45, -60],
  ])('fan at %s dBFS and hum at %s dBFS: the mic hears that much noise', (fan, hum) => {
    const spec: RoomSpec = { ...kitchen(400, 50), noise: { fanDbfs: fan, humDbfs: hum, humHz: 50 } };
    const expected = 10 * Math.log10([fan, hum].reduce<number>((s, d) => s + (d === null ? 0 : Math.pow(10, d / 10)), 0));
    // Over the whole 10 s loop: pink noise over a shorter stretch strays by half a dB with its bass.
    expect(dbfs(rms(micSignal(spec, new Int16Array(160_000)).noise))).toBeCloseTo(expected, 0);
  });

  it('the streaming convolution in 125 ms periods is the convolution', () => {
    const ir = Float32Array.from({ length: 700 }, (_, i) => Math.exp(-i / 100) * Math.sin(i));
    const x = Float32Array.from({ length: 9000 }, (_, i) => Math.sin(i * 0.37) * 1000);
    const conv = new Convolver(ir, 2000);
    const y = new Float32Array(x.length);
    for (let a = 0; a < x.length; a += 2000) y.set(conv.process(x.subarray(a, a + 2000)), a);
    for (const n of [0, 1999, 2000, 4321, 8999]) {
      let want = 0;
      for (let k = 0; k < ir.length && k <= n; k++) want += ir[k]! * x[n - k]!;
      expect(y[n]).toBeCloseTo(want, 1);
    }
  });
});
