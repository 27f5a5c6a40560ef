import { describe, expect, it } from 'vitest';
import { FakeAplay, setup } from './aplay-stream-fake.js';

const clip = (n: number, v: number) => new Int16Array(n).fill(v);

describe("AplayStream: one aplay for all of hark's sound", () => {
  it('feeds in step with the clock, never more than the lead ahead, silence between clips, one process', async () => {
    const { clock, player, run } = setup();
    const a = player.play(clip(3200, 100));
    await run(200);
    const p = FakeAplay.made[0]!;
    for (const w of p.writes) {
      const upTo = p.writes.filter((x) => x.at <= w.at).reduce((s, x) => s + x.pcm.length, 0);
      // Written up to lead (120 ms = 1920 samples) past the clock since the process started.
      expect(upTo).toBeLessThanOrEqual((w.at - 1000) * 16 + 1920 + 1);
    }
    expect((await a.done).outcome).toBe('ended');
    await run(1000);
    const b = player.play(clip(1600, 200));
    await run(400);
    expect((await b.done).outcome).toBe('ended');
    expect(FakeAplay.made).toHaveLength(1);
    const s = p.stream;
    // Clip, silence, clip: all on one timeline that kept pace with the clock.
    expect(s.subarray(0, 3200).every((v) => v === 100)).toBe(true);
    expect(s.indexOf(200)).toBeGreaterThan(3200 + 1000 * 16 - 1920);
    // Nothing playing now: the silence is the idle lead (80 ms) ahead.
    expect(Math.abs(s.length - ((clock.now() - 1000) * 16 + 80 * 16))).toBeLessThanOrEqual(320);
  });

  it('with nothing playing only a little silence is queued, so a new clip starts sounding within 80 ms; then the lead grows to 120', async () => {
    const { clock, player, run } = setup();
    await (async () => {
      const a = player.play(clip(160, 1));
      await run(1000);
      expect((await a.done).outcome).toBe('ended');
    })();
    const p = FakeAplay.made[0]!;
    const asked = clock.now();
    const queuedAhead = p.stream.length - (asked - 1000) * 16;
    expect(queuedAhead).toBeLessThanOrEqual(80 * 16);
    player.play(clip(16000, 9));
    const at = p.stream.indexOf(9);
    // Its first sample is due (anchor + position) within 80 ms of the play() call.
    expect(1000 + at / 16 - asked).toBeLessThanOrEqual(80);
    await run(100);
    expect(p.stream.length - (clock.now() - 1000) * 16).toBeGreaterThan(100 * 16);
  });

  it('sums overlapping clips as the speaker would (clipped), and the reference gets exactly what is written, where it will sound', async () => {
    const { player, taps, run } = setup();
    player.play(clip(16000, 20000));
    await run(40);
    player.play(clip(800, 20000));
    await run(1300);
    const s = FakeAplay.made[0]!.stream;
    expect(s.includes(32767)).toBe(true);
    // The reference, laid out on the clock (16 per ms), is the written stream at its due times.
    for (const t of taps) {
      const pos = Math.round((t.atMs - 1000) * 16);
      expect(Array.from(t.pcm)).toEqual(Array.from(s.subarray(pos, pos + t.pcm.length)));
      expect(t.stream).toBe(1);
    }
    expect(taps.reduce((n, t) => n + t.pcm.length, 0)).toBe(16000);
  });

  it("stop() drops the clip's unplayed samples: nothing of it is written after, no kill, and it was at most the lead ahead", async () => {
    const { clock, player, taps, run } = setup();
    const pb = player.play(clip(16000, 300));
    await run(300);
    const stoppedAt = clock.now();
    await pb.stop();
    const r = await pb.done;
    expect(r.outcome).toBe('stopped');
    await run(500);
    const p = FakeAplay.made[0]!;
    expect(p.signalCode).toBeNull();
    const written = p.stream.filter((v) => v === 300).length;
    // What was handed to aplay before the stop: what had played (300 ms) plus at most the lead (120 ms).
    expect(written).toBeLessThanOrEqual((stoppedAt - 1000) * 16 + 1920);
    expect(written).toBeGreaterThanOrEqual(300 * 16);
    expect(taps.reduce((n, t) => n + t.pcm.length, 0)).toBe(written);
    expect(p.writes.filter((w) => w.at > stoppedAt).every((w) => w.pcm.every((v) => v === 0))).toBe(true);
  });

  it('a stall longer than the lead does not queue the missed audio: the timeline moves on, and the reference with it', async () => {
    const { player, taps, run, stall } = setup();
    player.play(clip(16000, 400));
    await run(200);
    // The event loop stalls 500 ms (no timer runs).
    const p = FakeAplay.made[0]!;
    const before = p.stream.length;
    stall(500);
    await run(40);
    const burst = p.stream.length - before;
    // Not the 500 ms missed: a lead's worth at most.
    expect(burst).toBeLessThanOrEqual(1920 + 2 * 320);
    // The reference: what was written before the stall sounds up to a lead past its start, the rest
    // from its end on (the card ran dry for 500 - 120 ms in between); no sample is lost or doubled.
    const gaps = taps.slice(1).map((t, i) => t.atMs - (taps[i]!.atMs + taps[i]!.pcm.length / 16));
    const jumps = gaps.filter((g) => Math.abs(g) > 0.1);
    expect(jumps).toHaveLength(1);
    // 500 ms stalled, less the lead that was written ahead (from the last tick, up to 20 ms before).
    expect(jumps[0]).toBeGreaterThanOrEqual(380);
    expect(jumps[0]).toBeLessThanOrEqual(400);
    expect(taps.flatMap((t) => Array.from(t.pcm))).toEqual(Array.from(p.stream.filter((v) => v === 400)));
  });

  it('streams: audio pushed as it comes, a dry spell is silence, end() ends it', async () => {
    const { player, run } = setup();
    const pb = player.playStream();
    // Started once aplay is being fed, before any audio (a caller may wait for it before pushing).
    let started = false;
    void pb.started.then(() => (started = true));
    await run(40);
    expect(started).toBe(true);
    pb.push(clip(800, 7));
    await run(200);
    pb.push(clip(800, 7));
    await run(100);
    pb.end();
    await run(200);
    const r = await pb.done;
    expect(r).toEqual({ outcome: 'ended', playedMs: 100 });
    expect(FakeAplay.made[0]!.stream.filter((v) => v === 7).length).toBe(1600);
  });

  it('closes aplay after idleCloseMs with nothing to play, and opens a new one on the next sound', async () => {
    const { player, run } = setup();
    const first = player.play(clip(1600, 1));
    await run(200);
    expect((await first.done).outcome).toBe('ended');
    await run(4600);
    expect(FakeAplay.made[0]!.ended).toBe(false);
    await run(400);
    expect(FakeAplay.made[0]!.ended).toBe(true);
    FakeAplay.made[0]!.exit(0);
    const pb = player.play(clip(1600, 2));
    await run(300);
    expect((await pb.done).outcome).toBe('ended');
    expect(FakeAplay.made).toHaveLength(2);
  });

  it("aplay dying fails the clips playing with the device and aplay's words; the next sound restarts it after a backoff that grows", async () => {
    const { clock, player, run } = setup();
    const pb = player.play(clip(32000, 5));
    await run(100);
    FakeAplay.made[0]!.exit(1, null, 'aplay: pcm_write:2127: write error: No such device\n');
    expect(await pb.done).toMatchObject({
      outcome: 'error',
      error: 'aplay could not play on "plughw:CARD=Device,DEV=0": aplay: pcm_write:2127: write error: No such device',
    });
    const t = clock.now();
    const next = player.play(clip(1600, 6));
    await run(200);
    expect(FakeAplay.made).toHaveLength(1);
    await run(100);
    expect(FakeAplay.made).toHaveLength(2);
    expect(FakeAplay.made[1]!.writes[0]!.at - t).toBeGreaterThanOrEqual(250);
    // It dies at once again: twice the wait.
    FakeAplay.made[1]!.exit(1, null, 'aplay: main:831: audio open error: No such file or directory\n');
    expect((await next.done).error).toMatch(/audio open error/);
    const t2 = clock.now();
    const third = player.play(clip(1600, 7));
    await run(450);
    expect(FakeAplay.made).toHaveLength(2);
    await run(150);
    expect(FakeAplay.made).toHaveLength(3);
    expect(FakeAplay.made[2]!.writes[0]!.at - t2).toBeGreaterThanOrEqual(500);
    expect((await third.done).outcome).toBe('ended');
  });

  it('aplay taking no audio for stallMs is killed and the clip fails saying so', async () => {
    const { player, run } = setup();
    const pb = player.play(clip(160000, 5));
    await run(50);
    FakeAplay.made[0]!.accept = false;
    await run(3100);
    expect(await pb.done).toMatchObject({ outcome: 'error', error: expect.stringMatching(/took no audio for 3000 ms .*plughw:CARD=Device,DEV=0.*killed/) });
  });
});
