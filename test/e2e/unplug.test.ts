import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { DeepgramDouble } from '../support/deepgram-server.js';
import { fakeMic } from '../support/fake-mic.js';
import { HarkProcess } from '../support/hark-process.js';
import { TINY_MODEL, outputDir } from '../support/paths.js';
import { scene } from '../support/speech.js';

/**
 * The USB microphone is pulled out in the middle of a sentence: the fake arecord prints ALSA's read
 * error and exits 1, the way the real one does. hark must say so (LED, events), bring capture back
 * with its backoff, and neither lose nor duplicate a segment.
 */
const PHRASES = ['computer, set a timer for ten minutes', 'start dictation', 'zero zero zero', 'end dictation'];

describe('hark run with the microphone unplugged mid-stream', () => {
  let hark: HarkProcess;
  let deepgram: DeepgramDouble;
  let db: string;
  let exit: { code: number | null; signal: NodeJS.Signals | null };
  let runs: string[];

  beforeAll(async () => {
    const dir = outputDir('e2e-unplug');
    rmSync(dir, { recursive: true, force: true });
    const s = await scene([1200, PHRASES[0]!, 1800, PHRASES[1]!, 1800, PHRASES[2]!, 1800, PHRASES[3]!, 1500]);
    // die in the middle of "start dictation" (the second phrase starts after ~5 s)
    const second = s.phrases[1]!;
    const middle = second.start + (second.end - second.start) / 2;
    const mic = fakeMic(join(dir, 'bin'), s.pcm, ['play']);
    writeFileSync(join(mic.dir, 'plan.txt'), `die-after:${Math.floor(middle / mic.pieceSamples)}\nplay\n`);
    deepgram = await DeepgramDouble.start({ apiKey: 'e2e-key' });
    deepgram.script = PHRASES.map((text) => ({ text }));
    db = join(dir, 'hark.db');
    writeFileSync(join(dir, 'hark.yaml'), `actions:\n  dataDir: ${JSON.stringify(dir)}\ncapture:\n  restartInitialMs: 500\nspeech:\n  device: "null"\n`);
    hark = new HarkProcess(['--db', db, '--port', '0', '--model', TINY_MODEL, '--deepgram-url', deepgram.url], {
      ...process.env,
      PATH: `${mic.dir}:${process.env.PATH}`,
      DEEPGRAM_API_KEY: 'e2e-key',
      HARK_CONFIG: join(dir, 'hark.yaml'),
    });
    try {
      await hark.waitFor((e) => e.type === 'submit' && e.frame === 'dictation', 120_000, 'the dictation to be submitted');
      const until = Date.now() + 30_000;
      while (hark.of('segment.handled').length < hark.of('segment.closed').length && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    } finally {
      // kept for a look when something here fails
      writeFileSync(join(dir, 'events.jsonl'), hark.events.map((e) => JSON.stringify(e)).join('\n') + '\n');
      writeFileSync(join(dir, 'stderr.log'), hark.stderr.join('\n') + '\n');
    }
    runs = mic.runs();
    hark.kill('SIGTERM');
    exit = await hark.exited;
    await deepgram.close();
  }, 180_000);

  afterAll(() => hark?.kill('SIGKILL'));

  it("reports the microphone down with the recorder's reason, and back up after the backoff", () => {
    const downs = hark.of('capture.down');
    expect(downs.length).toBeGreaterThanOrEqual(1);
    expect(String(downs[0]!.reason)).toMatch(/exit|read error|No such device/);
    expect(downs[0]!.restartInMs).toBe(500);
    expect(hark.of('capture.up').length).toBeGreaterThanOrEqual(2);
    expect(runs.length).toBeGreaterThanOrEqual(2);
  });

  it('shows the fault on the LED while the microphone is missing, and leaves it after', () => {
    const types = hark.events.map((e) => e.type);
    const down = types.indexOf('capture.down');
    const upAgain = types.indexOf('capture.up', down);
    const between = hark.events.slice(down, upAgain).filter((e) => e.type === 'led.pattern');
    expect(between.map((e) => e.state)).toContain('error');
    const after = hark.events.slice(upAgain).filter((e) => e.type === 'led.pattern');
    expect(after.at(-1)?.state).not.toBe('error');
  });

  it('hears every phrase exactly once', () => {
    expect(hark.of('utterance.final').map((u) => u.text)).toEqual(PHRASES);
    expect(hark.of('action').filter((a) => a.name === 'timer.set')).toHaveLength(1);
  });

  it('loses and duplicates no segment, and exits 0 on SIGTERM', () => {
    expect(exit).toEqual({ code: 0, signal: null });
    const closed = hark.of('segment.closed');
    const indexes = closed.map((c) => c.index);
    expect(new Set(indexes).size).toBe(indexes.length);
    const conn = new Database(db, { readonly: true });
    try {
      const rows = conn.prepare('SELECT stream_index AS i FROM segments ORDER BY id').all() as { i: number }[];
      expect(rows.map((r) => r.i)).toEqual(indexes);
    } finally {
      conn.close();
    }
  });
});
