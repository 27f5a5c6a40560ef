import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeWavFile } from '../../src/audio/wav.js';
import { DeepgramDouble } from '../support/deepgram-server.js';
import { HARK_BIN, outputDir, requireFile, TINY_MODEL } from '../support/paths.js';
import { espeakPhrase, scene, writeScene } from '../support/speech.js';

/**
 * The real `node bin/hark.js transcribe`: real WAV decoding, the real VAD and segmenter, the real
 * whisper.cpp with the test model (it loads, runs and hears nothing), and the production Deepgram
 * adapter talking to the protocol double on 127.0.0.1.
 */
const dir = outputDir('stt-transcribe-cli');
let dg: DeepgramDouble;
let twoPhrases: string;
let oneClip: string;
let config: string;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function hark(args: string[], env: Record<string, string | undefined> = {}, timeout = 90_000): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [HARK_BIN, ...args],
      { env: { ...process.env, DEEPGRAM_API_KEY: undefined, HARK_CONFIG: undefined, ...env }, timeout },
      (err, stdout, stderr) => {
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

const lines = (s: string) => s.trim().split('\n').filter(Boolean);
const json = (s: string) => lines(s).map((l) => JSON.parse(l) as Record<string, unknown>);

beforeAll(async () => {
  dg = await DeepgramDouble.start({ apiKey: 'cli-key' });
  twoPhrases = await writeScene(await scene([400, 'turn on the lights', 900, 'stop the timer', 1000]), 'stt-two-phrases');
  oneClip = join(dir, 'lights.wav');
  await writeWavFile(oneClip, await espeakPhrase('lights off'));
  // The test model is slow on this machine's SIMD-less build: no encoder pad, a generous deadline.
  config = join(dir, 'hark.yaml');
  writeFileSync(config, 'stt:\n  whisper:\n    audioCtxPad: 0\n    deadlineBaseMs: 120000\n  deepgram:\n    connectTimeoutMs: 3000\n');
}, 60_000);
afterAll(async () => {
  await dg.close();
});

describe('hark transcribe', () => {
  it('--no-vad, local-only: one line for the whole file, the empty transcript shown with its reason', async () => {
    const r = await hark(['transcribe', oneClip, '--no-vad', '--stt-mode', 'local-only', '--model', requireFile(TINY_MODEL), '--config', config]);
    expect(r.code, r.stderr).toBe(0);
    expect(lines(r.stdout)).toEqual([expect.stringMatching(/^#000  0\.00s-\d\.\d\ds  whisper  \d+ ms  \(dropped: blank: no text\)$/)]);
  }, 120_000);

  it('local-first: Whisper hears nothing on clear speech, so each segment goes to Deepgram; --json says so', async () => {
    dg.script = [{ text: 'Turn on the lights.' }, { text: 'Stop the timer.' }];
    const r = await hark(
      ['transcribe', twoPhrases, '--json', '--stt-mode', 'local-first', '--model', TINY_MODEL, '--deepgram-url', dg.url, '--config', config],
      { DEEPGRAM_API_KEY: 'cli-key' },
    );
    expect(r.code, r.stderr).toBe(0);
    const recs = json(r.stdout);
    expect(recs).toHaveLength(2);
    expect(recs.map((x) => [x.segment, x.text, x.engine, x.closeReason])).toEqual([
      [0, 'Turn on the lights.', 'deepgram', 'hangover'],
      [1, 'Stop the timer.', 'deepgram', 'hangover'],
    ]);
    for (const x of recs) {
      expect(x.fallbackReason).toMatch(/^whisper blank on clear speech \(blank: no text; VAD peak [01]\.\d\d\)$/);
      expect(x).toHaveProperty('rawText', x.text);
      expect(typeof x.sttMs).toBe('number');
      expect(x.attempts).toMatchObject([
        { engine: 'whisper', outcome: 'ok' },
        { engine: 'deepgram', outcome: 'ok' },
      ]);
    }
    expect(dg.last!.query).toMatchObject({ model: 'nova-3', encoding: 'linear16', sample_rate: '16000' });
  }, 120_000);

  it('cloud-only needs no model; with the key rejected each segment is dropped saying why', async () => {
    dg.script = [{ text: 'Turn on the lights.' }, { text: 'Stop the timer.' }];
    const ok = await hark(
      ['transcribe', twoPhrases, '--stt-mode', 'cloud-only', '--model', '/nonexistent/model.bin', '--deepgram-url', dg.url, '--config', config],
      { DEEPGRAM_API_KEY: 'cli-key' },
    );
    expect(ok.code, ok.stderr).toBe(0);
    expect(lines(ok.stdout)).toEqual([
      expect.stringMatching(/^#000 .* deepgram  \d+ ms  "Turn on the lights\."$/),
      expect.stringMatching(/^#001 .* deepgram  \d+ ms  "Stop the timer\."$/),
      expect.stringMatching(/^2 segment\(s\), \d+\.\d\ds of audio, stt cloud-only$/),
    ]);
    const bad = await hark(['transcribe', twoPhrases, '--json', '--stt-mode', 'cloud-only', '--deepgram-url', dg.url, '--config', config], {
      DEEPGRAM_API_KEY: 'wrong-key',
    });
    expect(bad.code).toBe(0);
    const recs = json(bad.stdout);
    expect(recs.map((x) => x.dropReason)).toEqual([
      expect.stringMatching(/^deepgram auth: Deepgram rejected the API key .*401/),
      expect.stringMatching(/^deepgram unavailable: circuit open after deepgram auth/),
    ]);
  }, 120_000);

  it('a missing model is a clear error naming the path and the fetch command (exit 2)', async () => {
    const r = await hark(['transcribe', oneClip, '--stt-mode', 'local-only', '--model', join(dir, 'ggml-base.en-q5_1.bin')]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(
      `hark: whisper model ${join(dir, 'ggml-base.en-q5_1.bin')} does not exist; get a good copy with \`hark model fetch base.en-q5_1\` (or set stt.whisper.model / --model)`,
    );
    expect(r.stdout).toBe('');
  });

  it('a cloud mode without DEEPGRAM_API_KEY, and a bad --stt-mode, are refused up front', async () => {
    const noKey = await hark(['transcribe', oneClip, '--stt-mode', 'cloud-first', '--model', TINY_MODEL]);
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toMatch(/stt\.mode cloud-first needs a Deepgram API key: set DEEPGRAM_API_KEY/);
    const badMode = await hark(['transcribe', oneClip, '--stt-mode', 'cloud-maybe']);
    expect(badMode.code).toBe(2);
    expect(badMode.stderr).toMatch(/--stt-mode must be one of local-first, cloud-first, local-only, cloud-only/);
  });
});
