import { bench, describe } from 'vitest';
import { existsSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { EchoReference } from '../../src/echo/reference.js';
import { AplayPlayer } from '../../src/speech/aplay.js';
import { standInAplay, tone, until } from '../support/aplay-stand-in.js';
import { outputDir } from '../support/paths.js';

/**
 * The first reply after quiet, play() → the first sample reaching aplay (target ≤ 50 ms).
 * With the echo canceller hark plays through one long-lived aplay, closed after speech.playerIdleMs of
 * quiet; each of these clips is the first after such a close (shortened to 150 ms so that many fit),
 * so each starts a new aplay. Two readers, as in test/speech/aplay-first-sound.test.ts:
 *   - a stand-in aplay that logs the wall time its first byte arrives (blocked in read(2) on the
 *     socket hark gives it, as aplay is);
 *   - the real aplay on ALSA's `null` device: play() → the clip started (its first write).
 * Runs the player as hark does (its feeding thread: needs `npm run build`). FIRST_SOUND_N clips each
 * (default 20). `npx vitest bench --run test/bench/first-sound.bench.ts`; alone on the machine.
 */
const N = Number(process.env.FIRST_SOUND_N ?? 20);
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

function summary(name: string, ms: number[]): string {
  const s = [...ms].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))]!.toFixed(1);
  return `${name}: n ${s.length}, p50 ${at(0.5)} ms, p90 ${at(0.9)}, max ${s[s.length - 1]!.toFixed(1)} (${ms.map((x) => x.toFixed(0)).join(' ')})`;
}

const load0 = loadavg()[0]!;

// The stand-in aplay: the first byte's wall time.
const { bin, firstBytes, exits } = standInAplay('bench-first-sound');
const standIn: number[] = [];
{
  const player = new AplayPlayer({ device: 'null', bin, reference: new EchoReference(), idleCloseMs: 150 });
  player.warm();
  await wait(1000);
  for (let k = 0; k < N; k++) {
    const asked = performance.timeOrigin + performance.now();
    await player.play(tone(100)).done;
    const first = await until(`aplay ${k + 1}'s first byte`, () => firstBytes()[k], 5000, 5);
    standIn.push(Number(first) * 1000 - asked);
    await until(`aplay ${k + 1} to be closed`, () => (exits() > k ? true : undefined), 5000, 5);
    await wait(50);
  }
  player.close();
}

// The real aplay on `null`.
const real: number[] = [];
{
  const player = new AplayPlayer({ device: 'null', reference: new EchoReference(), idleCloseMs: 150 });
  player.warm();
  await wait(1000);
  for (let k = 0; k < N; k++) {
    const asked = performance.now();
    const pb = player.play(tone(100));
    await pb.started;
    real.push(performance.now() - asked);
    const pid = pb.pid;
    await pb.done;
    await until(`aplay ${pid} to exit`, () => (pid === undefined || !existsSync(`/proc/${pid}`) ? true : undefined), 5000, 5);
    await wait(50);
  }
  player.close();
}

const text = `${summary('play() → first byte read by a stand-in aplay', standIn)}\n${summary('play() → first write to the real aplay (null device)', real)}\nload ${load0.toFixed(1)} → ${loadavg()[0]!.toFixed(1)}\n`;
process.stderr.write(`\nthe first reply after quiet (each clip the first of a new aplay):\n${text}`);
writeFileSync(join(outputDir('bench'), 'first-sound.md'), text);

describe('the first reply after quiet', () => {
  bench('measured above (see stderr)', () => {});
});
