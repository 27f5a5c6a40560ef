import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { SystemClock, type TimerHandle } from '../../src/core/clock.js';
import { memoryLogger } from '../../src/core/log.js';
import { AlsaCapture } from '../../src/audio/capture-alsa.js';
import { installFakeArecord, isAlive, type FakeArecord, type FakeMode } from './fake-arecord.js';
import { tempDir } from './helpers.js';
import { concatPcm } from '../../src/audio/pcm.js';

/**
 * Small delays so a restart cycle takes a fraction of a second. The watchdog gets a full second:
 * on a loaded CI box the fake's shell loop can pause for a few hundred milliseconds.
 */
const FAST = { device: 'plughw:CARD=Device,DEV=0', restartInitialMs: 50, restartMaxMs: 400, watchdogMs: 1000 };

/** SystemClock that knows which of its timers are still pending: "no timers left after stop". */
class CountingClock extends SystemClock {
  readonly live = new Set<number>();
  override setTimer(delayMs: number, fn: () => void): TimerHandle {
    const handle: TimerHandle = super.setTimer(delayMs, () => {
      this.live.delete(handle.id);
      fn();
    });
    this.live.add(handle.id);
    return handle;
  }
  override clearTimer(handle: TimerHandle | undefined | null): void {
    if (handle) this.live.delete(handle.id);
    super.clearTimer(handle);
  }
}

type Event = { kind: 'up' } | { kind: 'down'; reason: string; restartInMs: number | null } | { kind: 'data'; samples: Int16Array };

const originalPath = process.env.PATH;
const captures: AlsaCapture[] = [];
const scratch: Array<() => void> = [];

afterEach(async () => {
  process.env.PATH = originalPath;
  await Promise.all(captures.splice(0).map((c) => c.stop()));
  for (const remove of scratch.splice(0)) remove();
});

function setup(plan: FakeMode[], opts: { killGraceMs?: number } = {}) {
  const fake = installFakeArecord(plan);
  scratch.push(fake.remove);
  process.env.PATH = `${fake.dir}:${originalPath}`;
  const clock = new CountingClock();
  const logger = memoryLogger();
  const capture = new AlsaCapture(FAST, { clock, logger, killGraceMs: opts.killGraceMs ?? 2000 });
  captures.push(capture);
  const events: Event[] = [];
  capture.on('up', (info) => {
    expect(info.device).toBe(FAST.device);
    events.push({ kind: 'up' });
  });
  capture.on('down', (info) => events.push({ kind: 'down', reason: info.reason, restartInMs: info.restartInMs }));
  capture.on('data', (chunk) => events.push({ kind: 'data', samples: chunk.slice() }));
  const kinds = () => events.filter((e, i) => e.kind !== 'data' || events[i - 1]?.kind !== 'data').map((e) => e.kind);
  const downs = () => events.filter((e): e is Extract<Event, { kind: 'down' }> => e.kind === 'down');
  return { fake, clock, logger, capture, events, kinds, downs };
}

async function waitFor(what: string, predicate: () => boolean, state: () => unknown = () => '', timeoutMs = 8000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; saw ${JSON.stringify(state())}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Samples delivered between two event indexes, joined. */
function samplesBetween(events: Event[], from: number, to = events.length): Int16Array {
  const parts = events.slice(from, to).flatMap((e) => (e.kind === 'data' ? [e.samples] : []));
  return concatPcm(parts);
}

function rawSamples(fake: FakeArecord, bytes: number): Int16Array {
  const out = new Int16Array(Math.floor(bytes / 2));
  for (let i = 0; i < out.length; i++) out[i] = fake.raw.readInt16LE(i * 2);
  return out;
}

async function expectStoppedClean(setupResult: ReturnType<typeof setup>): Promise<void> {
  const { capture, fake, clock } = setupResult;
  await capture.stop();
  expect(capture.pid).toBeUndefined();
  for (const run of fake.runs()) expect(isAlive(run.pid), `arecord pid ${run.pid} still running`).toBe(false);
  expect(clock.live.size).toBe(0);
  // And nothing restarts later.
  const runs = fake.runs().length;
  await new Promise((r) => setTimeout(r, 150));
  expect(fake.runs().length).toBe(runs);
}

describe('AlsaCapture with a fake arecord on PATH', () => {
  it('runs arecord in raw mode on the configured device', async () => {
    const s = setup(['stream']);
    await s.capture.start();
    await waitFor('first audio', () => s.events.some((e) => e.kind === 'data'));
    expect(s.fake.runs()[0]!.args).toEqual(['-D', FAST.device, '-q', '-r', '16000', '-c', '1', '-t', 'raw', '-f', 'S16_LE', '-']);
    expect(s.capture.pid).toBe(s.fake.runs()[0]!.pid);
    await expectStoppedClean(s);
  });

  it('an unplugged microphone: up, down with the exit and ALSA message, then back up with audio flowing', async () => {
    const s = setup(['burst:63', 'stream']);
    await s.capture.start();
    await waitFor('up → down → up with data', () => s.kinds().join(' ').startsWith('up data down up data'), s.kinds);
    const [down] = s.downs();
    expect(down!.reason).toBe('arecord exited with code 1: arecord: pcm_read:2221: read error: No such device');
    expect(down!.restartInMs).toBe(50);

    // Every byte before the unplug arrived intact, although pieces of 1001 bytes split samples in two
    // (63 pieces end on half a sample, which is dropped).
    const downAt = s.events.findIndex((e) => e.kind === 'down');
    expect(Array.from(samplesBetween(s.events, 0, downAt))).toEqual(Array.from(rawSamples(s.fake, 63 * 1001)));

    // After the restart the stream (1023-byte pieces) decodes to the same speech from its start.
    // (Up to a later down, if a loaded machine stalls the fake long enough for the watchdog.)
    const secondRun = () => {
      const nextDown = s.events.findIndex((e, i) => i > downAt && e.kind === 'down');
      return samplesBetween(s.events, downAt, nextDown === -1 ? s.events.length : nextDown);
    };
    await waitFor('half a second of audio', () => secondRun().length >= 8000);
    const resumed = secondRun();
    expect(Array.from(resumed)).toEqual(Array.from(rawSamples(s.fake, resumed.length * 2)));
    expect(s.logger.lines.some((l) => l.includes('"capture down"'))).toBe(true);
    await expectStoppedClean(s);
  });

  it('a stalled recorder is killed by the watchdog and replaced', async () => {
    const s = setup(['stall:3', 'stream']);
    await s.capture.start();
    await waitFor('up → down → up', () => s.kinds().join(' ').startsWith('up data down up'), s.kinds);
    expect(s.downs()[0]).toEqual({ kind: 'down', reason: 'no audio for 1000 ms', restartInMs: 50 });
    expect(isAlive(s.fake.runs()[0]!.pid)).toBe(false);
    await expectStoppedClean(s);
  });

  it('a device that fails at once: each attempt reports down and the backoff grows, then it recovers', async () => {
    const s = setup(['fail', 'fail', 'fail', 'stream']);
    await s.capture.start();
    await waitFor('recovery', () => s.kinds().includes('up'), s.downs);
    expect(s.downs().map((d) => d.restartInMs)).toEqual([50, 100, 200]);
    for (const d of s.downs()) expect(d.reason).toBe('arecord exited with code 1: arecord: main:831: audio open error: No such file or directory');
    expect(s.kinds().slice(-2)).toEqual(['up', 'data']);
    await expectStoppedClean(s);
  });

  it('arecord missing from PATH is reported, not thrown', async () => {
    const s = setup(['stream']);
    const empty = tempDir('empty-path');
    scratch.push(() => rmSync(empty, { recursive: true, force: true }));
    process.env.PATH = empty;
    await s.capture.start();
    await waitFor('down', () => s.downs().length >= 2);
    expect(s.downs()[0]!.reason).toBe('arecord not found on PATH (install alsa-utils)');
    await expectStoppedClean(s);
  });

  it('stop while waiting to restart: no restart, no timer left', async () => {
    const s = setup(['fail']);
    await s.capture.start();
    await waitFor('down', () => s.downs().length === 1);
    await expectStoppedClean(s);
    expect(s.fake.runs()).toHaveLength(1);
  });

  it('stop kills a recorder that ignores SIGTERM (SIGKILL after the grace period)', async () => {
    const s = setup(['deaf'], { killGraceMs: 150 });
    await s.capture.start();
    await waitFor('up', () => s.kinds().includes('up'));
    const pid = s.capture.pid!;
    const t0 = Date.now();
    await expectStoppedClean(s);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
    expect(isAlive(pid)).toBe(false);
    // Stopping reports down, not restarting; a second stop is harmless.
    expect(s.downs().at(-1)).toEqual({ kind: 'down', reason: 'stopped', restartInMs: null });
    await s.capture.stop();
  });
});
