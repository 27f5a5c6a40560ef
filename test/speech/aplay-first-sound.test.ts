import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, readlinkSync } from 'node:fs';
import { EchoReference } from '../../src/echo/reference.js';
import { AplayPlayer } from '../../src/speech/aplay.js';
import { standInAplay, tone, until } from '../support/aplay-stand-in.js';

/**
 * The first sound after quiet. With the echo canceller in force hark plays through one
 * long-lived aplay, closed after a spell of quiet (speech.idleCloseMs, 60 s) and started again for the
 * next sound. Nothing is written to a new aplay until it is seen reading its stdin; that check looked
 * for a pipe, Node gives a child a Unix socket, the check never succeeded, and the first reply after
 * start and after every quiet spell reached the speaker 1,037-1,049 ms after the action.
 *
 * These run the player as hark does (its feeding thread, the wall clock: needs `npm run build`), with
 * the idle close shortened so that several closes fit in a test. A new aplay after quiet is fed 5-60 ms
 * after play() here (a loaded 2-core machine); the first sound after start also waits for the feeding
 * thread to start (150-350 ms here). The bounds (300 ms; 700 ms for the first) are far from both, and
 * from the 1 s timeout, which counts from aplay's start and so is never beaten.
 */
const boundMs = (k: number) => (k === 0 ? 700 : 300);
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

let player: AplayPlayer | null = null;
afterEach(() => {
  player?.close();
  player = null;
});

describe('the first sound after quiet reaches aplay at once', () => {
  it('a stand-in aplay, blocked reading its stdin as aplay is, gets the first bytes within tens of ms: at start and after each idle close', async () => {
    // A stand-in aplay blocked in read(2) on the stdin hark gave it; it logs when its first byte came.
    const { bin, firstBytes, exits } = standInAplay('aplay-first-sound');
    player = new AplayPlayer({ device: 'null', bin, reference: new EchoReference(), idleCloseMs: 150 });
    const delays: number[] = [];
    for (let k = 0; k < 3; k++) {
      const asked = performance.timeOrigin + performance.now();
      const r = await player.play(tone(100)).done;
      expect(r.outcome).toBe('ended');
      const first = await until(`aplay ${k + 1}'s first byte`, () => firstBytes()[k]);
      delays.push(Number(first) * 1000 - asked);
      // Quiet: the player closes aplay; the next sound starts a new one.
      await until(`aplay ${k + 1} to be closed`, () => (exits() > k ? true : undefined));
    }
    expect(firstBytes()).toHaveLength(3);
    delays.forEach((d, k) => expect(d, `play() to aplay's first byte: ${delays.map((x) => x.toFixed(0)).join(', ')} ms`).toBeLessThan(boundMs(k)));
  }, 30_000);

  it('real aplay on the null device: every first clip after quiet is fed within tens of ms, and names the aplay playing it', async () => {
    player = new AplayPlayer({ device: 'null', reference: new EchoReference(), idleCloseMs: 150 });
    const delays: number[] = [];
    const pids = new Set<number>();
    // Several new processes: the pid was reported after the clip's start only some of the time.
    for (let k = 0; k < 8; k++) {
      const asked = performance.now();
      const pb = player.play(tone(100));
      await pb.started;
      delays.push(performance.now() - asked);
      const pid = pb.pid;
      expect(pid, `clip ${k + 1}'s pid once started`).toBeTypeOf('number');
      expect(readlinkSync(`/proc/${pid}/exe`)).toMatch(/\/aplay$/);
      pids.add(pid!);
      expect(await pb.done).toMatchObject({ outcome: 'ended', playedMs: 100 });
      // Quiet until that aplay has been closed.
      await until(`aplay ${pid} to exit`, () => (existsSync(`/proc/${pid}`) ? undefined : true));
    }
    // Each clip was the first of a new process.
    expect(pids.size).toBe(8);
    delays.forEach((d, k) => expect(d, `play() to the first write: ${delays.map((x) => x.toFixed(0)).join(', ')} ms`).toBeLessThan(boundMs(k)));
  }, 40_000);

  it("warmed at start, as hark's speech is built, the very first sound after start is fed as quickly as any", async () => {
    player = new AplayPlayer({ device: 'null', reference: new EchoReference(), idleCloseMs: 150 });
    player.warm();
    // hark has started; some time passes before its first reply.
    await wait(1000);
    const asked = performance.now();
    const pb = player.play(tone(100));
    await pb.started;
    expect(performance.now() - asked, 'play() to the first write').toBeLessThan(boundMs(1));
    expect(await pb.done).toMatchObject({ outcome: 'ended' });
  }, 20_000);
});
