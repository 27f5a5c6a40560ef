import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Store } from '../../src/store/store.js';
import type { SegmentView } from '../../src/store/records.js';
import { DeepgramDouble } from '../support/deepgram-server.js';
import type { HarkProcess } from '../support/hark-process.js';
import { outputDir } from '../support/paths.js';
import { Room, startHarkInRoom } from '../support/room-devices.js';
import { rms } from '../support/room-sim.js';
import { espeakPhrase } from '../support/speech.js';

/**
 * A segment heard over playback, with the real `hark run` in the simulated kitchen (test/support/room-devices.ts): the
 * production capture path (AlsaCapture → arecord) and playback path (AplayPlayer → aplay, its reference
 * feeding the canceller), real espeak-ng. The person asks for an answer in silence, then speaks over
 * it; the log must hold the raw microphone and the playback spans for the second segment only.
 * The echo gate is off (fallback: off) so the word over the answer is heard however far the
 * canceller has converged.
 */
const ANSWER =
  'Preheat the oven to one hundred and eighty degrees, beat the butter with the sugar until pale, add the eggs one at a time, fold in the flour, and bake for twenty five minutes until golden and springy.';
const quiet = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('hark run: a segment said over hark playing keeps both tracks, one said in silence keeps one', () => {
  let hark: HarkProcess;
  let deepgram: DeepgramDouble;
  let room: Room;
  let dir: string;
  let commandAt = 0;
  let overAt = 0;
  let rows: SegmentView[] = [];
  let raw: ReturnType<Store['getRawAudio']>;

  const segmentAt = (captureMs: number) => rows.find((s) => s.startSample !== null && s.startSample / 16 <= captureMs && s.endSample! / 16 > captureMs);

  beforeAll(async () => {
    dir = outputDir('e2e-echo-track');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    deepgram = await DeepgramDouble.start({ apiKey: 'e2e-key' });
    room = await new Room(join(dir, 'bin'), { delayMs: 50, echoGain: 0.7, rt60Ms: 250 }).start();
    const rules = [{ exact: ['tell me briefly'], do: { say: ANSWER } }];
    hark = await startHarkInRoom(
      room,
      dir,
      deepgram.url,
      `actions:\n  dataDir: ${JSON.stringify(dir)}\nrouter:\n  mode: always-listen\n  frames:\n    base:\n      rules: ${JSON.stringify(rules)}\necho:\n  mode: cancel\n  fallback: off\n`,
    );

    // In silence: the command (said again if a stray segment took Deepgram's scripted line first).
    const command = await espeakPhrase('tell me briefly');
    for (let attempt = 0; ; attempt++) {
      const from = hark.events.length;
      deepgram.script = [{ text: 'tell me briefly' }];
      const at = room.now() + 1600;
      room.say(command, at, 2000 / rms(command));
      commandAt = room.captureMs(at + command.length / 2);
      const heard = await hark
        .waitFor((e) => e.type === 'speak.start' && hark.events.indexOf(e) >= from, 20_000, 'the answer to start')
        .then(() => true)
        .catch(() => false);
      if (heard) break;
      if (attempt === 1) throw new Error('hark never answered "tell me briefly"');
      await quiet(2000);
    }
    // 3 s into the answer, the person speaks over it, 6 dB above hark's echo at the mic.
    deepgram.script = [];
    await quiet(3000);
    const word = await espeakPhrase('what time is it', 'en-gb');
    const level = rms(room.echo, room.now() - 16000 - 2000, room.now() - 2000);
    const at = room.now() + 1600;
    room.say(word, at, (2 * Math.max(level, 300)) / rms(word));
    overAt = room.captureMs(at + word.length / 2);
    await quiet(1600 + word.length / 16 + 2500);
    hark.kill('SIGTERM');
    await hark.exited;

    const store = new Store({ path: join(dir, 'hark.db'), housekeeping: null });
    try {
      rows = store.listSegments({ limit: 500 }).segments;
      const over = segmentAt(overAt);
      raw = over ? store.getRawAudio(over.id) : undefined;
    } finally {
      store.close();
    }
  }, 180_000);

  afterAll(async () => {
    if (hark) writeFileSync(join(dir, 'stderr.log'), hark.stderr.join('\n') + '\n');
    hark?.kill('SIGKILL');
    await deepgram?.close();
    await room?.close();
  });

  it('stores the raw microphone and the playback spans for the segment said over the answer', () => {
    const over = segmentAt(overAt);
    expect(over, `no stored segment at ${overAt} ms; segments: ${JSON.stringify(rows.map((s) => [s.startSample, s.endSample]))}`).toBeDefined();
    expect(over!.echo).not.toBeNull();
    expect(over!.echo!.problem).toBeNull();
    expect(over!.echo!.raw).toBe(true);
    expect(over!.echo!.playback.length).toBeGreaterThan(0);
    expect(raw && 'pcm' in raw && raw.pcm.length).toBe(over!.sampleCount);
  });

  it('stores one track for the command said in silence', () => {
    const cmd = segmentAt(commandAt);
    expect(cmd, `no stored segment at ${commandAt} ms`).toBeDefined();
    expect(cmd!.transcripts.some((t) => t.text.toLowerCase().includes('tell me briefly'))).toBe(true);
    expect(cmd!.echo).toBeNull();
  });
});
