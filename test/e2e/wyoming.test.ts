import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { resample } from '../../src/audio/resample.js';
import { EspeakTts } from '../../src/speech/espeak.js';
import { HarkProcess } from '../support/hark-process.js';
import { TINY_MODEL, outputDir, requireFile } from '../support/paths.js';
import { scene, writeScene } from '../support/speech.js';
import { toneFor, WyomingDouble } from '../support/wyoming-server.js';

/**
 * A Pi 4 of a fleet as configured in the README: a real `hark run --input` (paced like a microphone)
 * with `stt.engines: [wyoming, whisper]` and a Wyoming voice, against two Wyoming doubles on
 * 127.0.0.1 (speech-to-text, and a Piper-like voice at 22050 Hz). The second phrase's server dies
 * mid-segment: local Whisper (the test model) redoes it. The first answer is said in the server's
 * voice; the voice server is then stopped and espeak-ng says the second. aplay is real (ALSA null
 * device) behind a wrapper that keeps a copy of every byte each run was given.
 */
const PHRASES = ['computer set a timer for five minutes', 'eighty six the salmon on table four', 'computer set a timer for thirty seconds'];

describe('hark run with Wyoming speech services', () => {
  let hark: HarkProcess;
  let asr: WyomingDouble;
  let tts: WyomingDouble;
  let exit: { code: number | null; signal: NodeJS.Signals | null };
  let dir: string;
  let ttsDownAt = 0;
  let ttsUrl = '';
  let health: { speech?: { engines: unknown[]; voice: unknown }; error?: string } = {};

  const aplayRuns = () =>
    readdirSync(join(dir, 'aplay'))
      .filter((f) => f.endsWith('.raw'))
      .map((f) => readFileSync(join(dir, 'aplay', f)));

  beforeAll(async () => {
    dir = outputDir('e2e-wyoming');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(join(dir, 'bin'), { recursive: true });
    mkdirSync(join(dir, 'aplay'), { recursive: true });
    const realAplay = execFileSync('sh', ['-c', 'command -v aplay'], { encoding: 'utf8' }).trim();
    // First on PATH: a copy of what each aplay run is given, then the real aplay on the null device.
    writeFileSync(join(dir, 'bin', 'aplay'), `#!/bin/sh\ntee "${join(dir, 'aplay')}/run-$$.raw" | exec "${realAplay}" "$@"\n`);
    chmodSync(join(dir, 'bin', 'aplay'), 0o755);

    const s = await scene([1000, PHRASES[0]!, 4500, PHRASES[1]!, 3000, PHRASES[2]!, 9000]);
    const wav = await writeScene(s, 'wyoming');
    asr = await WyomingDouble.start({ streaming: true });
    asr.script = [PHRASES[0]!, PHRASES[2]!];
    asr.faultsFor = 'asr';
    // The second segment: the server dies after a few chunks of its audio.
    asr.faults = [{ kind: 'none' }, { kind: 'close-mid-stream', afterChunks: 5 }];
    tts = await WyomingDouble.start({ ttsChunkGapMs: 10 });
    ttsUrl = tts.url;
    writeFileSync(
      join(dir, 'hark.yaml'),
      [
        'stt:',
        '  engines: [wyoming, whisper]',
        // The machine running the tests is shared: Whisper's own deadline is not what is tested here.
        '  whisper:',
        '    threads: 2',
        '    deadlineBaseMs: 60000',
        '  wyoming:',
        `    server: ${asr.url}`,
        'speech:',
        '  device: "null"',
        '  wyoming:',
        `    server: ${tts.url}`,
        '    voice: en_US-lessac-medium',
        'actions:',
        `  dataDir: ${JSON.stringify(dir)}`,
        '',
      ].join('\n'),
    );
    hark = new HarkProcess(['--db', join(dir, 'hark.db'), '--port', '0', '--model', requireFile(TINY_MODEL), '--input', wav, '--exit-at-end'], {
      ...process.env,
      PATH: `${join(dir, 'bin')}:${process.env.PATH}`,
      HARK_CONFIG: join(dir, 'hark.yaml'),
    });
    // The debug page's view of the speech services (issue 23), read while both servers are up.
    void hark
      .waitFor((e) => e.type === 'debug.listening', 30_000, 'the debug server')
      .then(async (e) => {
        await hark.waitFor((u) => u.type === 'utterance.final', 60_000, 'the first utterance');
        health = (await (await fetch(new URL('/healthz', String(e.url)))).json()) as typeof health;
      })
      .catch((err: unknown) => (health = { error: String(err) }));
    // Once the first answer has been said in the server's voice, the voice server goes away.
    void hark
      .waitFor((e) => e.type === 'speak.end' && /^Timer set/.test(String(e.text)), 60_000, 'the first answer said')
      .then(async () => {
        await tts.close();
        ttsDownAt = Date.now();
      })
      .catch(() => {});
    exit = await Promise.race([hark.exited, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`hark did not finish; stderr:\n${hark.stderr.slice(-20).join('\n')}`)), 100_000))]);
    writeFileSync(join(dir, 'events.jsonl'), hark.events.map((e) => JSON.stringify(e)).join('\n') + '\n');
    writeFileSync(join(dir, 'stderr.log'), hark.stderr.join('\n') + '\n');
  }, 130_000);

  afterAll(async () => {
    hark?.kill('SIGKILL');
    await asr?.close();
    if (!ttsDownAt) await tts?.close();
  });

  it('one utterance per phrase the server heard, from the wyoming engine, acted on once', () => {
    expect(exit.code).toBe(0);
    const heard = hark.of('utterance.final').map((u) => [u.text, u.engine]);
    expect(heard).toEqual([
      [PHRASES[0], 'wyoming'],
      [PHRASES[2], 'wyoming'],
    ]);
    const timers = hark.of('action').filter((a) => a.name === 'timer.set').map((a) => (a.args as { seconds: number }).seconds);
    expect(timers).toEqual([300, 30]);
    // Each segment streamed to the server: transcribe, audio-start at 16 kHz, pre-roll first.
    const exchanges = asr.asr();
    expect(exchanges).toHaveLength(3);
    expect(exchanges[0]!.events[0]).toMatchObject({ type: 'transcribe', data: { language: 'en' } });
    expect(exchanges[0]!.events[1]).toMatchObject({ type: 'audio-start', data: { rate: 16000, width: 2, channels: 1 } });
  });

  it('/healthz names the engines in order, the server’s models from its info, and the voice server’s voices', () => {
    expect(health.error).toBeUndefined();
    expect(health.speech?.engines).toEqual([
      { id: 'wyoming', missing: null, wyoming: { server: asr.url, answered: true, error: null, models: ['tiny-int8'], streams: true } },
      { id: 'whisper', missing: null, wyoming: null },
    ]);
    expect(health.speech?.voice).toEqual({ server: ttsUrl, answered: true, error: null, voice: 'en_US-lessac-medium', voices: ['en_US-lessac-medium', 'en_GB-alan-low'] });
  });

  it('the server dying mid-segment hands the segment to Whisper; what it had is never dispatched', () => {
    const segs = hark.of('stt.segment') as unknown as { attempts: { engine: string; outcome: string; error?: string }[] }[];
    expect(segs).toHaveLength(3);
    expect(segs[1]!.attempts.map((a) => [a.engine, a.outcome])).toEqual([
      ['wyoming', 'failed'],
      ['whisper', 'ok'],
    ]);
    expect(segs[1]!.attempts[0]!.error).toMatch(new RegExp(`^wyoming closed: Wyoming server ${asr.url.replace(/[./]/g, '\\$&')}: (closed the connection|connection lost)`));
    expect(hark.of('stt.fallback')).toMatchObject([{ from: 'wyoming', to: 'whisper' }]);
    expect(hark.of('utterance.final').map((u) => u.text)).not.toContain(PHRASES[1]);
  });

  it('the first answer is said in the server’s voice, streamed to aplay; the second by espeak-ng when the server is down', async () => {
    expect(ttsDownAt).toBeGreaterThan(0);
    const asked = tts.tts();
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ text: 'Timer set for 5 minutes.', voice: 'en_US-lessac-medium', completed: true });
    const runs = aplayRuns();
    // The double's voice, resampled to 16 kHz, sample for sample.
    const voice = resample(Float32Array.from(toneFor('Timer set for 5 minutes.', 22050)), 22050, 16000);
    const voiceBytes = Buffer.from(Int16Array.from(voice, (v) => Math.max(-32768, Math.min(32767, Math.round(v)))).buffer);
    // Within what aplay got, in order: with the echo canceller in force one long-lived aplay plays
    // everything, silence between clips and wherever the server's stream ran dry (src/speech/aplay-stream.ts).
    const voiced = (b: Buffer) => {
      const pcm = new Int16Array(b.buffer.slice(b.byteOffset, b.byteOffset + (b.length & ~1)));
      return Buffer.from(pcm.filter((v) => v !== 0).buffer);
    };
    expect(runs.some((r) => voiced(r).indexOf(voiced(voiceBytes)) >= 0)).toBe(true);
    // espeak-ng's rendering of the second answer, with the configured voice: what aplay got is it, from
    // its start (on a loaded machine the run can end before it is all said: shutdown stops the speaker).
    const espeak = await new EspeakTts({ voice: 'en-us', speed: 160, volume: 100 }).render('Timer set for 30 seconds.');
    const espeakBytes = Buffer.from(espeak.buffer, espeak.byteOffset, espeak.byteLength);
    expect(hark.of('speak.start').map((e) => String(e.text))).toContain('Timer set for 30 seconds.');
    expect(hark.of('speak.error')).toEqual([]);
    const start = espeakBytes.subarray(0, 3200);
    expect(runs.some((r) => r.indexOf(start) >= 0)).toBe(true);
  });
});
