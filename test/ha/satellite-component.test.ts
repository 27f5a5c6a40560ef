import { afterEach, beforeAll, afterAll, describe, expect, it } from 'vitest';
import { Bus } from '../../src/core/bus.js';
import { SystemClock } from '../../src/core/clock.js';
import type { Effect } from '../../src/core/effects.js';
import { memoryLogger } from '../../src/core/log.js';
import type { Secrets } from '../../src/core/secrets.js';
import { configSchema } from '../../src/config/schema.js';
import { satelliteComponent } from '../../src/ha/satellite/component.js';
import type { PathFront } from '../../src/path/plugins.js';
import type { Segment } from '../../src/vad/segment.js';
import { mediaServer, ttsFile } from '../support/esphome-media.js';
import { HaSatellitePeer } from '../support/ha-satellite-peer.js';
import { outputDir } from '../support/paths.js';
import { testSpeech } from '../kit/speech.js';

/**
 * The satellite as the daemon wires it (src/ha/satellite/component.ts): segments and what hark's
 * router did with them come as the bus carries them in `hark run`; Home Assistant is the double
 * (test/support/ha-satellite-peer.ts) over a real socket. What is checked is the continued
 * conversation: the run Home Assistant asked for is open before the cook answers, and the answer's
 * segment either feeds it or, taken by one of hark's own rules, aborts it.
 */
const ANSWER = 'Which room?';
const dir = outputDir('ha-satellite-component');
let media: Awaited<ReturnType<typeof mediaServer>>;
beforeAll(async () => {
  media = await mediaServer({ '/api/tts_proxy/answer.wav': ttsFile(dir, ANSWER, 'wav') });
});
afterAll(async () => media?.close());

const until = async (pred: () => boolean, ms: number, what: string) => {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((res) => setTimeout(res, 10));
  }
};

interface Rig {
  bus: Bus;
  comp: ReturnType<typeof satelliteComponent>;
  peer: HaSatellitePeer;
  aborted: number;
  earcons: string[];
  /** One segment through the bus as hark's segment path reports it. */
  segment(index: number, text: string, effects: Effect[], actions?: string[]): void;
}

async function rig(): Promise<Rig> {
  const bus = new Bus();
  const config = configSchema.parse({ ha: { satellite: { enabled: true, port: 0, host: '127.0.0.1', mdns: false } } });
  const r = { bus, aborted: 0, earcons: [] as string[] } as Rig;
  // hark's voice: the real speech queue over the kit's recording player, on a bus of its own (the
  // satellite only hands it clips and earcons).
  const voice = testSpeech({ clock: new SystemClock(), bus: new Bus() });
  voice.output.onPlay = (item) => void (item.kind === 'earcon' && r.earcons.push(item.text));
  const { speech } = voice;
  const front = { abortRequest: () => void r.aborted++ } as unknown as PathFront;
  r.comp = satelliteComponent({
    config,
    secrets: {} as Secrets,
    bus,
    clock: new SystemClock(),
    log: memoryLogger(),
    hooks: { front: () => front, speech: () => speech, setMuted: () => {} },
  });
  let port = 0;
  bus.on('ha.satellite.listening', (e) => void (port = e.port));
  await r.comp.start();
  r.peer = await HaSatellitePeer.connect(port, {
    stt: (pcm) => (pcm.length ? 'the kitchen' : ''),
    agent: () => ({ speech: ANSWER, continueConversation: r.peer.runs.length === 1 }),
    ttsUrl: () => media.url('/api/tts_proxy/answer.wav'),
  });
  let subscribed = false;
  bus.on('ha.satellite.subscribed', () => void (subscribed = true));
  await until(() => subscribed, 3000, 'the subscription');
  r.segment = (index, text, effects, actions = []) => {
    const pcm = new Int16Array(16000).map((_, i) => Math.round(5000 * Math.sin(i / 7)));
    const seg = {
      index,
      pcm,
      prerollSamples: 0,
      startSample: 0,
      vadStartSample: 0,
      endSample: pcm.length,
      closeReason: 'silence',
      maxProb: 0.9,
      openedBy: 'vad',
    } as unknown as Segment;
    r.comp.watcher.closed!(seg);
    for (const e of effects) bus.emit('router.effect', { ...e, atMs: 0 } as never);
    bus.emit('segment.handled', {
      segment: index,
      fate: 'dispatched',
      reason: null,
      utterance: { id: `u${index}`, text, engine: 'test' },
      actions,
      sttMs: 1,
      latencyMs: 1,
      actionMs: null,
    });
  };
  return r;
}

const matched = (frame: string, kind: string): Effect => ({ type: 'matched', frame, rule: 0, kind, text: '' });

describe('a continued conversation through the satellite component', () => {
  let r: Rig;
  afterEach(async () => {
    r?.peer.conn.disconnect();
    await r?.comp.stop();
  });

  /** "computer, turn on the light": hark's rules take only the wake phrase; Home Assistant asks back. */
  async function askedBack(): Promise<void> {
    r = await rig();
    r.segment(1, 'computer turn on the light', [matched('base', 'prefix'), matched('query', 'catch-all')]);
    await r.peer.until(() => r.peer.runs.length === 2 && r.peer.state === 'listening', 10_000, 'the continued run');
    expect(r.peer.runs[1]!.conversationId).toBe(r.peer.runs[0]!.conversationId);
    expect(r.earcons).toContain('listening');
  }

  it("the answer said in the window (no wake phrase) is the open run's audio", async () => {
    await askedBack();
    const ignored: Effect = { type: 'ignored', frame: 'base', text: 'the kitchen', reason: 'not addressed' };
    r.segment(2, 'the kitchen', [ignored]);
    await r.peer.until(() => r.peer.runs[1]!.events.includes('RUN_END'), 10_000, 'the continued run to end');
    expect(r.peer.runs).toHaveLength(2);
    expect(r.peer.runs[1]!).toMatchObject({ endedBy: 'end', transcript: 'the kitchen', wakeWordPhrase: null });
  });

  it("an answer hark's own rules take (a timer) aborts the open run: Home Assistant is left with nothing waiting", async () => {
    await askedBack();
    r.segment(2, 'set a timer for five minutes', [matched('query', 'kitchen')], ['timer.set']);
    await r.peer.until(() => r.peer.runs[1]!.events.includes('RUN_END'), 5000, 'the abort');
    expect(r.peer.runs[1]!).toMatchObject({ endedBy: 'abort', cancelled: true, transcript: null });
    expect(r.peer.state).toBe('idle');
    expect(r.peer.runs).toHaveLength(2);
  });
});
