import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { writeWavFile } from '../../src/audio/wav.js';
import { decodeToPcm } from '../../src/ha/satellite/media.js';
import { EVENT, MUTE_KEY } from '../../src/ha/satellite/satellite.js';
import { DeepgramDouble } from '../support/deepgram-server.js';
import { connectClient, eventMsg, msg, nextMessage, type EsphomeConnection } from '../support/esphome-client.js';
import { mediaServer, ttsFile } from '../support/esphome-media.js';
import { HarkProcess } from '../support/hark-process.js';
import { outputDir } from '../support/paths.js';
import { scene, type Scene } from '../support/speech.js';

/**
 * hark as an Assist satellite, end to end: a real `hark run --input` (cloud-only against the
 * Deepgram double, which "hears" the scripted words), Home Assistant played by a real ESPHome native
 * API client from npm over 127.0.0.1, the TTS answer and the announcement served over HTTP by the
 * test (espeak-ng → sox), and a fake `aplay` first on PATH that keeps every byte hark plays.
 *
 * The first command is nothing hark's rules take ("turn on the extractor fan"): it goes to Home
 * Assistant with its audio. The second is a timer: hark's own rules take it, no network.
 */
const PHRASES = ['computer turn on the extractor fan', 'computer set a timer for five minutes'];

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
    let ha: EsphomeConnection;
    let answer: Int16Array;
    const audio: Buffer[] = [];
    let request: Record<string, unknown>;

    beforeAll(async () => {
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      // Silence first: Home Assistant connects and subscribes before the first word.
      s = await scene([5000, PHRASES[0]!, 6000, PHRASES[1]!, 3000]);
      const wav = join(dir, 'input.wav');
      await writeWavFile(wav, s.pcm);
      const mp3 = ttsFile(dir, 'The extractor fan is on.', 'mp3');
      answer = await decodeToPcm(mp3);
      media = await mediaServer({ '/api/tts_proxy/answer.mp3': mp3, '/api/tts_proxy/dinner.wav': ttsFile(dir, 'Dinner is ready.', 'wav') });
      deepgram = await DeepgramDouble.start({ apiKey: 'e2e-key' });
      deepgram.script = PHRASES.map((text) => ({ text }));
      writeFileSync(join(dir, 'hark.yaml'), `actions:\n  dataDir: ${JSON.stringify(dir)}\nspeech:\n  device: "null"\nha:\n  satellite:\n    enabled: true\n    port: 0\n    host: 127.0.0.1\n    name: hark-e2e\n    mdns: false\n`);
      hark = new HarkProcess(['--db', join(dir, 'hark.db'), '--port', '0', '--stt-mode', 'cloud-only', '--deepgram-url', deepgram.url, '--input', wav], {
        ...process.env,
        PATH: `${fakeAplay(dir)}:${process.env.PATH}`,
        DEEPGRAM_API_KEY: 'e2e-key',
        HARK_CONFIG: join(dir, 'hark.yaml'),
        ...(key ? { HARK_HA_API_KEY: key } : {}),
      });
      const listening = await hark.waitFor((e) => e.type === 'ha.satellite.listening', 30_000, 'the native API');
      expect(listening).toMatchObject({ encrypted, name: 'hark-e2e' });
      ha = await connectClient(Number(listening.port), key ? { encryptionKey: key, expectedServerName: 'hark-e2e' } : {});
      ha.on('message.VoiceAssistantAudio', (m: { data: string }) => audio.push(Buffer.from(m.data, 'base64')));
      ha.sendMessage(msg('SubscribeVoiceAssistantRequest', { subscribe: true, flags: 1 }));
      await hark.waitFor((e) => e.type === 'ha.satellite.subscribed', 5000, 'the subscription');
      // The first command goes to Home Assistant: the request, then (once accepted) its audio.
      request = await nextMessage(ha, 'VoiceAssistantRequest', 30_000);
      const end = nextMessage(ha, 'VoiceAssistantRequest', 5000);
      ha.sendMessage(msg('VoiceAssistantResponse', { port: 0 }));
      await end;
    }, 90_000);

    afterAll(async () => {
      ha?.disconnect();
      hark?.kill('SIGKILL');
      await deepgram?.close();
      await media?.close();
    });

    it('garbage on the port closes that connection with a log line; hark and Home Assistant go on', async () => {
      const port = Number(hark.of('ha.satellite.listening')[0]!.port);
      await new Promise<void>((resolve) => {
        const sock = connect(port, '127.0.0.1', () => sock.write('GET / HTTP/1.1\r\n\r\n'));
        sock.on('error', () => {});
        sock.on('close', () => resolve());
      });
      const end = Date.now() + 3000;
      while (!hark.stderr.some((l) => l.includes('bad frame: bad indicator byte 0x47')) && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
      expect(hark.stderr.join('\n')).toMatch(/connection closed.*bad frame: bad indicator byte 0x47/);
      await expect(ha.pingService()).resolves.toBeDefined();
      expect(hark.child.exitCode).toBeNull();
    });

    it('device info and the mute switch, toggled from Home Assistant', async () => {
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

    it('the request carries the wake phrase; the audio is the whole segment, pre-roll first', async () => {
      expect(request).toMatchObject({ start: true, wakeWordPhrase: 'computer' });
      const seg = hark.of('segment.closed')[0]!;
      const bytes = Buffer.concat(audio);
      expect(bytes.length).toBe(Number(seg.samples) * 2);
      // Exactly the recording from the segment's start (its pre-roll) to its end.
      const start = Math.round((Number(seg.startMs) * 16000) / 1000);
      const expected = Buffer.from(s.pcm.buffer, s.pcm.byteOffset + start * 2, bytes.length);
      expect(Number(seg.prerollMs)).toBeGreaterThan(0);
      expect(bytes.equals(expected)).toBe(true);
      const phrase = s.phrases[0]!;
      expect(start).toBeLessThan(phrase.start);
      const local = hark.of('ha.satellite.request')[0]!;
      expect(local).toMatchObject({ why: 'addressed to hark and no rule of hark took it' });
      // What localFirst costs a Home Assistant command: from the segment's close to the request.
      const at = (e: object) => hark.receivedAt[hark.events.indexOf(e as never)]!;
      const handled = hark.of('segment.handled')[0]!;
      console.info(`satellite (${encrypted ? 'noise' : 'plain'}): segment close → VoiceAssistantRequest ${at(local) - at(seg)} ms as the test saw the events (hark's own close-to-handled ${handled.latencyMs} ms, speech-to-text ${handled.sttMs} ms; cloud speech-to-text double, hark's rules first)`);
    });

    it("Home Assistant's run events: the TTS answer is fetched and played through hark's speaker", async () => {
      ha.sendMessage(eventMsg(EVENT.RUN_START));
      ha.sendMessage(eventMsg(EVENT.STT_END, { text: 'turn on the extractor fan' }));
      ha.sendMessage(eventMsg(EVENT.INTENT_END, { conversation_id: 'c1', continue_conversation: '0' }));
      ha.sendMessage(eventMsg(EVENT.TTS_START, { text: 'The extractor fan is on.' }));
      ha.sendMessage(eventMsg(EVENT.TTS_END, { url: media.url('/api/tts_proxy/answer.mp3') }));
      ha.sendMessage(eventMsg(EVENT.RUN_END));
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
    });

    it("Home Assistant's finished timer rings through hark's ring; an announcement plays and is acknowledged", async () => {
      ha.sendMessage(msg('VoiceAssistantTimerEventResponse', { eventType: 3, timerId: 't1', name: 'pasta', totalSeconds: 60, secondsLeft: 0, isActive: false }));
      // (--json prints a router effect under its own type.)
      const done = await hark.waitFor((e) => e.type === 'timer' && e.event === 'done' && e.label === 'pasta', 5000, 'the ring');
      expect(done).toMatchObject({ seconds: 0 });
      await hark.waitFor((e) => e.type === 'speak.start' && /pasta/i.test(String(e.text)), 10_000, 'the ring spoken');
      const finished = nextMessage(ha, 'VoiceAssistantAnnounceFinished', 20_000);
      ha.sendMessage(msg('VoiceAssistantAnnounceRequest', { mediaId: media.url('/api/tts_proxy/dinner.wav'), text: 'Dinner is ready.' }));
      expect(await finished).toMatchObject({ success: true });
      const clip = hark.of('speak.end').find((e) => e.text === '[Home Assistant announcement]');
      expect(Number(clip?.playedMs)).toBeGreaterThan(500);
      expect(media.hits).toContain('/api/tts_proxy/dinner.wav');
    });
  });
}

describe('localFirst off: everything addressed to hark is Home Assistant\'s, the timer too', () => {
  const dir = outputDir('e2e-satellite-remote-first');
  let deepgram: DeepgramDouble;
  let hark: HarkProcess;
  let ha: EsphomeConnection;
  const requests: Record<string, unknown>[] = [];

  beforeAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const s = await scene([5000, PHRASES[0]!, 3000, PHRASES[1]!, 3000]);
    const wav = join(dir, 'input.wav');
    await writeWavFile(wav, s.pcm);
    deepgram = await DeepgramDouble.start({ apiKey: 'e2e-key' });
    deepgram.script = PHRASES.map((text) => ({ text }));
    writeFileSync(join(dir, 'hark.yaml'), `actions:\n  dataDir: ${JSON.stringify(dir)}\nspeech:\n  device: "null"\nha:\n  satellite:\n    enabled: true\n    port: 0\n    host: 127.0.0.1\n    localFirst: false\n    mdns: false\n`);
    hark = new HarkProcess(['--db', join(dir, 'hark.db'), '--port', '0', '--stt-mode', 'cloud-only', '--deepgram-url', deepgram.url, '--input', wav, '--exit-at-end'], {
      ...process.env,
      PATH: `${fakeAplay(dir)}:${process.env.PATH}`,
      DEEPGRAM_API_KEY: 'e2e-key',
      HARK_CONFIG: join(dir, 'hark.yaml'),
    });
    const listening = await hark.waitFor((e) => e.type === 'ha.satellite.listening', 30_000, 'the native API');
    ha = await connectClient(Number(listening.port));
    ha.on('message.VoiceAssistantRequest', (m: Record<string, unknown>) => {
      requests.push(m);
      if (m.start) ha.sendMessage(msg('VoiceAssistantResponse', { port: 0 }));
    });
    ha.sendMessage(msg('SubscribeVoiceAssistantRequest', { subscribe: true, flags: 1 }));
    await hark.waitFor((e) => e.type === 'ha.satellite.subscribed', 5000, 'the subscription');
    await Promise.race([hark.exited, new Promise((_, reject) => setTimeout(() => reject(new Error('hark did not finish')), 60_000))]);
  }, 90_000);

  afterAll(async () => {
    ha?.disconnect();
    hark?.kill('SIGKILL');
    await deepgram?.close();
  });

  it('both commands went to Home Assistant; hark\'s router saw neither (yielded), so no local timer', () => {
    expect(requests.filter((r) => r.start)).toHaveLength(2);
    expect(hark.of('segment.handled').map((e) => [e.fate, e.reason])).toEqual([
      ['yielded', 'yielded to home-assistant'],
      ['yielded', 'yielded to home-assistant'],
    ]);
    expect(hark.of('action').filter((a) => a.name === 'timer.set')).toEqual([]);
  });
});

describe('Home Assistant not connected: a segment meant for it stays hark\'s', () => {
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
    writeFileSync(join(dir, 'hark.yaml'), `actions:\n  dataDir: ${JSON.stringify(dir)}\nspeech:\n  device: "null"\nha:\n  satellite:\n    enabled: true\n    port: 0\n    host: 127.0.0.1\n    mdns: false\n`);
    hark = new HarkProcess(['--db', join(dir, 'hark.db'), '--port', '0', '--stt-mode', 'cloud-only', '--deepgram-url', deepgram.url, '--input', wav, '--exit-at-end'], {
      ...process.env,
      PATH: `${fakeAplay(dir)}:${process.env.PATH}`,
      DEEPGRAM_API_KEY: 'e2e-key',
      HARK_CONFIG: join(dir, 'hark.yaml'),
    });
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
  let deepgram: DeepgramDouble;
  let media: Awaited<ReturnType<typeof mediaServer>>;
  let hark: HarkProcess;
  let ha: EsphomeConnection;

  beforeAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    // "computer stop" comes about 3 s into an answer about 8 s long.
    const s = await scene([4000, PHRASES[0]!, 3500, 'computer stop', 6000]);
    const wav = join(dir, 'input.wav');
    await writeWavFile(wav, s.pcm);
    media = await mediaServer({ '/long.mp3': ttsFile(dir, 'The extractor fan is on. It will run at full speed for the next twenty minutes, and then it will slow down to half speed until you turn it off again.', 'mp3') });
    deepgram = await DeepgramDouble.start({ apiKey: 'e2e-key' });
    deepgram.script = [{ text: PHRASES[0]! }, { text: 'computer stop' }];
    writeFileSync(join(dir, 'hark.yaml'), `actions:\n  dataDir: ${JSON.stringify(dir)}\nspeech:\n  device: "null"\nha:\n  satellite:\n    enabled: true\n    port: 0\n    host: 127.0.0.1\n    mdns: false\n`);
    hark = new HarkProcess(['--db', join(dir, 'hark.db'), '--port', '0', '--stt-mode', 'cloud-only', '--deepgram-url', deepgram.url, '--input', wav, '--exit-at-end'], {
      ...process.env,
      PATH: `${fakeAplay(dir)}:${process.env.PATH}`,
      DEEPGRAM_API_KEY: 'e2e-key',
      HARK_CONFIG: join(dir, 'hark.yaml'),
    });
    const listening = await hark.waitFor((e) => e.type === 'ha.satellite.listening', 30_000, 'the native API');
    ha = await connectClient(Number(listening.port));
    // Home Assistant answers at once: accepted, then the run with a long spoken answer.
    ha.on('message.VoiceAssistantRequest', (m: Record<string, unknown>) => {
      if (!m.start) return;
      ha.sendMessage(msg('VoiceAssistantResponse', { port: 0 }));
      ha.sendMessage(eventMsg(EVENT.RUN_START));
      ha.sendMessage(eventMsg(EVENT.INTENT_END, { continue_conversation: '0' }));
      ha.sendMessage(eventMsg(EVENT.TTS_END, { url: media.url('/long.mp3') }));
      ha.sendMessage(eventMsg(EVENT.RUN_END));
    });
    ha.sendMessage(msg('SubscribeVoiceAssistantRequest', { subscribe: true, flags: 1 }));
    await hark.waitFor((e) => e.type === 'ha.satellite.subscribed', 5000, 'the subscription');
    await Promise.race([hark.exited, new Promise((_, reject) => setTimeout(() => reject(new Error('hark did not finish')), 60_000))]);
  }, 90_000);

  afterAll(async () => {
    ha?.disconnect();
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
});
