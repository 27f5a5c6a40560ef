import { haSatelliteSection } from '../../src/ha/satellite/config.js';
import { Bus } from '../../src/core/bus.js';
import { SystemClock, type Clock } from '../../src/core/clock.js';
import { memoryLogger } from '../../src/core/log.js';
import { decodeToPcm, fetchMedia } from '../../src/ha/satellite/media.js';
import { ApiServer } from '../../src/ha/satellite/server.js';
import { Satellite, type SatelliteHooks } from '../../src/ha/satellite/satellite.js';
import type { PeerOptions } from './ha-satellite-peer.js';

/**
 * hark's satellite and native API server in process, for runs against Home Assistant's side
 * (ha-satellite-peer.ts): playback, earcons and mute are recorded; media fetching and decoding are
 * the real ones (HTTP + sox).
 */
export interface SatelliteRig {
  server: ApiServer;
  satellite: Satellite;
  port: number;
  played: { text: string; samples: number }[];
  earcons: string[];
  setMuted: (m: boolean) => void;
  log: ReturnType<typeof memoryLogger>;
  bus: Bus;
  /** While `holding`, each playback waits: `release` ends the latest, `releases` each in the order they began. */
  hold: { release: (() => void) | null; releases: (() => void)[]; holding: boolean };
}

/** `clock`: the satellite's own (a VirtualClock to step its windows); the sockets run in real time. */
export async function satelliteRig(key: Buffer | null = null, clock: Clock = new SystemClock()): Promise<SatelliteRig> {
  const log = memoryLogger();
  const bus = new Bus();
  const r = { played: [], earcons: [], hold: { release: null, releases: [], holding: false } } as unknown as SatelliteRig;
  let muted = false;
  const hooks: SatelliteHooks = {
    play: async (pcm, text) => {
      r.played.push({ text, samples: pcm.length });
      if (r.hold.holding) await new Promise<void>((res) => void r.hold.releases.push((r.hold.release = res)));
      return 'ended';
    },
    earcon: (n) => void r.earcons.push(n),
    muted: () => muted,
    setMuted: (m) => void (muted = m),
    ring: () => {},
    media: async (url) => decodeToPcm(await fetchMedia(url, { maxBytes: 1 << 20, timeoutMs: 3000 })),
  };
  const config = haSatelliteSection.parse({ enabled: true, port: 0, host: '127.0.0.1', mdns: false });
  const satellite = new Satellite({
    config,
    name: 'hark-test',
    friendlyName: 'hark test',
    mac: '0242ac110002',
    version: '0.1.0',
    wakePhrases: ['computer', 'hey computer', 'ok computer'],
    bus,
    clock,
    log,
    hooks,
  } as ConstructorParameters<typeof Satellite>[0]);
  const server = new ApiServer({ host: '127.0.0.1', port: 0, key, serverInfo: 'hark test', satellite, log });
  const port = await server.listen();
  r.setMuted = (m) => {
    muted = m;
    satellite.muteChanged(m);
  };
  return Object.assign(r, { server, satellite, port, log, bus });
}

export const until = async (pred: () => boolean, ms: number, what: string): Promise<void> => {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((res) => setTimeout(res, 10));
  }
};

/** Home Assistant's speech-to-text and agent for these runs: it hears words when there is audio; the answer is served at `ttsUrl`. */
export const haSide = (ttsUrl: () => string, o: Partial<PeerOptions> = {}): PeerOptions => ({
  stt: (pcm) => (pcm.length > 0 ? 'turn on the extractor fan' : ''),
  agent: () => ({ speech: 'The extractor fan is on.' }),
  ttsUrl,
  ...o,
});

/** One second of "speech" (a loud tone), pre-roll first. */
export function toneSegment(): Int16Array {
  const pcm = new Int16Array(16000);
  for (let i = 0; i < pcm.length; i++) pcm[i] = Math.round(6000 * Math.sin(i / 5));
  return pcm;
}
