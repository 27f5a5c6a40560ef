import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeepgramDouble } from '../support/deepgram-server.js';
import { HarkProcess } from '../support/hark-process.js';
import { LIBRIVOX, buildRecording, contains } from '../support/loud-room.js';
import { TINY_MODEL, outputDir } from '../support/paths.js';

/**
 * End to end and bounded: a minute of librivox talk over kitchen noise with one "computer
 * set a timer for 1 minute" in it, through a real `hark run --input --fast` (local Whisper first, the
 * Deepgram double hearing the command only in audio that holds it). Whisper (the weightless test
 * model: it hears nothing, as a real Whisper on a clip it cannot make out) judges only the openings
 * of the long segments; its blank sends each segment whole to the cloud, once — never the opening
 * and then the whole. The command is acted on once; every closed segment is stored.
 * The 10-minute version with timings is test/bench/loud-room.bench.ts.
 */
describe.skipIf(!existsSync(LIBRIVOX))('hark run in a loud room', () => {
  let hark: HarkProcess;
  let deepgram: DeepgramDouble;
  let dir: string;
  let exit: { code: number | null };
  /** Seconds of audio in each request the cloud answered. */
  const heardSec: number[] = [];

  beforeAll(async () => {
    dir = outputDir('e2e-loud-room');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const rec = buildRecording(dir, 1);
    deepgram = await DeepgramDouble.start({ apiKey: 'e2e-key' });
    const windows = rec.commands.map((c) => rec.pcm.slice(c.startSample + 4800, c.startSample + 4864));
    deepgram.hear = (pcm) => {
      heardSec.push(pcm.length / 16_000);
      const i = windows.findIndex((w) => contains(pcm, w));
      return i >= 0 ? { text: rec.commands[i]!.text } : null;
    };
    writeFileSync(
      join(dir, 'hark.yaml'),
      `actions:\n  dataDir: ${JSON.stringify(dir)}\nspeech:\n  device: "null"\nstt:\n  whisper:\n    model: ${JSON.stringify(TINY_MODEL)}\n`,
    );
    hark = new HarkProcess(
      ['--db', join(dir, 'hark.db'), '--port', '0', '--stt-mode', 'local-first', '--deepgram-url', deepgram.url, '--input', rec.wav, '--fast', '--exit-at-end'],
      {
        ...process.env,
        DEEPGRAM_API_KEY: 'e2e-key',
        HARK_CONFIG: join(dir, 'hark.yaml'),
      },
    );
    exit = await Promise.race([
      hark.exited,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`hark did not finish; stderr:\n${hark.stderr.slice(-20).join('\n')}`)), 150_000)),
    ]);
  }, 180_000);

  afterAll(async () => {
    hark?.kill('SIGKILL');
    await deepgram?.close();
  });

  it('acts on the command once', () => {
    expect(exit.code).toBe(0);
    const timers = hark
      .of('action')
      .filter((a) => a.name === 'timer.set')
      .map((a) => (a.args as { seconds: number }).seconds);
    expect(timers).toEqual([60]);
  });

  it('the cloud hears each segment once and whole; Whisper hears only the openings of the long ones', () => {
    type Stt = { segmentId: number; audioSec: number; attempts: { engine: string; fallbackReason?: string }[] };
    const stt = hark.of('stt.segment') as unknown as Stt[];
    const handled = hark.of('segment.handled');
    // One transcript per segment: the opening check's hand-over is part of the segment's, not its own.
    expect(stt.map((s) => s.segmentId).sort((a, b) => a - b)).toEqual(handled.map((h) => h.segment).sort((a, b) => (a as number) - (b as number)));
    const cloud = stt.filter((s) => s.attempts.some((a) => a.engine === 'deepgram'));
    expect(cloud.every((s) => s.attempts.filter((a) => a.engine === 'deepgram').length === 1)).toBe(true);
    const round = (xs: number[]) => xs.map((x) => Math.round(x * 10) / 10).sort((a, b) => a - b);
    expect(round(heardSec)).toEqual(round(cloud.map((s) => s.audioSec)));
    // The long ones went to the cloud past Whisper's blank on their opening.
    expect(cloud.filter((s) => s.attempts.at(-1)!.fallbackReason?.endsWith(', on its opening')).length).toBeGreaterThan(0);
  });

  it('stores every closed segment with its audio', () => {
    const handled = hark.of('segment.handled');
    const db = new Database(join(dir, 'hark.db'), { readonly: true });
    expect(db.prepare('SELECT COUNT(*) FROM segments').pluck().get()).toBe(handled.length);
    expect(db.prepare("SELECT COUNT(*) FROM segments WHERE audio_state = 'stored'").pluck().get()).toBe(handled.length);
    db.close();
  });
});
