import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { encodePlain, varint } from '../../src/ha/satellite/framing.js';
import { haSatelliteSection } from '../../src/ha/satellite/config.js';
import { Bus } from '../../src/core/bus.js';
import { SystemClock } from '../../src/core/clock.js';
import { memoryLogger } from '../../src/core/log.js';
import { decodeToPcm, fetchMedia } from '../../src/ha/satellite/media.js';
import { ApiServer } from '../../src/ha/satellite/server.js';
import { EVENT, MUTE_KEY, Satellite, type SatelliteHooks } from '../../src/ha/satellite/satellite.js';
import { connectClient, eventMsg, msg, nextMessage, type EsphomeConnection } from '../support/esphome-client.js';
import { mediaServer, ttsFile } from '../support/esphome-media.js';
import { outputDir } from '../support/paths.js';

/**
 * The native API server in process, Home Assistant played by a real npm client over 127.0.0.1,
 * plaintext and Noise. The satellite's hooks into hark are recorders here (the e2e test runs the
 * real daemon); media fetching and decoding are the real ones (HTTP + sox).
 */
interface Rig {
  server: ApiServer;
  satellite: Satellite;
  port: number;
  played: { text: string; samples: number }[];
  rang: (string | undefined)[];
  earcons: string[];
  muted: boolean[];
  log: ReturnType<typeof memoryLogger>;
  bus: Bus;
}

async function rig(key: Buffer | null): Promise<Rig> {
  const log = memoryLogger();
  const bus = new Bus();
  const r = { played: [], rang: [], earcons: [], muted: [] } as unknown as Rig;
  let muted = false;
  const hooks: SatelliteHooks = {
    play: async (pcm, text) => (r.played.push({ text, samples: pcm.length }), 'ended'),
    earcon: (n) => void r.earcons.push(n),
    muted: () => muted,
    setMuted: (m) => void r.muted.push((muted = m)),
    ring: (label) => void r.rang.push(label),
    media: async (url) => decodeToPcm(await fetchMedia(url, { maxBytes: 1 << 20, timeoutMs: 3000 })),
  };
  const config = haSatelliteSection.parse({ enabled: true, port: 0, host: '127.0.0.1', mdns: false });
  const satellite = new Satellite({
    config,
    name: 'hark-test',
    friendlyName: 'hark test',
    mac: '0242ac110002',
    version: '0.1.0',
    bus,
    clock: new SystemClock(),
    log,
    hooks,
  });
  const server = new ApiServer({ host: '127.0.0.1', port: 0, key, serverInfo: 'hark test', satellite, log });
  const port = await server.listen();
  return Object.assign(r, { server, satellite, port, log, bus });
}

const until = async (pred: () => boolean, ms: number, what: string) => {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
};

const dir = outputDir('ha-satellite-api');
let media: Awaited<ReturnType<typeof mediaServer>>;
beforeAll(async () => {
  media = await mediaServer({
    '/api/tts_proxy/answer.mp3': ttsFile(dir, 'The extractor fan is on.', 'mp3'),
    '/api/tts_proxy/ding.wav': ttsFile(dir, 'Dinner is ready.', 'wav'),
  });
});
afterAll(async () => media?.close());

for (const encrypted of [false, true]) {
  describe(`hark as an ESPHome device, ${encrypted ? 'Noise-encrypted' : 'plaintext'}`, () => {
    const key = encrypted ? randomBytes(32) : null;
    let r: Rig;
    let ha: EsphomeConnection;
    beforeAll(async () => {
      r = await rig(key);
      ha = await connectClient(r.port, key ? { encryptionKey: key.toString('base64'), expectedServerName: 'hark-test' } : {});
    });
    afterAll(async () => {
      ha?.disconnect();
      await r?.server.close();
    });

    it('says hello, and its device info carries the voice-assistant features', async () => {
      const info = await ha.deviceInfoService();
      expect(info).toMatchObject({ name: 'hark-test', friendlyName: 'hark test', macAddress: '02:42:AC:11:00:02', manufacturer: 'hark' });
      // voice assistant 1 + API audio 4 + timers 8 + announce 16 + start conversation 32; no speaker (2).
      expect(info.voiceAssistantFeatureFlags).toBe(61);
      // api_encryption_supported as ESPHome reports it with a key; never without one, or Home
      // Assistant would offer to set a key hark cannot store.
      expect(info.apiEncryptionSupported).toBe(encrypted);
      expect(r.log.lines.join('\n')).toContain(`"encrypted":${encrypted}`);
    });

    it('lists the mute switch, reports its state, and toggles it on command', async () => {
      const entities = await ha.listEntitiesService();
      expect(entities).toEqual([{ component: 'Switch', entity: expect.objectContaining({ objectId: 'mute', key: MUTE_KEY, name: 'Mute' }) }]);
      const first = nextMessage(ha, 'SwitchStateResponse');
      ha.subscribeStatesService();
      expect(await first).toMatchObject({ key: MUTE_KEY, state: false });
      const on = nextMessage(ha, 'SwitchStateResponse');
      ha.switchCommandService({ key: MUTE_KEY, state: true });
      expect(await on).toMatchObject({ key: MUTE_KEY, state: true });
      expect(r.muted).toEqual([true]);
      const off = nextMessage(ha, 'SwitchStateResponse');
      ha.switchCommandService({ key: MUTE_KEY, state: false });
      expect(await off).toMatchObject({ state: false });
    });

    it("hark's own mute (the button) reaches Home Assistant as the switch's state", async () => {
      const state = nextMessage(ha, 'SwitchStateResponse');
      r.satellite.muteChanged(true);
      expect(await state).toMatchObject({ key: MUTE_KEY, state: true });
      const back = nextMessage(ha, 'SwitchStateResponse');
      r.satellite.muteChanged(false);
      expect(await back).toMatchObject({ state: false });
    });

    it('answers a legacy AuthenticationRequest (older clients send one) by letting it in', async () => {
      expect(await ha.sendMessageAwaitResponse(msg('AuthenticationRequest', { password: '' }), 'AuthenticationResponse')).toMatchObject({
        invalidPassword: false,
      });
    });

    it('answers a ping', async () => {
      await expect(ha.pingService()).resolves.toBeDefined();
    });

    it('voice assistant: configuration, a run with the audio pre-roll first, the TTS answer played', async () => {
      const conf = await ha.sendMessageAwaitResponse(msg('VoiceAssistantConfigurationRequest'), 'VoiceAssistantConfigurationResponse');
      expect(conf).toMatchObject({ activeWakeWordsList: ['hark'], maxActiveWakeWords: 1 });
      ha.sendMessage(msg('SubscribeVoiceAssistantRequest', { subscribe: true, flags: 1 }));
      await until(() => r.satellite.ready, 2000, 'the subscription');

      // A segment: a 300 ms pre-roll marked with a constant, then "speech".
      const pcm = new Int16Array(16000 * 2);
      pcm.fill(1234, 0, 4800);
      for (let i = 4800; i < pcm.length; i++) pcm[i] = Math.round(3000 * Math.sin(i / 7));
      const audio: Buffer[] = [];
      ha.on('message.VoiceAssistantAudio', (m: { data: string; end: boolean }) => void (m.end ? null : audio.push(Buffer.from(m.data, 'base64'))));
      const request = nextMessage(ha, 'VoiceAssistantRequest');
      expect(r.satellite.startRun(pcm, 'test')).toBe(true);
      // No words to go by (a bare segment): no wake phrase named, nothing cut.
      expect(await request).toMatchObject({ start: true, wakeWordPhrase: '' });
      // The end of the audio is VoiceAssistantAudio{end}, never VoiceAssistantRequest{start:false} (an abort).
      const requests: unknown[] = [];
      ha.on('message.VoiceAssistantRequest', (m: unknown) => void requests.push(m));
      const end = new Promise<void>((res) => ha.on('message.VoiceAssistantAudio', (m: { end: boolean }) => void (m.end && res())));
      ha.sendMessage(msg('VoiceAssistantResponse', { port: 0 }));
      await end;
      expect(requests).toEqual([]);
      const bytes = Buffer.concat(audio);
      expect(bytes.length).toBe(pcm.length * 2);
      expect(bytes.readInt16LE(0)).toBe(1234);
      expect(bytes.readInt16LE(4799 * 2)).toBe(1234);
      expect(bytes.equals(Buffer.from(pcm.buffer))).toBe(true);

      ha.sendMessage(eventMsg(EVENT.RUN_START));
      ha.sendMessage(eventMsg(EVENT.STT_END, { text: 'turn on the extractor fan' }));
      ha.sendMessage(eventMsg(EVENT.INTENT_END, { conversation_id: 'c1', continue_conversation: '0' }));
      ha.sendMessage(eventMsg(EVENT.TTS_START, { text: 'The extractor fan is on.' }));
      ha.sendMessage(eventMsg(EVENT.TTS_END, { url: media.url('/api/tts_proxy/answer.mp3') }));
      ha.sendMessage(eventMsg(EVENT.RUN_END));
      await until(() => r.played.length === 1, 10_000, 'the answer played');
      // espeak-ng's answer is about 1.5 s; decoded to 16 kHz mono.
      expect(r.played[0]!.samples).toBeGreaterThan(16000 * 0.8);
      expect(r.played[0]!.samples).toBeLessThan(16000 * 4);
      expect(r.satellite.followUp).toBe(false);
    });

    it('a request carries the audio settings ESPHome sends; continue_conversation requests the next run at once, with the conversation id', async () => {
      const request = nextMessage(ha, 'VoiceAssistantRequest');
      r.satellite.startRun(new Int16Array(1600), 'test');
      // Without them aioesphomeapi reads a volume multiplier of 0.0.
      expect(await request).toMatchObject({ start: true, audioSettings: { noiseSuppressionLevel: 0, autoGain: 0, volumeMultiplier: 1 } });
      ha.sendMessage(msg('VoiceAssistantResponse', { port: 0 }));
      const next = nextMessage(ha, 'VoiceAssistantRequest', 10_000);
      ha.sendMessage(eventMsg(EVENT.INTENT_END, { conversation_id: 'c2', continue_conversation: '1' }));
      ha.sendMessage(eventMsg(EVENT.TTS_END, { url: media.url('/api/tts_proxy/answer.mp3') }));
      ha.sendMessage(eventMsg(EVENT.RUN_END));
      // Once the answer has played, without any new segment: the next run, naming no wake phrase.
      expect(await next).toMatchObject({ start: true, conversationId: 'c2', wakeWordPhrase: '', audioSettings: { volumeMultiplier: 1 } });
      expect(r.satellite.followUp).toBe(true);
      expect(r.earcons).toContain('listening');
      ha.sendMessage(msg('VoiceAssistantResponse', { port: 0 }));
      const abort = nextMessage(ha, 'VoiceAssistantRequest');
      r.satellite.abort('the test is over');
      expect(await abort).toMatchObject({ start: false });
      expect(r.satellite.followUp).toBe(false);
    });

    it('a finished timer rings through hark; an announcement plays and is acknowledged', async () => {
      ha.sendMessage(
        msg('VoiceAssistantTimerEventResponse', { eventType: 0, timerId: 't1', name: 'pasta', totalSeconds: 60, secondsLeft: 60, isActive: true }),
      );
      ha.sendMessage(
        msg('VoiceAssistantTimerEventResponse', { eventType: 3, timerId: 't1', name: 'pasta', totalSeconds: 60, secondsLeft: 0, isActive: false }),
      );
      await until(() => r.rang.length === 1, 2000, 'the ring');
      expect(r.rang).toEqual(['pasta']);
      const before = r.played.length;
      const finished = nextMessage(ha, 'VoiceAssistantAnnounceFinished', 10_000);
      ha.sendMessage(msg('VoiceAssistantAnnounceRequest', { mediaId: media.url('/api/tts_proxy/ding.wav'), text: 'Dinner is ready.' }));
      expect(await finished).toMatchObject({ success: true });
      expect(r.played.length).toBe(before + 1);
    });

    it('a second client disconnects cleanly (logged) while the first keeps working; a refused run gives the error earcon', async () => {
      const req = nextMessage(ha, 'VoiceAssistantRequest');
      r.satellite.startRun(new Int16Array(800), 'test');
      await req;
      const other = await connectClient(r.port, key ? { encryptionKey: key.toString('base64') } : {});
      await other.disconnectService().catch(() => {});
      await until(() => r.log.lines.some((l) => l.includes('the client disconnected')), 2000, 'the disconnect line');
      expect(await ha.deviceInfoService()).toMatchObject({ name: 'hark-test' });
      ha.sendMessage(msg('VoiceAssistantResponse', { error: true }));
      await until(() => r.earcons.filter((e) => e === 'error').length > 0, 2000, 'the error earcon for a refused run');
    });

    it('an announcement whose media cannot be fetched is acknowledged as failed, with a log line', async () => {
      const finished = nextMessage(ha, 'VoiceAssistantAnnounceFinished', 10_000);
      ha.sendMessage(msg('VoiceAssistantAnnounceRequest', { mediaId: media.url('/missing.mp3') }));
      expect(await finished).toMatchObject({ success: false });
      expect(r.log.lines.join('\n')).toMatch(/cannot play the announcement.*HTTP 404/);
    });
  });
}

describe('a client with the wrong key', () => {
  let r: Rig;
  afterEach(async () => r?.server.close());
  it('is refused at the handshake with a log line saying so; the server takes the next client', async () => {
    r = await rig(randomBytes(32));
    await expect(connectClient(r.port, { encryptionKey: randomBytes(32).toString('base64'), timeoutMs: 3000 })).rejects.toThrow(
      /Handshake MAC failure|disconnected/,
    );
    await until(() => r.log.lines.some((l) => l.includes('encryption handshake failed')), 2000, 'the log line');
    expect(r.log.lines.join('\n')).toMatch(/Handshake MAC failure/);
    const ok = await connectClient(r.port, { encryptionKey: (r.server as unknown as { o: { key: Buffer } }).o.key.toString('base64') });
    expect(await ok.deviceInfoService()).toMatchObject({ name: 'hark-test' });
    ok.disconnect();
  });
});

/** Bytes on a raw socket; resolves when the server closes it (or rejects after 3 s). */
function sendRaw(port: number, bytes: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => s.write(bytes));
    const t = setTimeout(() => (s.destroy(), reject(new Error('the server kept a bad connection open'))), 3000);
    s.on('data', () => {});
    s.on('error', () => {});
    s.on('close', () => (clearTimeout(t), resolve()));
  });
}

describe('bad input on the socket', () => {
  let r: Rig;
  beforeAll(async () => (r = await rig(null)));
  afterAll(async () => r?.server.close());
  const hello = encodePlain(1, new Uint8Array(0));

  it.each([
    ['garbage', Buffer.from('GET / HTTP/1.1\r\nHost: x\r\n\r\n'), 'bad frame: bad indicator byte 0x47'],
    ['an oversized length', Buffer.from([0, ...varint(50_000_000), 1]), 'bad frame: frame of 50000000 bytes is over'],
    [
      'a message that does not decode',
      Buffer.concat([hello, encodePlain(9, Buffer.from([0x0a, 0x05, 0x01]))]),
      'bad frame: DeviceInfoRequest (type 9) did not decode',
    ],
    ['a request before hello', encodePlain(9, new Uint8Array(0)), 'bad frame: DeviceInfoRequest before HelloRequest'],
  ])('%s: the connection is closed with a log line naming it; the server goes on', async (_what, bytes, line) => {
    await sendRaw(r.port, bytes);
    await until(() => r.log.lines.some((l) => l.includes(line)), 2000, `a log line with "${line}"`);
    const ha = await connectClient(r.port);
    expect(await ha.deviceInfoService()).toMatchObject({ name: 'hark-test' });
    ha.disconnect();
  });
});
