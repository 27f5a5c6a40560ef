import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseConfigText } from '../../src/config/load.js';
import { SpeakerModel } from '../../src/echo/speaker-model.js';
import { SpeakerDistortion, thdPct } from '../support/room-acoustics.js';
import { outputDir } from '../support/paths.js';
import { distorting, roomsByName, SMALL_SPEAKER_THD } from '../support/room-spec.js';
import { matrixPrograms, measureRoom, misses, roomMics, stopWithoutEcho, type Programs, type RoomResult } from './room-matrix.js';

/**
 * A timer's ring is played louder than hark's voice (speech.alarmDb over it, and, unanswered, up to
 * speech.alarmMaxDb), and a small speaker played louder distorts more: its echo holds harmonics the
 * reference as played does not, which a linear filter cannot take out. In three kitchens whose
 * speaker distorts with its level (SMALL_SPEAKER_THD: 1 % at -12 dBFS, growing with the square of
 * the level) the ring at the default level and at the maximum step must open no segment with nobody
 * speaking, and "stop" said over it must open its segment within 300 ms (or one frame after the room
 * alone allows). What hark hands the card is the ring held under full scale (withGain's limiter, as
 * the device's output plays it), never clipped; the canceller is told the speaker's THD, as a
 * technician sets it from the spec sheet (echo.speakerThdPct), and models it on the reference.
 *
 * Asserted: no segment, and every "stop" in time, at both levels in all three. Tabled on stderr and in
 * test-output/echo-matrix/ring-level.md (docs/echo.md, "A louder ring"). For comparison, not asserted
 * on the stops: HARK_RING_THD=off a speaker that does not distort, HARK_SPEAKER_MODEL=off (or a
 * figure, 0.5) the canceller told nothing (or another THD), HARK_RING_FIT=clip or cap the ring
 * clipped, or capped at its peak, instead of limited.
 */
const config = parseConfigText('', 'hark.yaml');
/** HARK_RING_FIT=clip or cap: the ring clipped, or capped at its peak, instead of withGain's limiter (for comparison). */
const fit = process.env.HARK_RING_FIT === 'cap' || process.env.HARK_RING_FIT === 'clip' ? process.env.HARK_RING_FIT : 'device';
const clean = process.env.HARK_RING_THD === 'off';
/** The THD the canceller is told: the small speaker's own figure unless HARK_SPEAKER_MODEL says otherwise. */
const toldThd = process.env.HARK_SPEAKER_MODEL === 'off' ? 0 : process.env.HARK_SPEAKER_MODEL ? Number(process.env.HARK_SPEAKER_MODEL) : SMALL_SPEAKER_THD.pct;
const settings = { filterMs: config.echo.filterMs, residual: config.echo.residual, speakerThdPct: toldThd, speakerThdAtDbfs: SMALL_SPEAKER_THD.atDbfs };
const kitchens = roomsByName('kitchen-rt250-lat30,kitchen-rt400-lat80,kitchen-rt600-lat30').map((k) => (clean ? k : distorting(k)));
/** The stops are asserted as the appliance is set up: the limiter, the small speaker, the canceller told its THD. */
const asShipped = fit === 'device' && !clean && toldThd === SMALL_SPEAKER_THD.pct;
const levels = [
  { name: 'alarmDb', gainDb: config.speech.alarmDb },
  { name: 'alarmMaxDb', gainDb: config.speech.alarmMaxDb },
];

describe('the small speaker distorts more the louder it plays', () => {
  it('THD grows with the square of the level, from the one figure given, up to the cone at its limit', () => {
    const d = new SpeakerDistortion(SMALL_SPEAKER_THD.pct, SMALL_SPEAKER_THD.atDbfs);
    const sine = (dbfs: number) => Float32Array.from({ length: 16000 }, (_, i) => 32768 * Math.pow(10, dbfs / 20) * Math.sin((2 * Math.PI * 1000 * i) / 16000));
    const at = (dbfs: number) => thdPct(d.process(sine(dbfs)), 1000);
    expect(at(-12)).toBeCloseTo(1, 1);
    expect(at(-18)).toBeCloseTo(0.25, 1);
    expect(at(-6)).toBeGreaterThan(3.5);
    expect(at(-6)).toBeLessThan(4.5);
    expect(at(0)).toBeGreaterThan(at(-6) * 2);
  });

  it("the canceller's model of it, told the same figure, is the same driver (to the sample's rounding)", () => {
    const d = new SpeakerDistortion(SMALL_SPEAKER_THD.pct, SMALL_SPEAKER_THD.atDbfs);
    const m = new SpeakerModel(SMALL_SPEAKER_THD.pct, SMALL_SPEAKER_THD.atDbfs);
    const ramp = Int16Array.from({ length: 65535 }, (_, i) => i - 32767);
    const got = new Int16Array(ramp.length);
    m.apply(ramp, got);
    const want = d.process(Float32Array.from(ramp));
    expect(Math.max(...Array.from(got, (v, i) => Math.abs(v - want[i]!)))).toBeLessThanOrEqual(0.5);
  });
});

describe(`the ring at its louder levels (${levels.map((l) => `${l.name} ${l.gainDb} dB`).join(', ')}) in three kitchens with a small speaker`, () => {
  const programs = new Map<number, Programs>();
  const results: Array<RoomResult & { level: string; silentRing: Array<number | string>; missed: number }> = [];
  beforeAll(async () => {
    for (const l of levels) programs.set(l.gainDb, await matrixPrograms(config, 60_000, { ringGainDb: l.gainDb, earlierMs: 20_000, ringFit: fit }));
  }, 120_000);

  afterAll(() => {
    const head =
      '| room | ring over the voice | ring segs | list segs | "stop" over the ring, ms (3 / 3.5 / 6 s in) | the same with hark silent, ms | missed |';
    const rows = results.map(
      (r) =>
        `| ${r.room} | ${r.level} | ${r.opened.ring} | ${r.opened.list} | ${r.stops
          .filter((s) => s.over === 'ring')
          .map((s) => s.openedAfterMs ?? (s.heldByEcho ? 'in echo seg' : 'none'))
          .join(' / ')} | ${r.silentRing.join(' / ')} | ${r.missed} |`,
    );
    const text = [head, head.replace(/[^|]+/g, ' --- '), ...rows].join('\n');
    writeFileSync(join(outputDir('echo-matrix'), 'ring-level.md'), text + '\n');
    process.stderr.write(`\n${text}\n`);
  });

  it.each(kitchens.flatMap((spec) => levels.map((l) => ({ name: `${spec.name} at ${l.name} (+${l.gainDb} dB)`, spec, l }))))(
    '$name: the ring opens no segment and "stop" over it opens its own in time',
    async ({ spec, l }) => {
      const p = programs.get(l.gainDb)!;
      const mics = roomMics(spec, p);
      const r = await measureRoom(mics, p, config, settings, { erle: false });
      const silent = (await stopWithoutEcho(mics, p, config)).map((s) => s.openedAfterMs);
      const overRing = misses(r, silent).filter((m) => m.includes('into the ring'));
      results.push({
        ...r,
        level: `${l.name} +${l.gainDb} dB${fit === 'device' ? '' : `, ${fit}`}${toldThd === SMALL_SPEAKER_THD.pct ? '' : `, told ${toldThd} %`}`,
        silentRing: silent.filter((_, k) => r.stops[k]!.over === 'ring').map((ms) => ms ?? 'none'),
        missed: overRing.length,
      });
      // The ring was heard in the room, well above the fan: there was echo to take out.
      expect(r.echoDbfs).toBeGreaterThan(-30);
      expect(r.opened.ring).toBe(0);
      expect(r.opened.list).toBe(0);
      if (asShipped) expect(overRing).toEqual([]);
    },
    180_000,
  );
});
