import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseConfigText } from '../../src/config/load.js';
import { SpeakerDistortion, thdPct } from '../support/room-acoustics.js';
import { outputDir } from '../support/paths.js';
import { distorting, roomsByName, SMALL_SPEAKER_THD } from '../support/room-spec.js';
import { matrixPrograms, measureRoom, misses, roomMics, stopWithoutEcho, type Programs, type RoomResult } from './room-matrix.js';

/**
 * A timer's ring is played louder than hark's voice (speech.alarmDb over it, and, unanswered, up to
 * speech.alarmMaxDb), and a small speaker played louder distorts more: its echo holds harmonics the
 * reference does not, which a linear filter cannot take out. In three kitchens whose speaker distorts
 * with its level (SMALL_SPEAKER_THD: 1 % at -12 dBFS, growing with the square of the level) the ring
 * at the default level and at the maximum step must open no segment with nobody speaking, and "stop"
 * said over it must open its segment within 300 ms (or one frame after the room alone allows). What
 * hark hands the card at +14 dB clips (withGain, as the device's output does); the reference is that
 * clipped ring, as the player's tap reports it.
 *
 * Asserted: the ring opens no segment at either level in any of the three. The "stop"s over it are
 * measured and tabled (stderr, test-output/echo-matrix/ring-level.md, docs/echo.md), not asserted:
 * over the louder, distorting ring they are not yet met (docs/echo.md, "A louder ring").
 * HARK_RING_THD=off runs the same rooms with a speaker that does not distort, HARK_RING_FIT=cap with
 * the ring raised no further than its peak allows instead of clipped, for comparison.
 */
const config = parseConfigText('', 'hark.yaml');
const settings = { echoFilterMs: config.speech.echoFilterMs, echoResidual: config.speech.echoResidual };
const kitchens = roomsByName('kitchen-rt250-lat30,kitchen-rt400-lat80,kitchen-rt600-lat30').map((k) => (process.env.HARK_RING_THD === 'off' ? k : distorting(k)));
/** HARK_RING_FIT=clip or cap: the ring clipped, or capped at its peak, instead of withGain's limiter (for comparison). */
const fit = process.env.HARK_RING_FIT === 'cap' || process.env.HARK_RING_FIT === 'clip' ? process.env.HARK_RING_FIT : 'device';
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
});

describe(`the ring at its louder levels (${levels.map((l) => `${l.name} ${l.gainDb} dB`).join(', ')}) in three kitchens with a small speaker`, () => {
  const programs = new Map<number, Programs>();
  const results: Array<RoomResult & { level: string; silentRing: Array<number | string>; missed: number }> = [];
  beforeAll(async () => {
    for (const l of levels) programs.set(l.gainDb, await matrixPrograms(config, 60_000, { ringGainDb: l.gainDb, earlierMs: 20_000, ringFit: fit }));
  }, 120_000);

  afterAll(() => {
    const head = '| room | ring over the voice | ring segs | list segs | "stop" over the ring, ms (3 / 3.5 / 6 s in) | the same with hark silent, ms | missed |';
    const rows = results.map((r) => `| ${r.room} | ${r.level} | ${r.opened.ring} | ${r.opened.list} | ${r.stops.filter((s) => s.over === 'ring').map((s) => s.openedAfterMs ?? (s.heldByEcho ? 'in echo seg' : 'none')).join(' / ')} | ${r.silentRing.join(' / ')} | ${r.missed} |`);
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
      results.push({ ...r, level: `${l.name} +${l.gainDb} dB${fit === 'device' ? '' : `, ${fit}`}`, silentRing: silent.filter((_, k) => r.stops[k]!.over === 'ring').map((ms) => ms ?? 'none'), missed: overRing.length });
      // The ring was heard in the room, well above the fan: there was echo to take out.
      expect(r.echoDbfs).toBeGreaterThan(-30);
      expect(r.opened.ring).toBe(0);
      expect(r.opened.list).toBe(0);
    },
    180_000,
  );
});
