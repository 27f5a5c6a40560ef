import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeepgramDouble } from '../support/deepgram-server.js';
import { TINY_MODEL, requireFile } from '../support/paths.js';
import { hark, sha256, sideFiles, writeConfig, writeLog, type Spoken } from './fixtures.js';

/**
 * Full replay: the stored audio through the new config's VAD and speech-to-text, then the router.
 * Deepgram is the protocol-faithful local double (what it "hears" is scripted, so the new
 * transcript differs in a known way); Whisper is the weightless test model (it hears nothing).
 */

const now = Date.now();
const T = now - 30 * 60_000;

const morning: Spoken[] = [
  { at: T, phrase: 'computer', heard: 'Computer.' },
  {
    at: T + 2_500,
    phrase: 'set a timer for ten minutes',
    heard: 'Set a timer for ten minutes.',
    actions: [{ name: 'timer.set', args: { seconds: 600 }, outcome: 'ok' }],
    later: [{ afterMs: 600_000 - 300, action: { name: 'timer.done', args: { seconds: 600 }, outcome: 'ok' } }],
  },
  { at: T + 20 * 60_000, phrase: 'stop', heard: 'Stop.', actions: [{ name: 'stop', args: {}, outcome: 'ok' }], noAudio: true },
];

let dir: string;
let db: string;
let ids: number[];
let deepgram: DeepgramDouble;
let audioBytes: number;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hark-replay-full-'));
  db = join(dir, 'hark.db');
  ({ ids, audioBytes } = await writeLog(db, morning));
  deepgram = await DeepgramDouble.start();
}, 60_000);

afterAll(async () => {
  await deepgram?.close();
  rmSync(dir, { recursive: true, force: true });
});

const cloud = (extra: Record<string, unknown> = {}) =>
  writeConfig(dir, `cloud-${Math.random().toString(36).slice(2)}.yaml`, { stt: { mode: 'cloud-only', deepgram: { url: deepgram.url } }, ...extra });
const KEY = { DEEPGRAM_API_KEY: 'test-key' };

describe('hark replay (full: audio, VAD, speech-to-text, router)', () => {
  it('a different transcript shows as a different text and different actions; audio-less segments fall back to their text', async () => {
    deepgram.script = [{ text: 'Computer.' }, { text: 'Set a timer for five minutes.' }];
    const before = deepgram.connections.reduce((n, c) => n + c.audioBytes, 0);
    const r = await hark(['replay', '--db', db, '--config', cloud(), '--all'], KEY);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toMatch(new RegExp(`^#${ids[0]} (?:\\d{4}-\\d{2}-\\d{2} )?\\S+ same  text: "Computer\\."  actions: \\(none\\)$`));
    expect(lines[1]).toMatch(
      new RegExp(
        `^#${ids[1]} (?:\\d{4}-\\d{2}-\\d{2} )?\\S+ differs  text: "Set a timer for ten minutes\\." → "Set a timer for five minutes\\."  ` +
          'actions: timer\\.set\\{seconds=600\\}, timer\\.done\\{seconds=600\\} \\(later\\) → timer\\.set\\{seconds=300\\}, timer\\.done\\{seconds=300\\} \\(later\\)$',
      ),
    );
    expect(lines[2]).toMatch(
      new RegExp(`^#${ids[2]} (?:\\d{4}-\\d{2}-\\d{2} )?\\S+ same  text: "Stop\\."  actions: stop  \\[no audio stored: replayed from its stored text\\]$`),
    );
    expect(lines[3]).toBe('3 segments replayed: 1 differ [text 1, actions 1], 2 same; 1 from stored text (no audio stored)');
    // What reached speech-to-text is the stored audio, byte for byte, and nothing for the audio-less one.
    expect(deepgram.connections.reduce((n, c) => n + c.audioBytes, 0) - before).toBe(audioBytes);
  });

  it('a VAD change that drops "computer" loses the timer after it (the router state carries over, as on the appliance)', async () => {
    deepgram.script = [{ text: 'Set a timer for ten minutes.' }];
    const r = await hark(['replay', '--db', db, '--config', cloud({ vad: { minSegmentMs: 1500 } }), '--json'], KEY);
    expect(r.code).toBe(0);
    const [computer, timer, stop, summary] = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, any>);
    expect(computer).toEqual(expect.objectContaining({ status: 'differs', differences: ['vad', 'text'] }));
    expect(computer!.new.vad).toEqual({ result: 'dropped', pieces: 0, reason: expect.stringMatching(/^\d+ ms of speech, under vad\.minSegmentMs 1500$/) });
    expect(timer).toEqual(expect.objectContaining({ status: 'differs', differences: ['actions'] }));
    expect(timer!.new.vad).toEqual({ result: 'kept', pieces: 1, maxProb: expect.any(Number) });
    expect(timer!.new.ignored).toEqual([{ frame: 'base', text: 'Set a timer for ten minutes.', reason: 'wake-word mode and no wake phrase' }]);
    expect(timer!.new.actions).toEqual([]);
    expect(stop).toEqual(expect.objectContaining({ status: 'same', input: 'text', note: 'no audio stored: replayed from its stored text' }));
    expect(summary).toEqual(expect.objectContaining({ replayed: 3, differ: 2, same: 1, differences: { vad: 1, text: 1, actions: 1 } }));

    deepgram.script = [{ text: 'Set a timer for ten minutes.' }];
    const human = await hark(['replay', '--db', db, '--config', cloud({ vad: { minSegmentMs: 1500 } })], KEY);
    expect(human.stdout).toMatch(
      / differs  vad: dropped \(\d+ ms of speech, under vad\.minSegmentMs 1500\)  text: "Computer\." → \(nothing: no segment\)  actions: \(none\)\n/,
    );
    expect(human.stdout).toMatch(
      / differs  text: "Set a timer for ten minutes\."  actions: timer\.set\{seconds=600\}, timer\.done\{seconds=600\} \(later\) → \(none: ignored: wake-word mode and no wake phrase\)\n/,
    );
  });

  it('Whisper from --model: the weightless test model hears nothing where the log had words (--no-vad, --since a time)', async () => {
    // The test model is slow on this machine's SIMD-less build: no encoder pad, a generous deadline.
    const local = writeConfig(dir, 'local.yaml', { stt: { mode: 'local-only', whisper: { audioCtxPad: 0, deadlineBaseMs: 120_000 } } });
    const before = sha256(db);
    // From the timer segment on: one Whisper run keeps this test short.
    const r = await hark(
      ['replay', '--db', db, '--config', local, '--model', requireFile(TINY_MODEL), '--no-vad', '--since', new Date(T + 2_500).toISOString()],
      {},
      120_000,
    );
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toMatch(
      new RegExp(
        `^#${ids[1]} (?:\\d{4}-\\d{2}-\\d{2} )?\\S+ differs  text: "Set a timer for ten minutes\\." → \\(nothing: blank: no text\\)  actions: timer\\.set\\{seconds=600\\}, timer\\.done\\{seconds=600\\} \\(later\\) → \\(none: nothing heard: blank: no text\\)$`,
      ),
    );
    expect(lines[1]).toBe('2 segments replayed: 1 differ [text 1, actions 1], 1 same; 1 from stored text (no audio stored)');
    expect(sha256(db)).toBe(before);
    expect(sideFiles(db)).toEqual([]);
  }, 120_000);

  it('a cloud mode without a key, a missing model and --text-only with audio flags are refused before anything runs', async () => {
    const noKey = await hark(['replay', '--db', db, '--config', cloud()]);
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain('needs a Deepgram API key: set DEEPGRAM_API_KEY');
    const noModel = await hark([
      'replay',
      '--db',
      db,
      '--config',
      writeConfig(dir, 'local2.yaml', { stt: { mode: 'local-only' } }),
      '--model',
      join(dir, 'nope.bin'),
    ]);
    expect(noModel.code).not.toBe(0);
    expect(noModel.stderr).toContain(join(dir, 'nope.bin'));
    const mixed = await hark(['replay', '--db', db, '--text-only', '--model', join(dir, 'nope.bin')]);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toBe('hark: --text-only replays stored transcripts: --model, --stt-mode, --deepgram-url and --no-vad do not apply\n');
  });
});
