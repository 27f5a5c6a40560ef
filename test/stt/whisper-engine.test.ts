import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { memoryLogger } from '../../src/core/log.js';
import { HarkError } from '../../src/core/errors.js';
import { EngineFailure } from '../../src/stt/types.js';
import { loadBinding } from '../../src/stt/whisper/binding.js';
import { WhisperEngine, type WhisperEngineOptions } from '../../src/stt/whisper/engine.js';
import { espeakPhrase } from '../support/speech.js';
import { outputDir, requireFile, TINY_MODEL } from '../support/paths.js';
import { writeGgml } from './ggml-file.js';

/**
 * The real smart-whisper addon and whisper.cpp, with the test model (real header, mel filters and
 * vocabulary, no weights: it loads, runs the whole encoder/decoder, and hears nothing). On this
 * x86 box the addon is built without SIMD, so each call costs seconds: few calls, tight clips.
 */
const opts = (over: Partial<WhisperEngineOptions> = {}): WhisperEngineOptions => ({
  modelPath: requireFile(TINY_MODEL),
  language: 'en',
  threads: 2,
  scaleAudioCtx: true,
  audioCtxPad: 0,
  maxTokensPerSecond: 8,
  deadlineBaseMs: 120_000,
  deadlinePerSecondMs: 0,
  temperatureFallback: false,
  nativeLog: false,
  logger: memoryLogger(),
  ...over,
});

describe('local Whisper engine (smart-whisper addon, whisper.cpp in-process)', () => {
  let engine: WhisperEngine;
  let loads: ReturnType<typeof vi.spyOn>;
  let speech: Int16Array;
  let long: Int16Array;

  beforeAll(async () => {
    const binding = loadBinding(true);
    loads = vi.spyOn(binding.WhisperModel, 'load');
    speech = await espeakPhrase('lights on');
    // Twenty seconds of it: enough work for the native (-march=native) build to take a while, so the
    // event-loop and deadline checks below see inference really running.
    long = new Int16Array(speech.length * Math.ceil((20 * 16_000) / speech.length));
    for (let at = 0; at < long.length; at += speech.length) long.set(speech.subarray(0, Math.min(speech.length, long.length - at)), at);
    engine = await WhisperEngine.load(opts());
  });
  afterAll(async () => {
    await engine?.close();
  });

  it('loads the model once and keeps it across many segments (no offload, no reload)', async () => {
    const before = loads.mock.calls.length;
    const results = [];
    for (let i = 0; i < 3; i++) results.push(await engine.transcribe({ id: i, pcm: speech.subarray(0, 16_000 + i * 1600) }));
    expect(loads.mock.calls.length - before).toBe(0);
    expect(engine.stats.calls).toBeGreaterThanOrEqual(3);
    for (const r of results) {
      // No weights: whisper.cpp runs and decides it heard nothing.
      expect(r).toMatchObject({ engine: 'whisper', rawText: '', text: '' });
      expect(Array.isArray(r.tokens)).toBe(true);
      expect(r.ms).toBeGreaterThan(0);
    }
  }, 120_000);

  it('runs inference off the event loop: timers keep firing while whisper.cpp works', async () => {
    let maxGap = 0;
    let last = performance.now();
    const tick = setInterval(() => {
      const now = performance.now();
      maxGap = Math.max(maxGap, now - last);
      last = now;
    }, 10);
    const started = performance.now();
    await engine.transcribe({ id: 'loop', pcm: long });
    const took = performance.now() - started;
    clearInterval(tick);
    expect(took).toBeGreaterThan(150);
    // Blocked, the loop would stall for the whole inference; a loaded 2-core box may delay a tick a little.
    expect(maxGap).toBeLessThan(Math.max(150, took / 4));
  }, 60_000);

  it("a clip under whisper.cpp's 1 s minimum is padded and transcribed, not refused", async () => {
    const p = engine.plan(4000);
    expect(p.padSamples).toBeGreaterThan(0);
    const r = await engine.transcribe({ id: 'short', pcm: speech.subarray(0, 4000) });
    expect(r.engine).toBe('whisper');
  }, 60_000);

  it('an empty segment returns an empty transcript without calling whisper.cpp', async () => {
    const calls = engine.stats.calls;
    const r = await engine.transcribe({ id: 'empty', pcm: new Int16Array(0) });
    expect(r.rawText).toBe('');
    expect(engine.stats.calls).toBe(calls);
  });

  it("fails with `deadline` when inference outlasts the segment's deadline, and stays usable", async () => {
    const quick = await WhisperEngine.load(opts({ deadlineBaseMs: 50 }));
    try {
      const started = performance.now();
      const err = await quick.transcribe({ id: 'slow', pcm: long }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(EngineFailure);
      expect((err as EngineFailure).kind).toBe('deadline');
      expect((err as EngineFailure).reason).toMatch(/^whisper deadline: no result within 50 ms$/);
      expect(performance.now() - started).toBeLessThan(1000);
      expect(quick.busy).toBe(true);
      // Whisper.cpp runs on with it, and says so; a call given up on behind it never starts.
      expect(quick.abandoned).toBe(1);
      const calls = quick.stats.calls;
      const queued = await quick.transcribe({ id: 'behind', pcm: speech }).catch((e: unknown) => e);
      expect((queued as EngineFailure).kind).toBe('deadline');
      await quick.close();
      expect(quick.stats.calls).toBe(calls);
    } finally {
      await quick.close();
    }
    expect(quick.busy).toBe(false);
    expect(quick.abandoned).toBe(0);
  }, 60_000);
});

// Whether a call now would answer within its deadline, counted from its segment's close, is
// forecast from what this engine's calls cost on this CPU (the transcriber then asks the cloud first).
describe("local Whisper's forecast of its own lateness", () => {
  it('learns its cost from its calls; counts the wait and the work ahead; says why', async () => {
    const speech = await espeakPhrase('set a timer for five minutes');
    const w = await WhisperEngine.load(opts({ deadlineBaseMs: 60_000, deadlinePerSecondMs: 0 }));
    try {
      // No telling before it has run a few calls.
      expect(w.unavailableFor(speech.length, 59_990)).toBeNull();
      for (let i = 0; i < 3; i++) await w.transcribe({ id: i, pcm: speech });
      expect(w.unavailableFor(speech.length, 0)).toBeNull();
      const late = w.unavailableFor(speech.length, 59_990);
      expect(late).toMatch(/^it would answer past its deadline \(waited 59990 ms, 0 ms of work ahead, ~\d+ ms for this segment; 60000 ms allowed\)$/);
      const own = Number(/~(\d+) ms/.exec(late!)![1]);
      // Just in time on its own; a call running ahead of it makes it late.
      expect(w.unavailableFor(speech.length, 60_000 - own)).toBeNull();
      const running = w.transcribe({ id: 'ahead', pcm: speech }).catch((e: unknown) => e);
      const why = w.unavailableFor(speech.length, 60_000 - own);
      expect(Number(/(\d+) ms of work ahead/.exec(why ?? '')?.[1])).toBeGreaterThan(0);
      await running;
      expect(w.unavailableFor(speech.length, 0)).toBeNull();
    } finally {
      await w.close();
    }
  }, 120_000);
});

describe('a missing or broken model is a clear error at start, never a crash', () => {
  const dir = outputDir('stt-whisper-engine');

  it('missing: names the path and the fetch command', async () => {
    const path = join(dir, 'ggml-base.en-q5_1.bin');
    const err = await WhisperEngine.load(opts({ modelPath: path })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HarkError);
    expect((err as Error).message).toBe(
      `whisper model ${path} does not exist; get a good copy with \`hark model fetch base.en-q5_1\` (or set stt.whisper.model / --model)`,
    );
  });

  it('truncated: refused before whisper.cpp (which would segfault on it)', async () => {
    const path = writeGgml(join(dir, 'ggml-tiny.en.bin'), { omit: ['decoder.ln.bias', 'decoder.ln.weight'] });
    const err = await WhisperEngine.load(opts({ modelPath: path })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HarkError);
    expect((err as Error).message).toMatch(/is incomplete.*hark model fetch tiny\.en/);
  });

  it('a complete file that passes the check really loads in whisper.cpp (the check and the loader agree)', async () => {
    const e = await WhisperEngine.load(opts({ modelPath: writeGgml(join(dir, 'ggml-synthetic.bin')) }));
    expect(e.info.tensors).toBe(50);
    await e.close();
  });
});
