import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resample } from '../../src/audio/resample.js';
import { Bus, type HarkEventName } from '../../src/core/bus.js';
import { SystemClock } from '../../src/core/clock.js';
import { AplayPlayer } from '../../src/speech/aplay.js';
import { DeviceOutput } from '../../src/speech/device-output.js';
import { EarconBank } from '../../src/speech/earcons.js';
import { EspeakTts } from '../../src/speech/espeak.js';
import { SpeechQueue } from '../../src/speech/queue.js';
import { WyomingOutput } from '../../src/speech/wyoming-output.js';
import { StreamResampler } from '../../src/speech/wyoming-resampler.js';
import { voiceChoices } from '../../src/speech/wyoming-speech.js';
import { WyomingTts, WyomingVoice } from '../../src/speech/wyoming-voice.js';
import { parseServerUrl } from '../../src/wyoming/server-url.js';
import { outputDir } from '../support/paths.js';
import { toneFor, WyomingDouble, type WyomingDoubleOptions, type WyomingFault } from '../support/wyoming-server.js';

describe('StreamResampler: chunk by chunk is the whole-signal resample, sample for sample', () => {
  const toInt = (f: Float32Array) => Int16Array.from(f, (v) => Math.max(-32768, Math.min(32767, Math.round(v))));
  it.each([
    [22050, 16000],
    [24000, 16000],
    [16000, 16000],
    [44100, 16000],
    [8000, 16000],
  ])('%d → %d Hz, any chunking', (from, to) => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -32768, max: 32767 }), { minLength: 0, maxLength: 3000 }),
        fc.array(fc.integer({ min: 1, max: 700 }), { minLength: 1, maxLength: 20 }),
        (samples, cuts) => {
          const input = Int16Array.from(samples);
          const whole = toInt(resample(Float32Array.from(input), from, to));
          const r = new StreamResampler(from, to);
          const parts: number[] = [];
          let at = 0;
          let i = 0;
          while (at < input.length) {
            const n = cuts[i++ % cuts.length]!;
            parts.push(...r.push(input.subarray(at, at + n)));
            at += n;
          }
          parts.push(...r.end());
          expect(parts.length).toBe(whole.length);
          expect(parts).toEqual([...whole]);
        },
      ),
      { numRuns: 40 },
    );
  });
});

let server: WyomingDouble | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

function voiceFor(d: WyomingDouble, voice = '', firstChunkTimeoutMs = 1500): WyomingVoice {
  const u = parseServerUrl(d.url);
  if ('error' in u) throw new Error(u.error);
  return new WyomingVoice({ server: u.server, voice, connectTimeoutMs: 500, firstChunkTimeoutMs, chunkGapTimeoutMs: 1500 });
}

describe('WyomingVoice: synthesize against the double', () => {
  it.each(['inline', 'separate'] as const)('audio at the server’s 22050 Hz comes out at 16 kHz, the voice asked by name (data %s)', async (dataForm) => {
    server = await WyomingDouble.start({ dataForm });
    const voice = voiceFor(server, 'en_GB-alan-low');
    const pcm = await voice.render('timer set');
    const want = resample(Float32Array.from(toneFor('timer set', 22050)), 22050, 16000);
    expect(pcm.length).toBe(want.length);
    expect(Math.abs(pcm[1000]! - Math.round(want[1000]!))).toBeLessThanOrEqual(1);
    expect(server.tts()[0]).toMatchObject({ text: 'timer set', voice: 'en_GB-alan-low' });
  });

  it('lists the server’s voices for the picker, as a cook would say them', async () => {
    server = await WyomingDouble.start({ voices: ['en_US-lessac-medium', 'en_GB-alan-low', 'de_DE-thorsten-high'] });
    const info = await voiceFor(server).describe();
    expect(voiceChoices(info.voices.map((v) => v.name))).toEqual([
      { id: 'en_US-lessac-medium', say: ['lessac', 'lessac medium'] },
      { id: 'en_GB-alan-low', say: ['alan', 'alan low'] },
      { id: 'de_DE-thorsten-high', say: ['thorsten', 'thorsten high'] },
    ]);
  });

  it('a server that is away: the tts falls back to espeak-ng', async () => {
    server = await WyomingDouble.start();
    const v = voiceFor(server);
    await server.close();
    server = null;
    const tts = new WyomingTts(v, new EspeakTts({ voice: 'en-us', speed: 160, volume: 100 }));
    const pcm = await tts.render('hello');
    expect(pcm.length).toBeGreaterThan(4000);
  });
});

/**
 * The speaker end to end: the queue → WyomingOutput → a real aplay on ALSA's null device, behind a
 * wrapper that keeps a copy of every byte aplay was given (what the echo reference would see).
 */
function recordingAplay(name: string): { bin: string; got: () => Buffer } {
  const dir = outputDir('wyoming-voice');
  const raw = join(dir, `${name}.raw`);
  rmSync(raw, { force: true });
  const bin = join(dir, `${name}-aplay.sh`);
  // Each aplay run starts the copy afresh: after a fallback, the file holds what espeak-ng's run got.
  writeFileSync(bin, `#!/bin/sh\ntee "${raw}" | exec aplay "$@"\n`);
  chmodSync(bin, 0o755);
  return {
    bin,
    got: () => (existsSync(raw) ? readFileSync(raw) : Buffer.alloc(0)),
  };
}

async function speaker(opts: WyomingDoubleOptions, name: string, faults: WyomingFault[] = []) {
  server = await WyomingDouble.start(opts);
  server.faults = faults;
  const rec = recordingAplay(name);
  const clock = new SystemClock();
  const player = new AplayPlayer({ device: 'null', bin: rec.bin, clock });
  const espeak = new EspeakTts({ voice: 'en-us', speed: 160, volume: 100 });
  const fallback = new DeviceOutput({ player, tts: espeak, earcons: new EarconBank({ volume: 0.5 }) });
  const output = new WyomingOutput({ voice: voiceFor(server, '', 800), player, fallback });
  const bus = new Bus();
  const seen: { name: HarkEventName; payload: unknown; at: number }[] = [];
  bus.onAny((n, payload) => seen.push({ name: n, payload, at: Date.now() }));
  const queue = new SpeechQueue({ output, clock, bus });
  return { queue, rec, seen, espeak, names: () => seen.map((e) => e.name).filter((n) => n.startsWith('speak.')) };
}

describe('WyomingOutput: the Wyoming voice through aplay, espeak-ng behind it', () => {
  it('streams: aplay starts while the server is still sending, and gets every resampled sample', async () => {
    // 40 chunks 30 ms apart: the server takes over a second to send what plays in ~1.9 s.
    const { queue, rec, seen, names } = await speaker({ ttsChunkGapMs: 30 }, 'stream');
    const text = 'the salmon is eighty sixed for tonight';
    const outcome = await queue.say(text).done;
    expect(outcome).toBe('ended');
    expect(names()).toEqual(['speak.start', 'speak.end']);
    const want = resample(Float32Array.from(toneFor(text, 22050)), 22050, 16000);
    const got = new Int16Array(new Uint8Array(rec.got()).buffer);
    expect(got.length).toBe(want.length);
    // Sound started long before the server's last chunk could have been sent (40 × 30 ms).
    const start = seen.find((e) => e.name === 'speak.start')!.at;
    const end = seen.find((e) => e.name === 'speak.end')!.at;
    expect(end - start).toBeGreaterThan(1000);
  });

  it('barge-in stops it mid-stream: aplay is silenced and the server hung up on', async () => {
    const { queue, rec, names } = await speaker({ ttsChunkGapMs: 40 }, 'barge');
    const spoken = queue.say('a long answer that the cook talks over before it is done, and more words after that');
    await new Promise((r) => setTimeout(r, 500));
    expect(queue.isSpeaking).toBe(true);
    queue.stop('barge-in');
    expect(await spoken.done).toBe('stopped');
    await new Promise((r) => setTimeout(r, 300));
    const full = resample(
      Float32Array.from(toneFor('a long answer that the cook talks over before it is done, and more words after that', 22050)),
      22050,
      16000,
    ).length;
    expect(rec.got().length / 2).toBeLessThan(full / 2);
    expect(names()).toEqual(['speak.start', 'speak.stopped']);
    const ex = server!.tts()[0]!;
    expect(ex.completed).toBeFalsy();
    expect(ex.sentChunks).toBeLessThan(Math.ceil(toneFor('x'.repeat(84), 22050).length / 1024));
  });

  const faults: [string, WyomingFault[] | 'away'][] = [
    ['the server is away', 'away'],
    ['an error event', [{ kind: 'error-event', text: 'voice not found' }]],
    ['a garbage header', [{ kind: 'garbage-header' }]],
    ['silent past the first-chunk timeout', [{ kind: 'slow', ms: 2000 }]],
    ['closed mid-answer', [{ kind: 'close-mid-stream', afterChunks: 3 }]],
  ];
  it.each(faults)('%s: espeak-ng says it, so the answer is not lost', async (_name, f) => {
    const { queue, rec, names, espeak } = await speaker({}, `fallback-${_name.replace(/\W+/g, '-')}`, f === 'away' ? [] : f);
    if (f === 'away') {
      await server!.close();
      server = null;
    }
    const outcome = await queue.say('timer set').done;
    expect(outcome).toBe('ended');
    expect(names().at(-1)).toBe('speak.end');
    expect(names()).not.toContain('speak.error');
    // What aplay got last is espeak-ng's rendering of the words.
    const said = await espeak.render('timer set');
    const got = rec.got();
    expect(got.length).toBe(said.byteLength);
  });
});

describe('createSpeech with speech.wyoming', () => {
  it('the picker gets the server’s voices; picking one makes the next answer use it', async () => {
    const { createSpeech } = await import('../../src/speech/create.js');
    const { validateConfig } = await import('../../src/config/load.js');
    server = await WyomingDouble.start({ voices: ['en_US-lessac-medium', 'en_GB-alan-low'] });
    const config = validateConfig({ speech: { device: 'null', wyoming: { server: server.url, voice: 'en_US-lessac-medium' } } }, 'test');
    const speech = createSpeech(config, { bus: new Bus(), clock: new SystemClock() });
    try {
      expect(await speech.voices!()).toEqual([
        { id: 'en_US-lessac-medium', say: ['lessac', 'lessac medium'] },
        { id: 'en_GB-alan-low', say: ['alan', 'alan low'] },
      ]);
      // The voice.set effect goes to speech.tts.setVoice.
      speech.tts!.setVoice('en_GB-alan-low');
      const pcm = await speech.tts!.render('Voice set.');
      expect(pcm.length).toBeGreaterThan(0);
      expect(server.tts().at(-1)).toMatchObject({ text: 'Voice set.', voice: 'en_GB-alan-low' });
    } finally {
      speech.close();
    }
  });

  it('without a server: espeak-ng only, no server voices', async () => {
    const { createSpeech } = await import('../../src/speech/create.js');
    const { validateConfig } = await import('../../src/config/load.js');
    const speech = createSpeech(validateConfig({ speech: { device: 'null' } }, 'test'), { bus: new Bus(), clock: new SystemClock() });
    expect(speech.voices).toBeUndefined();
    expect(speech.tts).toBeInstanceOf(EspeakTts);
    speech.close();
  });
});
