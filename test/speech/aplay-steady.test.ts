import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { rmSync } from 'node:fs';
import { EchoReference } from '../../src/echo/reference.js';
import { AplayPlayer } from '../../src/speech/aplay.js';
import { outputDir } from '../support/paths.js';
import { Room } from '../support/room-devices.js';

/**
 * While the echo canceller is in force (the player has a reference), every clip hark plays must reach the
 * speaker at one latency from where the reference puts it: the canceller finds that latency once and
 * keeps it across clips, ring repeats and sentences. The room's fake aplay starts each process after a
 * different start-up (150, 10, 60 ms: the spread measured on this machine), as real aplay does.
 */
function tone(ms: number, hz = 440): Int16Array {
  const n = Math.round(ms * 16);
  // A phase of 1 rad: the first sample is not zero, so the onset is exact.
  return new Int16Array(n).map((_, i) => Math.round(Math.sin((2 * Math.PI * hz * i) / 16_000 + 1) * 8000));
}

/** Positions in [from, to) where sound starts after at least 100 ms of exact silence. */
function onsets(at: (i: number) => number, from: number, to: number): number[] {
  const out: number[] = [];
  let silent = 1600;
  for (let i = from; i < to; i++) {
    if (at(i) !== 0) {
      if (silent >= 1600) out.push(i);
      silent = 0;
    } else silent++;
  }
  return out;
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("playback with the echo canceller in force (the room's fake aplay)", () => {
  let room: Room;
  beforeAll(async () => {
    const dir = outputDir('aplay-steady');
    rmSync(dir, { recursive: true, force: true });
    room = await new Room(join(dir, 'bin'), { delayMs: 0, echoGain: 1, rt60Ms: 100, maxSeconds: 30, aplayStartupMs: [150, 10, 60] }).start();
  });
  afterAll(async () => room?.close());

  // Real processes timed against each other on a shared 2-core machine: seen 5-30 ms off twice in
  // about 20 runs while other test files ran at once (cause not established; 0 of 17 alone). One retry.
  it('three clips, played apart, each reach the speaker at the same latency from the reference', { retry: 1, timeout: 20_000 }, async () => {
    const reference = new EchoReference();
    const player = new AplayPlayer({ device: 'default', bin: join(room.dir, 'aplay'), reference: reference });
    const t0 = performance.now();
    for (let k = 0; k < 3; k++) {
      const r = await player.play(tone(300)).done;
      expect(r.outcome).toBe('ended');
      await wait(400);
    }
    const t1 = performance.now();
    player.close();
    const from = Math.round(t0 * 16);
    const to = Math.round(t1 * 16);
    const ref = new Int16Array(to - from);
    reference.render(from, ref);
    const refOnsets = onsets((i) => ref[i]!, 0, ref.length).map((i) => i + from);
    const roomFrom = room.sampleAt(t0);
    const roomOnsets = onsets((i) => room.played[i]!, roomFrom, room.sampleAt(t1));
    expect(refOnsets).toHaveLength(3);
    expect(roomOnsets).toHaveLength(3);
    const latencyMs = roomOnsets.map((r, k) => (r - room.sampleAt(refOnsets[k]! / 16)) / 16);
    // One latency for all three (the room's timeline and the clock agree to a sample or two).
    expect(Math.max(...latencyMs) - Math.min(...latencyMs), `latencies ${latencyMs.map((l) => l.toFixed(1)).join(', ')} ms`).toBeLessThanOrEqual(2);
    // And aplay's 150 ms start-up was not queued ahead of the sound (nothing is written until it reads):
    // what remains is the room's own handling, well under the lead.
    expect(Math.max(...latencyMs)).toBeLessThan(120);
  });

  it('real aplay, a device that does not exist: the clip fails naming the device, and the next sound tries again', async () => {
    const player = new AplayPlayer({ device: 'plughw:CARD=NoSuchCard,DEV=0', reference: new EchoReference() });
    const r = await player.play(tone(200)).done;
    expect(r.outcome).toBe('error');
    expect(r.error).toMatch(/^aplay could not play on "plughw:CARD=NoSuchCard,DEV=0": /);
    const again = await player.play(tone(200)).done;
    expect(again.outcome).toBe('error');
    player.close();
  }, 20_000);

  it('real aplay on the null device: a clip, then a stop mid-clip, through one process', async () => {
    const player = new AplayPlayer({ device: 'null', reference: new EchoReference() });
    const a = player.play(tone(300));
    await a.started;
    const pid = a.pid;
    expect(await a.done).toMatchObject({ outcome: 'ended', playedMs: 300 });
    const b = player.play(tone(5000));
    const asked = performance.now();
    await b.started;
    await wait(400);
    expect(b.pid).toBe(pid);
    await b.stop();
    const r = await b.done;
    expect(r.outcome).toBe('stopped');
    // It started sounding within the idle lead (80 ms; a tick or two more on a loaded machine) of play().
    expect(r.playedMs).toBeGreaterThan(performance.now() - asked - 250);
    expect(r.playedMs).toBeLessThan(1500);
    player.close();
  }, 20_000);
});
