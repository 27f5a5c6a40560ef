import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { VirtualClock } from '../../src/core/clock.js';
import { CANCEL_WINDOW_MS, FOLLOW_UP_MS, type Satellite } from '../../src/ha/satellite/satellite.js';
import { mediaServer, ttsFile } from '../support/esphome-media.js';
import { HaSatellitePeer, type PeerOptions } from '../support/ha-satellite-peer.js';
import { haSide, satelliteRig, toneSegment, until, type SatelliteRig } from '../support/ha-satellite-rig.js';
import { outputDir } from '../support/paths.js';

/**
 * A whole Assist run against Home Assistant as it really handles one (test/support/ha-satellite-peer:
 * aioesphomeapi's subscribe_voice_assistant, the ESPHome satellite entity, the pipeline's events),
 * with hark's native API server in process and its playback recorded.
 */
const ANSWER = 'The extractor fan is on.';
const dir = outputDir('ha-satellite-run');
let media: Awaited<ReturnType<typeof mediaServer>>;
beforeAll(async () => {
  media = await mediaServer({ '/api/tts_proxy/answer.mp3': ttsFile(dir, ANSWER, 'mp3') });
});
afterAll(async () => media?.close());

const ha = (o: Partial<PeerOptions> = {}): PeerOptions => haSide(() => media.url('/api/tts_proxy/answer.mp3'), o);

for (const encrypted of [false, true]) {
  describe(`a run Home Assistant completes (${encrypted ? 'Noise' : 'plaintext'})`, () => {
    const key = encrypted ? randomBytes(32) : null;
    let r: SatelliteRig;
    let peer: HaSatellitePeer;
    afterEach(async () => {
      peer?.conn.disconnect();
      await r?.server.close();
    });

    it('ends its audio gracefully (VoiceAssistantAudio{end}), so Home Assistant transcribes and answers; the answer plays', async () => {
      r = await satelliteRig(key);
      peer = await HaSatellitePeer.connect(r.port, { ...ha(), ...(key ? { encryptionKey: key.toString('base64') } : {}) });
      await until(() => r.satellite.ready, 3000, 'the subscription');
      const pcm = toneSegment();
      expect(r.satellite.startRun(pcm, 'test')).toBe(true);
      await peer.until(() => peer.runs.length === 1 && peer.runs[0]!.events.includes('RUN_END'), 10_000, 'the run to end');
      const run = peer.runs[0]!;
      expect(run.endedBy).toBe('end');
      expect(run.cancelled).toBe(false);
      expect(Buffer.concat(run.audio).equals(Buffer.from(pcm.buffer))).toBe(true);
      expect(run.transcript).toBe('turn on the extractor fan');
      expect(run.events).toEqual(['RUN_START', 'STT_START', 'STT_END', 'INTENT_START', 'INTENT_END', 'TTS_START', 'TTS_END', 'RUN_END']);
      await until(() => r.played.length === 1, 10_000, 'the answer played');
      expect(r.played[0]!.text).toBe('[Home Assistant answer]');
    });

    it("once the answer has played hark says so (VoiceAssistantAnnounceFinished) and Home Assistant's satellite entity is idle again", async () => {
      r = await satelliteRig(key);
      peer = await HaSatellitePeer.connect(r.port, { ...ha(), ...(key ? { encryptionKey: key.toString('base64') } : {}) });
      await until(() => r.satellite.ready, 3000, 'the subscription');
      r.hold.holding = true;
      r.satellite.startRun(toneSegment(), 'test');
      await until(() => r.played.length === 1, 10_000, 'the answer playing');
      // While the answer plays the entity is responding, and hark has not said it finished.
      expect(peer.state).toBe('responding');
      expect(peer.announceFinished).toEqual([]);
      r.hold.release!();
      await peer.until(() => peer.state === 'idle', 5000, 'the entity to go idle');
      expect(peer.announceFinished).toHaveLength(1);
      expect(peer.states).toEqual(['idle', 'listening', 'processing', 'responding', 'idle']);
    });
  });
}

describe('what ends a run early', () => {
  let r: SatelliteRig;
  let peer: HaSatellitePeer;
  afterEach(async () => {
    peer?.conn.disconnect();
    await r?.server.close();
  });

  it('muting hark while Home Assistant works on a run aborts it (VoiceAssistantRequest{start:false}): no answer is played', async () => {
    r = await satelliteRig();
    let heard!: () => void;
    const sttHeld = new Promise<void>((res) => (heard = res));
    peer = await HaSatellitePeer.connect(r.port, ha({ stt: async () => (await sttHeld, 'turn on the extractor fan') }));
    await until(() => r.satellite.ready, 3000, 'the subscription');
    r.satellite.startRun(toneSegment(), 'test');
    await peer.until(() => peer.runs[0]?.endedBy === 'end', 5000, 'the audio');
    r.setMuted(true);
    await peer.until(() => peer.runs[0]!.cancelled, 5000, 'the abort');
    heard();
    await peer.runs[0]!.done;
    expect(peer.runs[0]!.events).toEqual(['RUN_START', 'STT_START', 'RUN_END']);
    expect(peer.state).toBe('idle');
    await new Promise((res) => setTimeout(res, 200));
    expect(r.played).toEqual([]);
  });

  it("Home Assistant gone mid-run without its stop sequence (a crash): the error sound at once; segments stay hark's until it is back, then runs work again", async () => {
    r = await satelliteRig();
    const first = await HaSatellitePeer.connect(r.port, ha({ stt: () => new Promise<string>(() => {}) }));
    await until(() => r.satellite.ready, 3000, 'the subscription');
    r.satellite.startRun(toneSegment(), 'test');
    await first.until(() => first.runs[0]?.endedBy === 'end', 5000, 'the audio');
    first.drop();
    await until(() => !r.satellite.ready && r.earcons.includes('error'), 3000, 'the error sound for the lost run');
    expect(r.log.lines.join('\n')).toMatch(/Home Assistant went away before answering/);
    // Home Assistant is down: the next segment is not sent (the component keeps it as hark's).
    expect(r.satellite.startRun(toneSegment(), 'test')).toBe(false);
    peer = await HaSatellitePeer.connect(r.port, ha());
    await until(() => r.satellite.ready, 3000, 'the new subscription');
    r.satellite.startRun(toneSegment(), 'test');
    await peer.until(() => peer.state === 'idle' && peer.announceFinished.length === 1, 10_000, 'the run after the restart');
    expect(peer.runs[0]!.transcript).toBe('turn on the extractor fan');
    expect(r.played).toHaveLength(1);
  });

  it('a question back (continue_conversation): once the answer has played the next run starts at once, and the answer said then is its audio', async () => {
    r = await satelliteRig();
    peer = await HaSatellitePeer.connect(r.port, ha({ agent: () => ({ speech: ANSWER, continueConversation: peer.runs.length === 1 }) }));
    await until(() => r.satellite.ready, 3000, 'the subscription');
    r.satellite.startRun(toneSegment(), 'test');
    // No second segment yet: the continued run is requested by itself, as ESPHome and the reference satellite do.
    await peer.until(() => peer.runs.length === 2 && peer.state === 'listening', 10_000, 'the continued run');
    expect(peer.announceFinished).toEqual([{ success: true }]);
    expect(peer.states).toEqual(['idle', 'listening', 'processing', 'responding', 'idle', 'listening']);
    expect(peer.runs[1]!).toMatchObject({ conversationId: peer.runs[0]!.conversationId, wakeWordPhrase: null, audioSettings: { volumeMultiplier: 1 } });
    expect(r.satellite.followUp).toBe(true);
    expect(r.earcons).toContain('listening');
    // The cook answers within the window: the segment feeds the open run; no third run.
    expect(r.satellite.startRun(toneSegment(), 'the answer', { text: 'yes please' })).toBe(true);
    await peer.until(() => peer.runs[1]!.events.includes('RUN_END'), 10_000, 'the continued run to end');
    expect(peer.runs).toHaveLength(2);
    expect(peer.runs[1]!).toMatchObject({ endedBy: 'end', transcript: 'turn on the extractor fan' });
    await until(() => r.played.length === 2, 5000, 'the second answer');
  });

  it('a continued conversation nobody answers: the open run is aborted when the window closes, and the entity is idle', async () => {
    const clock = new VirtualClock();
    r = await satelliteRig(null, clock);
    peer = await HaSatellitePeer.connect(r.port, ha({ agent: () => ({ speech: ANSWER, continueConversation: true }) }));
    await until(() => r.satellite.ready, 3000, 'the subscription');
    const heard: string[] = [];
    r.bus.on('ha.satellite.event', (e) => void heard.push(e.event));
    r.satellite.startRun(toneSegment(), 'test');
    // The continued run accepted and listening, as hark sees it.
    await until(() => heard.filter((e) => e === 'stt-start').length === 2, 10_000, 'the continued run');
    expect(peer.runs).toHaveLength(2);
    clock.advanceBy(FOLLOW_UP_MS);
    await peer.until(() => peer.runs[1]!.events.includes('RUN_END'), 5000, 'the abort');
    expect(peer.runs[1]!).toMatchObject({ endedBy: 'abort', cancelled: true, transcript: null });
    expect(peer.state).toBe('idle');
    expect(r.satellite.followUp).toBe(false);
    expect(r.earcons).not.toContain('error');
  });

  it('Home Assistant announces while a continued conversation waits for its answer: the open run and its window end, the announcement plays', async () => {
    const clock = new VirtualClock();
    r = await satelliteRig(null, clock);
    peer = await HaSatellitePeer.connect(r.port, ha({ agent: () => ({ speech: ANSWER, continueConversation: true }) }));
    await until(() => r.satellite.ready, 3000, 'the subscription');
    const heard: string[] = [];
    r.bus.on('ha.satellite.event', (e) => void heard.push(e.event));
    r.satellite.startRun(toneSegment(), 'test');
    await until(() => heard.filter((e) => e === 'stt-start').length === 2, 10_000, 'the continued run');
    expect(await peer.announce(media.url('/api/tts_proxy/answer.mp3'))).toEqual({ success: true });
    expect(peer.runs[1]!.events).toEqual(['RUN_START', 'STT_START', 'RUN_END']);
    expect(r.satellite.followUp).toBe(false);
    clock.advanceBy(CANCEL_WINDOW_MS + FOLLOW_UP_MS);
    expect(r.earcons).not.toContain('error');
    expect(peer.runs).toHaveLength(2);
  });

  it('an answer hark cannot fetch is still reported finished, so the entity does not stay "responding"', async () => {
    r = await satelliteRig();
    peer = await HaSatellitePeer.connect(r.port, ha({ ttsUrl: () => media.url('/api/tts_proxy/missing.mp3') }));
    await until(() => r.satellite.ready, 3000, 'the subscription');
    r.satellite.startRun(toneSegment(), 'test');
    await peer.until(() => peer.announceFinished.length === 1, 10_000, 'the announce-finished');
    expect(peer.announceFinished).toEqual([{ success: false }]);
    expect(peer.state).toBe('idle');
    expect(r.earcons).toContain('error');
  });
});

/**
 * The wake phrase and what follows it: 0.5 s pre-roll (silence), "computer" (0.55 s of one tone),
 * a 0.25 s pause, the command (1.5 s of another tone), 0.6 s of hangover silence.
 */
const AT = { wakeStart: 8000, wakeEnd: 16800, commandStart: 20800, commandEnd: 44800, total: 54400 };
function spoken(): Int16Array {
  const pcm = new Int16Array(AT.total);
  for (let i = AT.wakeStart; i < AT.wakeEnd; i++) pcm[i] = Math.round(7000 * Math.sin(i / 3));
  for (let i = AT.commandStart; i < AT.commandEnd; i++) pcm[i] = Math.round(7000 * Math.sin(i / 9));
  return pcm;
}
const WORDS = [
  ['computer', 0.5, 1.05],
  ['turn', 1.3, 1.55],
  ['on', 1.55, 1.7],
  ['the', 1.7, 1.85],
  ['extractor', 1.85, 2.4],
  ['fan', 2.4, 2.8],
] as const;

describe('the audio Home Assistant gets starts after the wake phrase, which the request names', () => {
  let r: SatelliteRig;
  let peer: HaSatellitePeer;
  beforeAll(async () => {
    r = await satelliteRig();
    peer = await HaSatellitePeer.connect(r.port, ha());
    await until(() => r.satellite.ready, 3000, 'the subscription');
  });
  afterAll(async () => {
    peer?.conn.disconnect();
    await r?.server.close();
  });

  /** Run one segment; returns the samples Home Assistant got and the phrase the request named. */
  async function send(pcm: Int16Array, heard: Parameters<Satellite['startRun']>[2]): Promise<{ audio: Int16Array; phrase: string | null }> {
    const n = peer.runs.length;
    // Past Home Assistant's 2 s wake-word cooldown, which would refuse a second run with the same phrase.
    await new Promise((res) => setTimeout(res, n === 0 ? 0 : 2100));
    r.satellite.startRun(pcm, 'test', heard);
    await peer.until(() => peer.runs.length === n + 1 && peer.runs[n]!.events.includes('RUN_END'), 10_000, 'the run');
    const run = peer.runs[n]!;
    const b = Buffer.concat(run.audio);
    return { audio: new Int16Array(b.buffer, b.byteOffset, b.length >> 1), phrase: run.wakeWordPhrase };
  }

  /** The audio is the recording's tail, cut in the pause between the wake phrase and the command. */
  function expectCutInPause(audio: Int16Array, pcm: Int16Array): void {
    const cut = pcm.length - audio.length;
    expect(Buffer.from(audio.buffer, audio.byteOffset, audio.byteLength).equals(Buffer.from(pcm.buffer, cut * 2))).toBe(true);
    expect(cut).toBeGreaterThanOrEqual(AT.wakeEnd);
    expect(cut).toBeLessThanOrEqual(AT.commandStart);
  }

  it('by the word times speech-to-text gave (Deepgram words)', async () => {
    const pcm = spoken();
    const { audio, phrase } = await send(pcm, {
      text: 'Computer, turn on the extractor fan.',
      words: WORDS.map(([word, start, end]) => ({ word, start, end })),
      speechStartSample: AT.wakeStart,
    });
    expectCutInPause(audio, pcm);
    expect(phrase).toBe('computer');
  });

  it("by Whisper's token times", async () => {
    const pcm = spoken();
    const tokens = [
      { text: '[_BEG_]', id: 50363, p: 1, t0: 0, t1: 0 },
      ...WORDS.flatMap(([w, s, e], i) =>
        i === 0
          ? [
              { text: ' Computer', id: 1, p: 0.9, t0: s * 1000, t1: e * 1000 - 60 },
              { text: ',', id: 2, p: 0.9, t0: e * 1000 - 60, t1: e * 1000 },
            ]
          : [{ text: ` ${w}`, id: 3 + i, p: 0.9, t0: s * 1000, t1: e * 1000 }],
      ),
      { text: '[_TT_150]', id: 50513, p: 1, t0: 2800, t1: 2800 },
    ];
    const { audio, phrase } = await send(pcm, { text: 'Computer, turn on the extractor fan', tokens, speechStartSample: AT.wakeStart });
    expectCutInPause(audio, pcm);
    expect(phrase).toBe('computer');
  });

  it('without word times (an engine that gives none): estimated from the words and the pause after the wake phrase', async () => {
    const pcm = spoken();
    const { audio, phrase } = await send(pcm, { text: 'computer turn on the extractor fan', speechStartSample: AT.wakeStart });
    expectCutInPause(audio, pcm);
    expect(phrase).toBe('computer');
  });

  it('names the phrase that woke hark ("hey computer"), not a fixed one', async () => {
    const pcm = spoken();
    const { phrase } = await send(pcm, { text: 'hey computer turn on the extractor fan', speechStartSample: AT.wakeStart });
    expect(phrase).toBe('hey computer');
  });

  it('no wake phrase (the button, an answer to a question): the whole segment, no phrase named', async () => {
    const pcm = spoken();
    const { audio, phrase } = await send(pcm, { text: 'turn on the extractor fan', speechStartSample: AT.wakeStart });
    expect(audio.length).toBe(pcm.length);
    expect(phrase).toBeNull();
  });
});
