import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { writeWavFile } from '../../src/audio/wav.js';
import { decodeToPcm } from '../../src/ha/satellite/media.js';
import { MUTE_KEY } from '../../src/ha/satellite/satellite.js';
import { DeepgramDouble } from '../support/deepgram-server.js';
import { msg, nextMessage } from '../support/esphome-client.js';
import { mediaServer, ttsFile } from '../support/esphome-media.js';
import { HaSatellitePeer } from '../support/ha-satellite-peer.js';
import { locate, sceneStt } from '../support/ha-satellite-scene-stt.js';
import { HarkProcess } from '../support/hark-process.js';
import { outputDir } from '../support/paths.js';
import { scene, type Scene } from '../support/speech.js';

/**
 * hark as an Assist satellite, end to end: a real `hark run --input` (cloud-only against the
 * Deepgram double, which "hears" the scripted words and times them), Home Assistant played by a real
 * ESPHome native API client from npm over 127.0.0.1 reacting as Home Assistant does
 * (test/support/ha-satellite-peer.ts: aioesphomeapi, the ESPHome satellite entity, the pipeline),
 * the TTS answer and the announcement served over HTTP by the test (espeak-ng → sox), and a fake
 * `aplay` first on PATH that keeps every byte hark plays.
 *
 * The first command is nothing hark's rules take ("computer, turn on the extractor fan"): it goes to
 * Home Assistant with its audio from the pause after the wake word, and Home Assistant's own
 * speech-to-text must hear the command and nothing of "computer". The second is a timer: hark's own
 * rules take it, no network.
 */
const WAKE = 'computer';
const COMMAND = 'turn on the extractor fan';
const PHRASES = [`${WAKE} ${COMMAND}`, 'computer set a timer for five minutes'];
const ANSWER = 'The extractor fan is on.';

/**
 * Where Deepgram would put each word of "computer turn on the extractor fan", in seconds from the
 * segment's first byte, given where the segment's first word starts in it (its pre-roll): the wake
 * word as the scene has it, the command's words spread over the command.
 */
function wordTiming(s: Scene, leadSec: number): Array<[number, number]> {
  const [wake, command] = s.phrases;
  const t = (n: number) => leadSec + (n - wake!.start) / 16000;
  const words = COMMAND.split(' ');
  const span = (command!.end - command!.start) / words.length;
  return [[t(wake!.start), t(wake!.end)], ...words.map((_, i): [number, number] => [t(command!.start + i * span), t(command!.start + (i + 1) * span)])];
}

function fakeAplay(dir: string): string {
  const bin = join(dir, 'bin');
  mkdirSync(bin, { recursive: true });
  mkdirSync(join(dir, 'played'), { recursive: true });
  writeFileSync(join(bin, 'aplay'), `#!/bin/bash\nexec cat > ${JSON.stringify(join(dir, 'played'))}/$(date +%s%N)-$$.raw\n`);
  chmodSync(join(bin, 'aplay'), 0o755);
  return bin;
}

const played = (dir: string) =>
  readdirSync(join(dir, 'played'))
    .sort()
    .map((f) => readFileSync(join(dir, 'played', f)));

for (const encrypted of [false, true]) {
  describe(`hark as an Assist satellite (${encrypted ? 'Noise-encrypted' : 'plaintext'})`, () => {
    const dir = outputDir(`e2e-satellite-${encrypted ? 'noise' : 'plain'}`);
    const key = encrypted ? randomBytes(32).toString('base64') : '';
    let s: Scene;
    let deepgram: DeepgramDouble;
    let media: Awaited<ReturnType<typeof mediaServer>>;
    let hark: HarkProcess;
    let peer: HaSatellitePeer;
    let answer: Int16Array;

    beforeAll(async () => {
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      // Silence first: Home Assistant connects and subscribes before the first word. The wake word
      // and the command with a short pause between, inside one segment, as people say it.
      s = await scene([5000, WAKE, 200, COMMAND, 6000, PHRASES[1]!, 3000]);
      const wav = join(dir, 'input.wav');
      await writeWavFile(wav, s.pcm);
      const mp3 = ttsFile(dir, ANSWER, 'mp3');
      answer = await decodeToPcm(mp3);
      media = await mediaServer({ '/api/tts_proxy/answer.mp3': mp3, '/api/tts_proxy/dinner.wav': ttsFile(dir, 'Dinner is ready.', 'wav') });
      deepgram = await DeepgramDouble.start({ apiKey: 'e2e-key' });
      // Deepgram's live cadence, with each word where it is in the audio: the segment opens 500 ms
      // (the VAD's pre-roll) before its first word.
      deepgram.cadence = 'live';
      deepgram.script = [{ text: PHRASES[0]!, timing: wordTiming(s, 0.5) }, { text: PHRASES[1]! }];
      writeFileSync(
        join(dir, 'hark.yaml'),
        `actions:\n  dataDir: ${JSON.stringify(dir)}\nspeech:\n  device: "null"\nha:\n  satellite:\n    enabled: true\n    port: 0\n    host: 127.0.0.1\n    name: hark-e2e\n    mdns: false\n`,
      );
      hark = new HarkProcess(['--db', join(dir, 'hark.db'), '--port', '0', '--stt-mode', 'cloud-only', '--deepgram-url', deepgram.url, '--input', wav], {
        ...process.env,
        PATH: `${fakeAplay(dir)}:${process.env.PATH}`,
        DEEPGRAM_API_KEY: 'e2e-key',
        HARK_CONFIG: join(dir, 'hark.yaml'),
        ...(key ? { HARK_HA_API_KEY: key } : {}),
      });
      const listening = await hark.waitFor((e) => e.type === 'ha.satellite.listening', 30_000, 'the native API');
      expect(listening).toMatchObject({ encrypted, name: 'hark-e2e' });
      // Home Assistant as it really runs a satellite's pipeline: its own speech-to-text hears what the audio holds.
      peer = await HaSatellitePeer.connect(Number(listening.port), {
        stt: sceneStt(s),
        agent: () => ({ speech: ANSWER }),
        ttsUrl: () => media.url('/api/tts_proxy/answer.mp3'),
        ...(key ? { encryptionKey: key, expectedServerName: 'hark-e2e' } : {}),
      });
      await hark.waitFor((e) => e.type === 'ha.satellite.subscribed', 5000, 'the subscription');
      // The first command goes to Home Assistant, which runs it to the end: hark plays the answer and says so.
      await peer.until(() => peer.runs.length === 1 && peer.announceFinished.length === 1, 60_000, 'the run to complete');
    }, 120_000);

    afterAll(async () => {
      peer?.conn.disconnect();
      hark?.kill('SIGKILL');
      await deepgram?.close();
      await media?.close();
    });

    it('garbage on the port closes that connection with a log line; hark and Home Assistant go on', async () => {
      const port = Number(hark.of('ha.satellite.listening')[0]!.port);
      const got: Buffer[] = [];
      await new Promise<void>((resolve) => {
        const sock = connect(port, '127.0.0.1', () => sock.write('GET / HTTP/1.1\r\n\r\n'));
        sock.on('data', (d) => got.push(d));
        sock.on('error', () => {});
        sock.on('close', () => resolve());
      });
      // Encrypted, hark answers as ESPHome does: an explicit handshake rejection, then the close.
      expect(Buffer.concat(got).toString('latin1')).toBe(encrypted ? '\x01\x00\x13\x01Bad indicator byte' : '');
      const end = Date.now() + 3000;
      while (!hark.stderr.some((l) => l.includes('bad indicator byte 0x47')) && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
      expect(hark.stderr.join('\n')).toMatch(/connection closed.*bad indicator byte 0x47/);
      await expect(peer.conn.pingService()).resolves.toBeDefined();
      expect(hark.child.exitCode).toBeNull();
    });

    it('device info and the mute switch, toggled from Home Assistant', async () => {
      const ha = peer.conn;
      expect(await ha.deviceInfoService()).toMatchObject({ name: 'hark-e2e', voiceAssistantFeatureFlags: 61 });
      const entities = await ha.listEntitiesService();
      expect(entities.map((e) => [e.component, e.entity.objectId])).toEqual([['Switch', 'mute']]);
      const on = nextMessage(ha, 'SwitchStateResponse');
      ha.switchCommandService({ key: MUTE_KEY, state: true });
      expect(await on).toMatchObject({ state: true });
      await hark.waitFor((e) => e.type === 'mute' && e.muted === true && e.by === 'api', 3000, 'the mute event');
      const off = nextMessage(ha, 'SwitchStateResponse');
      ha.switchCommandService({ key: MUTE_KEY, state: false });
      expect(await off).toMatchObject({ state: false });
    });

    it('Home Assistant ran the whole pipeline: it heard the command without the wake word, answered, and its entity is idle again', () => {
      const run = peer.runs[0]!;
      expect(run.endedBy).toBe('end');
      expect(run.cancelled).toBe(false);
      expect(run.wakeWordPhrase).toBe(WAKE);
      expect(run.transcript).toBe(COMMAND);
      expect(run.events).toEqual(['RUN_START', 'STT_START', 'STT_END', 'INTENT_START', 'INTENT_END', 'TTS_START', 'TTS_END', 'RUN_END']);
      expect(peer.announceFinished).toEqual([{ success: true }]);
      expect(peer.state).toBe('idle');
      expect(peer.states).toEqual(['idle', 'listening', 'processing', 'responding', 'idle']);
    });

    it('the audio Home Assistant got is the segment from the pause after the wake word to its end', () => {
      const seg = hark.of('segment.closed')[0]!;
      const b = Buffer.concat(peer.runs[0]!.audio);
      const audio = new Int16Array(b.buffer, b.byteOffset, b.length >> 1);
      const at = locate(s, audio)!;
      expect(at).not.toBeNull();
      // Exactly the recording from the cut to the segment's end.
      const segStart = Math.round((Number(seg.startMs) * 16000) / 1000);
      expect(at.end).toBe(segStart + Number(seg.samples));
      const [wake, command] = s.phrases;
      expect(at.start).toBeGreaterThanOrEqual(wake!.end - 160);
      expect(at.start).toBeLessThanOrEqual(command!.start);
      const request = hark.of('ha.satellite.request')[0]!;
      expect(request).toMatchObject({ why: 'addressed to hark and no rule of hark took it', wakeWordPhrase: WAKE, cutBy: 'word times', samples: audio.length });
      // What localFirst costs a Home Assistant command: from the segment's close to the request.
      const when = (e: object) => hark.receivedAt[hark.events.indexOf(e as never)]!;
      const handled = hark.of('segment.handled')[0]!;
      console.info(
        `satellite (${encrypted ? 'noise' : 'plain'}): segment close → VoiceAssistantRequest ${when(request) - when(seg)} ms as the test saw the events (hark's own close-to-handled ${handled.latencyMs} ms, speech-to-text ${handled.sttMs} ms; cloud speech-to-text double, hark's rules first)`,
      );
    });

    it("the TTS answer was fetched and played through hark's speaker", async () => {
      const p = await hark.waitFor((e) => e.type === 'ha.satellite.played' && e.what === 'answer', 20_000, 'the answer played');
      expect(p).toMatchObject({ outcome: 'ended', samples: answer.length });
      const want = Buffer.from(answer.buffer, answer.byteOffset, answer.byteLength);
      // Within what aplay got: with the echo canceller in force one long-lived aplay plays everything (src/speech/aplay-stream.ts).
      expect(played(dir).some((b) => b.indexOf(want) >= 0)).toBe(true);
    });

    it("the timer is hark's own: set locally, never sent to Home Assistant", async () => {
      await hark.waitFor((e) => e.type === 'ha.satellite.local', 30_000, 'the local decision');
      const timer = hark.of('action').find((a) => a.name === 'timer.set');
      expect(timer?.args).toMatchObject({ seconds: 300 });
      expect(hark.of('ha.satellite.request')).toHaveLength(1);
      expect(peer.runs).toHaveLength(1);
    });

    it("Home Assistant's finished timer rings through hark's ring; an announcement plays, is acknowledged, and the entity goes idle", async () => {
      peer.conn.sendMessage(
        msg('VoiceAssistantTimerEventResponse', { eventType: 3, timerId: 't1', name: 'pasta', totalSeconds: 60, secondsLeft: 0, isActive: false }),
      );
      // (--json prints a router effect under its own type.)
      const done = await hark.waitFor((e) => e.type === 'timer' && e.event === 'done' && e.label === 'pasta', 5000, 'the ring');
      expect(done).toMatchObject({ seconds: 0 });
      await hark.waitFor((e) => e.type === 'speak.start' && /pasta/i.test(String(e.text)), 10_000, 'the ring spoken');
      expect(await peer.announce(media.url('/api/tts_proxy/dinner.wav'), { text: 'Dinner is ready.' })).toEqual({ success: true });
      expect(peer.state).toBe('idle');
      const clip = hark.of('speak.end').find((e) => e.text === '[Home Assistant announcement]');
      expect(Number(clip?.playedMs)).toBeGreaterThan(500);
      expect(media.hits).toContain('/api/tts_proxy/dinner.wav');
    });
  });
}

describe("localFirst off: everything addressed to hark is Home Assistant's, the timer too", () => {
  const dir = outputDir('e2e-satellite-remote-first');
  let deepgram: DeepgramDouble;
  let hark: HarkProcess;
  let peer: HaSatellitePeer;

  beforeAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const s = await scene([5000, PHRASES[0]!, 3000, PHRASES[1]!, 3000]);
    const wav = join(dir, 'input.wav');
    await writeWavFile(wav, s.pcm);
    deepgram = await DeepgramDouble.start({ apiKey: 'e2e-key' });
    deepgram.script = PHRASES.map((text) => ({ text }));
    writeFileSync(
      join(dir, 'hark.yaml'),
      `actions:\n  dataDir: ${JSON.stringify(dir)}\nspeech:\n  device: "null"\nha:\n  satellite:\n    enabled: true\n    port: 0\n    host: 127.0.0.1\n    localFirst: false\n    mdns: false\n`,
    );
    hark = new HarkProcess(
      ['--db', join(dir, 'hark.db'), '--port', '0', '--stt-mode', 'cloud-only', '--deepgram-url', deepgram.url, '--input', wav, '--exit-at-end'],
      {
        ...process.env,
        PATH: `${fakeAplay(dir)}:${process.env.PATH}`,
        DEEPGRAM_API_KEY: 'e2e-key',
        HARK_CONFIG: join(dir, 'hark.yaml'),
      },
    );
    const listening = await hark.waitFor((e) => e.type === 'ha.satellite.listening', 30_000, 'the native API');
    // Home Assistant hears each command and has nothing to say back.
    peer = await HaSatellitePeer.connect(Number(listening.port), {
      stt: (pcm) => (pcm.length ? 'something' : ''),
      agent: () => ({ speech: '' }),
      ttsUrl: () => '',
    });
    await hark.waitFor((e) => e.type === 'ha.satellite.subscribed', 5000, 'the subscription');
    await Promise.race([hark.exited, new Promise((_, reject) => setTimeout(() => reject(new Error('hark did not finish')), 60_000))]);
  }, 90_000);

  afterAll(async () => {
    peer?.conn.disconnect();
    hark?.kill('SIGKILL');
    await deepgram?.close();
  });

  it("both commands went to Home Assistant; hark's router saw neither (yielded), so no local timer", () => {
    expect(peer.runs.map((r) => [r.endedBy, r.wakeWordPhrase])).toEqual([
      ['end', 'computer'],
      ['end', 'computer'],
    ]);
    expect(hark.of('segment.handled').map((e) => [e.fate, e.reason])).toEqual([
      ['yielded', 'yielded to home-assistant'],
      ['yielded', 'yielded to home-assistant'],
    ]);
    expect(hark.of('action').filter((a) => a.name === 'timer.set')).toEqual([]);
  });
});

describe("Home Assistant not connected: a segment meant for it stays hark's", () => {
  const dir = outputDir('e2e-satellite-offline');
  let deepgram: DeepgramDouble;
  let hark: HarkProcess;

  beforeAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const s = await scene([1500, PHRASES[0]!, 6000]);
    const wav = join(dir, 'input.wav');
    await writeWavFile(wav, s.pcm);
    deepgram = await DeepgramDouble.start({ apiKey: 'e2e-key' });
    deepgram.script = [{ text: PHRASES[0]! }];
    writeFileSync(
      join(dir, 'hark.yaml'),
      `actions:\n  dataDir: ${JSON.stringify(dir)}\nspeech:\n  device: "null"\nha:\n  satellite:\n    enabled: true\n    port: 0\n    host: 127.0.0.1\n    mdns: false\n`,
    );
    hark = new HarkProcess(
      ['--db', join(dir, 'hark.db'), '--port', '0', '--stt-mode', 'cloud-only', '--deepgram-url', deepgram.url, '--input', wav, '--exit-at-end'],
      {
        ...process.env,
        PATH: `${fakeAplay(dir)}:${process.env.PATH}`,
        DEEPGRAM_API_KEY: 'e2e-key',
        HARK_CONFIG: join(dir, 'hark.yaml'),
      },
    );
    const exit = await Promise.race([hark.exited, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('hark did not finish')), 60_000))]);
    expect(exit.code).toBe(0);
  }, 90_000);

  afterAll(async () => {
    hark?.kill('SIGKILL');
    await deepgram?.close();
  });

  it('is kept by the query frame (submitted as a note), with a warning naming why', () => {
    expect(hark.of('ha.satellite.local')).toEqual([expect.objectContaining({ why: 'Home Assistant is not connected' })]);
    expect(hark.stderr.join('\n')).toMatch(/a segment for Home Assistant, but it is not connected; hark keeps it/);
    expect(hark.of('submit').map((e) => e.text)).toEqual([expect.stringMatching(/turn on the extractor fan/i)]);
  });
});

describe("barge-in over Home Assistant's answer, as over hark's own voice", () => {
  const dir = outputDir('e2e-satellite-barge-in');
  const LONG =
    'The extractor fan is on. It will run at full speed for the next twenty minutes, and then it will slow down to half speed until you turn it off again.';
  let deepgram: DeepgramDouble;
  let media: Awaited<ReturnType<typeof mediaServer>>;
  let hark: HarkProcess;
  let peer: HaSatellitePeer;

  beforeAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    // "computer stop" comes about 3 s into an answer about 8 s long.
    const s = await scene([4000, PHRASES[0]!, 3500, 'computer stop', 6000]);
    const wav = join(dir, 'input.wav');
    await writeWavFile(wav, s.pcm);
    media = await mediaServer({ '/long.mp3': ttsFile(dir, LONG, 'mp3') });
    deepgram = await DeepgramDouble.start({ apiKey: 'e2e-key' });
    deepgram.script = [{ text: PHRASES[0]! }, { text: 'computer stop' }];
    writeFileSync(
      join(dir, 'hark.yaml'),
      `actions:\n  dataDir: ${JSON.stringify(dir)}\nspeech:\n  device: "null"\nha:\n  satellite:\n    enabled: true\n    port: 0\n    host: 127.0.0.1\n    mdns: false\n`,
    );
    hark = new HarkProcess(
      ['--db', join(dir, 'hark.db'), '--port', '0', '--stt-mode', 'cloud-only', '--deepgram-url', deepgram.url, '--input', wav, '--exit-at-end'],
      {
        ...process.env,
        PATH: `${fakeAplay(dir)}:${process.env.PATH}`,
        DEEPGRAM_API_KEY: 'e2e-key',
        HARK_CONFIG: join(dir, 'hark.yaml'),
      },
    );
    const listening = await hark.waitFor((e) => e.type === 'ha.satellite.listening', 30_000, 'the native API');
    // Home Assistant answers at once, with a long spoken answer.
    peer = await HaSatellitePeer.connect(Number(listening.port), {
      stt: (pcm) => (pcm.length ? 'turn on the extractor fan' : ''),
      agent: () => ({ speech: LONG }),
      ttsUrl: () => media.url('/long.mp3'),
    });
    await hark.waitFor((e) => e.type === 'ha.satellite.subscribed', 5000, 'the subscription');
    await Promise.race([hark.exited, new Promise((_, reject) => setTimeout(() => reject(new Error('hark did not finish')), 60_000))]);
  }, 90_000);

  afterAll(async () => {
    peer?.conn.disconnect();
    hark?.kill('SIGKILL');
    await deepgram?.close();
    await media?.close();
  });

  it('"computer stop" said over the answer stops it part way; the stop is hark\'s, not sent to Home Assistant', () => {
    const played = hark.of('ha.satellite.played');
    expect(played).toEqual([expect.objectContaining({ what: 'answer', outcome: 'stopped' })]);
    const stopped = hark.of('speak.stopped').find((e) => e.text === '[Home Assistant answer]');
    expect(Number(stopped?.playedMs)).toBeGreaterThan(500);
    expect(Number(stopped?.playedMs)).toBeLessThan((Number(played[0]!.samples) / 16000) * 1000 - 500);
    expect(hark.of('ha.satellite.request')).toHaveLength(1);
  });

  it('the stopped answer still ends the run for Home Assistant: VoiceAssistantAnnounceFinished, the entity idle', () => {
    expect(peer.runs).toHaveLength(1);
    expect(peer.announceFinished).toEqual([{ success: false }]);
    expect(peer.state).toBe('idle');
  });
});
