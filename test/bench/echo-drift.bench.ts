import { bench, describe } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseConfigText } from '../../src/config/load.js';
import { outputDir } from '../support/paths.js';
import { toS16 } from '../support/room-sim.js';
import { drifted, roomsByName } from '../support/room-spec.js';
import { matrixPrograms, measureRoom, misses, roomMics, stopWithoutEcho } from '../echo/room-matrix.js';
import { clean } from '../echo/room-matrix-run.js';

/**
 * The echo canceller across two clocks (docs/echo.md, "Two clocks"): the offline room matrix with the
 * speaker's clock off the microphone's, with the skew followed and without (echo.followSkew):
 *   HARK_ECHO_KITCHENS  rooms by name (default the RT60 250 / 30 ms, 400 / 80 ms and 600 / 30 ms kitchens)
 *   HARK_ECHO_PPM       the speaker's clock, ppm (default 0,5,-5,20,-20,50,-50,100,-100,200,-200)
 *   HARK_ECHO_FOLLOW    on,off (default on)
 *   HARK_ECHO_EARLIER   ms hark spoke before its confirmation (default 20000; 0: a cold canceller)
 * Per room: segments from the list and the ring, each "stop" (ms to its segment; what misses() says),
 * ERLE 2 s into the list and the ring and its worst second (every second's in
 * test-output/bench/echo-drift-erle.csv), CPU per 32 ms frame (process CPU), and the skew measured on the
 * echo-only pass against the truth: its error at the end, and when it came within 1 ppm to stay.
 * The table goes to stderr and test-output/bench/echo-drift.md. Slow (minutes): run it alone.
 */
const config = parseConfigText('', 'hark.yaml');
const kitchens = roomsByName(process.env.HARK_ECHO_KITCHENS ?? 'kitchen-rt250-lat30,kitchen-rt400-lat80,kitchen-rt600-lat30');
const ppms = (process.env.HARK_ECHO_PPM ?? '0,5,-5,20,-20,50,-50,100,-100,200,-200').split(',').map(Number);
const follows = (process.env.HARK_ECHO_FOLLOW ?? 'on').split(',').map((s) => s.trim() === 'on');
const earlierMs = Number(process.env.HARK_ECHO_EARLIER ?? 20_000) || undefined;
const programs = await matrixPrograms(config, 60_000, { earlierMs });
const rows: string[] = [];
/** ERLE per second, as CSV: room, follow, part, second (from the part's echo), dB. */
const seconds: string[] = ['room,follow,part,second,erle_db'];
/** The worst second of a part, and how many seconds fall under 20 dB (a stale filter shows here, not in the part's mean). */
const worst = (xs: number[]) => {
  const ok = xs.filter(Number.isFinite);
  return `${ok.length ? Math.min(...ok).toFixed(1) : '-'} (${ok.filter((x) => x < 20).length}/${ok.length} < 20)`;
};
const settings = { filterMs: config.echo.filterMs, residual: config.echo.residual };

{
  {
    {
      for (const base of kitchens) {
        for (const ppm of ppms) {
          const spec = drifted(base, ppm);
          const mics = roomMics(spec, programs);
          const silent = (await stopWithoutEcho(mics, programs, config)).map((s) => s.openedAfterMs);
          for (const follow of follows) {
            const cfg = { ...config, echo: { ...config.echo, followSkew: follow } };
            const r = await measureRoom(mics, programs, cfg, settings, { erle: true });
            // The skew on the echo-only pass: error at the end, and when it came within 1 ppm for good.
            let within: number | null = null;
            let last: number | null = null;
            const echo = toS16(mics.quiet.echo);
            clean(echo, programs.quiet, cfg, settings, new Int16Array(echo.length), (st, pos) => {
              if (pos % 16000 !== 0) return;
              last = st.clocks.ppm;
              const ok = last !== null && Math.abs(last - ppm) < 1;
              if (ok && within === null) within = pos / 16000;
              if (!ok) within = null;
            });
            const stops = r.stops.map((s) => (s.openedAfterMs === null ? (s.heldByEcho ? 'in echo seg' : 'none') : String(s.openedAfterMs))).join(' / ');
            const err = last === null ? '-' : (last - ppm).toFixed(2);
            rows.push(
              `| ${spec.name} | ${follow ? 'on' : 'off'} | ${r.opened.list} | ${r.opened.ring} | ${stops} | ${misses(r, silent).length} | ${r.erle.list.erleDb.toFixed(1)} | ${r.erle.ring.erleDb.toFixed(1)} | ${worst(r.erlePerSecond.list)} | ${worst(r.erlePerSecond.ring)} | ${err} | ${within ?? '-'} | ${r.cpuMsPerFrame.toFixed(3)} |`,
            );
            for (const part of ['list', 'ring'] as const)
              r.erlePerSecond[part].forEach((db, k) =>
                seconds.push(`${spec.name},${follow ? 'on' : 'off'},${part},${k},${Number.isFinite(db) ? db.toFixed(1) : ''}`),
              );
            process.stderr.write(rows[rows.length - 1] + '\n');
          }
        }
      }
      const head =
        '| room | follow | list segs | ring segs | "stop" ms (ring, list at 3 / 3.5 / 6 s, in turn) | misses | ERLE list dB | ERLE ring dB | worst second of the list, dB (seconds < 20 dB) | worst second of the ring | skew error ppm (end) | within 1 ppm from s | CPU ms/frame |';
      const text = [head, head.replace(/[^|]+/g, ' --- '), ...rows].join('\n');
      writeFileSync(join(outputDir('bench'), 'echo-drift.md'), text + '\n');
      writeFileSync(join(outputDir('bench'), 'echo-drift-erle.csv'), seconds.join('\n') + '\n');
      process.stderr.write(`\n${text}\n`);
    }
  }
}

describe('the echo canceller across two clocks', () => {
  bench('measured above (see stderr)', () => {});
});
