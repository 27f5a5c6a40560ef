import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { resample } from '../../src/audio/resample.js';
import { EspeakTts } from '../../src/speech/espeak.js';
import { HarkProcess } from '../support/hark-process.js';
import { TINY_MODEL, outputDir, requireFile } from '../support/paths.js';
import { scene, writeScene } from '../support/speech.js';
import { PiperPeer } from '../support/wyoming-piper.js';
import { WhisperPeer } from '../support/wyoming-whisper.js';

/**
 * A Pi 4 of a fleet as configured in docs/wyoming.md: a real `hark run --input` (paced like a
 * microphone) with `stt.engines: [wyoming, whisper]` and a Wyoming voice, against two servers on
 * 127.0.0.1 that behave as the reference ones do (test/support/wyoming-whisper.ts: a transcript, then
 * the close; test/support/wyoming-piper.ts: 1,024-sample chunks at 22,050 Hz a little faster than real
 * time with gaps, the connection left open after audio-stop).
 *
 * The second phrase's server dies mid-segment: local Whisper (the test model) redoes it. The first
 * answer is said in the server's voice, streamed; the second answer comes in 32-bit samples, which
 * hark refuses: espeak-ng says it, hark hangs up on the server, and `--exit-at-end` exits. aplay is
 * real (ALSA null device) behind a wrapper that keeps a copy of every byte each run was given.
 */
const PHRASES = ['computer set a timer for five minutes', 'eighty six the salmon on table four', 'computer set a timer for thirty seconds'];

describe('hark run with Wyoming speech services', () => {
  let hark: HarkProcess;
  let asr: WhisperPeer;
  let tts: PiperPeer;
  let exit: { code: number | null; signal: NodeJS.Signals | null };
  let dir: string;
  /** Wall-clock ms when hark said the second answer had ended. */
  let secondSaidAt = 0;
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
    // A faster-whisper on a modest box: 300 ms a transcript.
    asr = await WhisperPeer.start({ models: ['tiny-int8'], transcribeMs: 300 });
    asr.script = [PHRASES[0]!, PHRASES[2]!];
    // The second segment: the server dies after a few chunks of its audio.
    asr.faults = [{ kind: 'none' }, { kind: 'die', afterChunks: 5 }];
    tts = await PiperPeer.start({ pace: { speed: 1.25, gapEvery: 6, gapMs: 40 }, synthMs: 150 });
    tts.faults = [{ kind: 'none' }, { kind: 'wide' }];
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
    // The debug page's view of the speech services, read while both servers are up.
    void hark
      .waitFor((e) => e.type === 'debug.listening', 30_000, 'the debug server')
      .then(async (e) => {
        await hark.waitFor((u) => u.type === 'utterance.final', 60_000, 'the first utterance');
        health = (await (await fetch(new URL('/healthz', String(e.url)))).json()) as typeof health;
      })
      .catch((err: unknown) => (health = { error: String(err) }));
    void hark
      .waitFor((e) => e.type === 'speak.end' && /^Timer set for 30/.test(String(e.text)), 90_000, 'the second answer said')
      .then(() => (secondSaidAt = Date.now()))
      .catch(() => {});
    // A leaked connection to the voice server (it keeps it open) would keep hark from exiting.
    exit = await Promise.race([
      hark.exited,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`hark did not exit; stderr:\n${hark.stderr.slice(-20).join('\n')}`)), 100_000)),
    ]);
    writeFileSync(join(dir, 'events.jsonl'), hark.events.map((e) => JSON.stringify(e)).join('\n') + '\n');
    writeFileSync(join(dir, 'stderr.log'), hark.stderr.join('\n') + '\n');
  }, 130_000);

  afterAll(async () => {
    hark?.kill('SIGKILL');
    await asr?.close();
    await tts?.close();
  });

  it('one utterance per phrase the server heard, from the wyoming engine, acted on once; hark exits at the end of its input', () => {
    expect(exit.code).toBe(0);
    const heard = hark.of('utterance.final').map((u) => [u.text, u.engine]);
    expect(heard).toEqual([
      [PHRASES[0], 'wyoming'],
      [PHRASES[2], 'wyoming'],
    ]);
    const timers = hark
      .of('action')
      .filter((a) => a.name === 'timer.set')
      .map((a) => (a.args as { seconds: number }).seconds);
    expect(timers).toEqual([300, 30]);
    // Each segment on its own connection: transcribe{language}, audio-start, the audio, audio-stop.
    const answered = asr.requests.filter((r) => r.text !== null);
    expect(answered).toHaveLength(2);
    expect(answered[0]!.language).toBe('en');
    expect(answered[0]!.conn.received.slice(0, 2)).toEqual(['transcribe', 'audio-start']);
    expect(answered[0]!.conn.received.at(-1)).toBe('audio-stop');
  });

  it('/healthz names the engines in order, the server’s models from its info, and the voice server’s voices', () => {
    expect(health.error).toBeUndefined();
    expect(health.speech?.engines).toEqual([
      { id: 'wyoming', missing: null, wyoming: { server: asr.url, answered: true, error: null, models: ['tiny-int8'], streams: false } },
      { id: 'whisper', missing: null, wyoming: null },
    ]);
    expect(health.speech?.voice).toEqual({
      server: tts.url,
      answered: true,
      error: null,
      voice: 'en_US-lessac-medium',
      voices: ['en_US-lessac-medium', 'en_GB-alan-low'],
    });
  });

  it('the server dying mid-segment hands the segment to Whisper; what it had is never dispatched', () => {
    const segs = hark.of('stt.segment') as unknown as { attempts: { engine: string; outcome: string; error?: string }[] }[];
    expect(segs).toHaveLength(3);
    expect(segs[1]!.attempts.map((a) => [a.engine, a.outcome])).toEqual([
      ['wyoming', 'failed'],
      ['whisper', 'ok'],
    ]);
    expect(segs[1]!.attempts[0]!.error).toMatch(
      new RegExp(`^wyoming closed: Wyoming server ${asr.url.replace(/[./]/g, '\\$&')}: (closed the connection|connection lost)`),
    );
    expect(hark.of('stt.fallback')).toMatchObject([{ from: 'wyoming', to: 'whisper' }]);
    expect(hark.of('utterance.final').map((u) => u.text)).not.toContain(PHRASES[1]);
  });

  it('the first answer is said in the server’s voice as it streamed in, every sample back to back (no silence inside it)', () => {
    expect(tts.requests[0]).toMatchObject({ text: 'Timer set for 5 minutes.', voice: 'en_US-lessac-medium', completed: true });
    const voice = resample(Float32Array.from(tts.audioFor('Timer set for 5 minutes.')), 22050, 16000);
    const voiceBytes = Buffer.from(Int16Array.from(voice, (v) => Math.max(-32768, Math.min(32767, Math.round(v)))).buffer);
    // The long-lived aplay got silence, then the whole answer exactly, then silence.
    expect(aplayRuns().some((r) => r.indexOf(voiceBytes) >= 0)).toBe(true);
  });

  it('the second answer, in 32-bit samples, is refused: espeak-ng says it and hark hangs up on the server (which keeps connections open)', async () => {
    expect(tts.requests[1]).toMatchObject({ text: 'Timer set for 30 seconds.' });
    expect(hark.stderr.some((l) => /Wyoming voice could not say it/.test(l) && /4 bytes wide/.test(l))).toBe(true);
    const espeak = await new EspeakTts({ voice: 'en-us', speed: 160, volume: 100 }).render('Timer set for 30 seconds.');
    const start = Buffer.from(espeak.buffer, espeak.byteOffset, espeak.byteLength).subarray(0, 3200);
    expect(aplayRuns().some((r) => r.indexOf(start) >= 0)).toBe(true);
    expect(hark.of('speak.start').filter((e) => String(e.text) === 'Timer set for 30 seconds.')).toHaveLength(1);
    expect(hark.of('speak.error')).toEqual([]);
    // Closed by hark while it was still running: before the answer had even ended.
    const conn = tts.requests[1]!.conn;
    expect(conn.closedBy).toBe('client');
    expect(secondSaidAt).toBeGreaterThan(0);
    expect(performance.timeOrigin + conn.closedAt!).toBeLessThan(secondSaidAt);
    expect(tts.connections.every((c) => c.closedBy === 'client')).toBe(true);
  });
});
