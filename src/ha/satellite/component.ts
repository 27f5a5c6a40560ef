import { createRequire } from 'node:module';
import type { Secrets } from '../../core/secrets.js';
import type { Bus } from '../../core/bus.js';
import type { Clock } from '../../core/clock.js';
import type { DeviceConfig } from '../../core/device-config.js';
import { errorMessage } from '../../core/errors.js';
import type { Logger } from '../../core/log.js';
import type { Utterance } from '../../core/utterance.js';
import type { Component } from '../../path/lifecycle.js';
import type { Arbiter, PathFront, SegmentWatcher } from '../../path/plugins.js';
import { said } from '../../language/text.js';
import { rulePhrases } from '../../command/vocabulary.js';
import type { RouterConfig } from '../../command/config.js';
import type { Effect } from '../../core/effects.js';
import type { Speech } from '../../speech/create.js';
import type { Segment } from '../../vad/segment.js';
import { addressedBeforeRules, decide } from './decide.js';
import { macAddress, nodeName } from './identity.js';
import { decodeToPcm, fetchMedia } from './media.js';
import { advertise, esphomeTxt } from './mdns.js';
import { parseKey } from './noise.js';
import { ApiServer } from './server.js';
import { Satellite, type SatelliteHooks } from './satellite.js';
import type { Heard } from './wake-cut.js';
import type { HaSatelliteConfig } from './config.js';

const pkg = createRequire(import.meta.url)('../../../package.json') as { version: string };

/** What the satellite reads of hark, late (the path and speech are built after it starts). */
export interface SatelliteDaemonHooks {
  /** The command side's narrow front (src/path/plugins.ts): ring a timer, drop the open request. */
  front(): PathFront | null;
  speech(): Speech | null;
  setMuted(muted: boolean): void;
}

/** The sections the satellite reads: its own, the area it reports, and the frames whose phrases are wake phrases. */
export interface SatelliteSections {
  ha: { satellite: HaSatelliteConfig };
  device: DeviceConfig;
  router: Pick<RouterConfig, 'frames'>;
}

/** Closed segments kept for the decision that follows their transcript (one at a time, in order). */
const KEEP_SEGMENTS = 4;

/**
 * The daemon's Assist satellite component: nothing unless ha.satellite.enabled. Started
 * before speech and the router (Home Assistant can connect while they come up) and stopped after them.
 *
 * Where the decision is made: here, after hark's own rules have had each segment. The segment path
 * routes it as always; the bus says what the router did (router.effect) and how the segment ended
 * (segment.handled); decide() says whether it goes to Home Assistant; if so, the query frame's note
 * is dropped (router.abort) and the segment's audio goes out. A timer said to hark never waits on the network.
 */
export function satelliteComponent(o: {
  config: SatelliteSections;
  secrets: Secrets;
  bus: Bus;
  clock: Clock;
  log: Logger;
  hooks: SatelliteDaemonHooks;
}): Component & { watcher: SegmentWatcher; arbiter: (next?: Arbiter) => Arbiter | undefined } {
  const cfg = o.config.ha.satellite;
  let server: ApiServer | null = null;
  let satellite: Satellite | null = null;
  let unadvertise: (() => Promise<void>) | null = null;
  const offs: (() => void)[] = [];
  const segments = new Map<number, Segment>();
  /** Each kept segment's words as speech-to-text timed them (utterance.final): where its wake phrase ends. */
  const heardIn = new Map<number, Utterance>();
  let effects: Effect[] = [];
  let muted = false;
  const frameKinds = Object.fromEntries(Object.entries(o.config.router.frames as Record<string, { kind: string }>).map(([n, f]) => [n, f.kind]));

  const hooks: SatelliteHooks = {
    play: async (pcm, text) => {
      const speech = o.hooks.speech();
      if (!speech) throw new Error('speech output is off on this device');
      return speech.queue.clip(pcm, text, { priority: 'normal' }).done;
    },
    earcon: (name) => void o.hooks.speech()?.queue.earcon(name),
    muted: () => muted,
    setMuted: (m) => {
      if (m === muted) return;
      muted = m;
      o.hooks.setMuted(m);
      o.bus.emit('mute', { muted: m, by: 'api' });
    },
    ring: (label) => {
      const timers = o.hooks.front()?.timers;
      if (!timers) return o.log.warn('ha satellite: a timer finished but hark has no router to ring it');
      timers.ringNow(label);
    },
    media: async (url) => decodeToPcm(await fetchMedia(url, { maxBytes: cfg.maxMediaBytes, timeoutMs: cfg.fetchTimeoutMs })),
  };

  const frames = o.config.router.frames as Record<string, { kind: string }>;
  const wakePhrasesAsSaid = Object.values(frames)
    .filter((f) => f.kind === 'base')
    .flatMap((f) => rulePhrases(f, ['prefix']));
  const wakePhrases = wakePhrasesAsSaid.map((p) => said(p).norm);
  const heard = (seg: Segment, u: Pick<Utterance, 'text' | 'words' | 'tokens'> | undefined): Heard | undefined =>
    u ? { text: u.text, ...(u.words ? { words: u.words } : {}), ...(u.tokens ? { tokens: u.tokens } : {}), speechStartSample: seg.prerollSamples } : undefined;

  /**
   * localFirst off: the decision is made before hark's rules, at the segment path's arbiter seam
   * (after its transcript, before its dispatch): an addressed segment is Home Assistant's, and hark's
   * router never sees it (its fate: yielded to home-assistant). After the fleet's own arbitration,
   * so only the device nearest the speaker sends it.
   */
  const arbiter = (next?: Arbiter): Arbiter | undefined => {
    if (!cfg.enabled || cfg.localFirst) return next;
    return {
      decide: async (segment, utterance) => {
        const first = next ? await next.decide(segment, utterance) : ({ act: true } as const);
        if (!first.act || !satellite) return first;
        const why = addressedBeforeRules({ norm: said(utterance.text).norm, openedBy: segment.openedBy, followUp: satellite.followUp, wakePhrases });
        if (!why || !satellite.startRun(segment.pcm, why, heard(segment, utterance))) return first;
        return { act: false, to: 'home-assistant' };
      },
    };
  };

  const handled = (e: { segment: number; fate: string; actions: string[] }) => {
    if (!cfg.localFirst) return;
    const seg = segments.get(e.segment);
    const turn = effects;
    effects = [];
    if (!seg || !satellite) return;
    segments.delete(e.segment);
    const u = heardIn.get(e.segment);
    heardIn.delete(e.segment);
    const verdict = decide({ fate: e.fate, openedBy: seg.openedBy, effects: turn, actions: e.actions, followUp: satellite.followUp }, frameKinds);
    if (verdict.to === 'local') {
      // Said in a continued conversation and taken by hark's rules: the run waiting for it is dropped.
      if (e.fate === 'dispatched' && satellite.followUp) satellite.answeredLocally();
      o.bus.emit('ha.satellite.local', { segment: e.segment, why: verdict.why });
      return;
    }
    if (!satellite.ready) {
      // Nothing is lost to a network failure: the words stay with hark's query frame as they would without Home Assistant.
      o.log.warn('ha satellite: a segment for Home Assistant, but it is not connected; hark keeps it', { segment: e.segment });
      o.bus.emit('ha.satellite.local', { segment: e.segment, why: 'Home Assistant is not connected' });
      return;
    }
    // The query frame kept the words as a note: they are Home Assistant's now.
    o.hooks.front()?.abortRequest();
    satellite.startRun(seg.pcm, verdict.why, heard(seg, u));
  };

  return {
    name: 'ha-satellite',
    arbiter,
    watcher: {
      closed: (s) => {
        if (!satellite) return;
        segments.set(s.index, s);
        for (const k of segments.keys()) if (segments.size > KEEP_SEGMENTS) segments.delete(k);
        for (const k of heardIn.keys()) if (!segments.has(k)) heardIn.delete(k);
      },
    },
    start: async () => {
      if (!cfg.enabled) return;
      let key: Buffer | null = null;
      if (o.secrets.haApiKey) key = parseKey(o.secrets.haApiKey);
      const name = nodeName(cfg.name);
      const mac = macAddress(name);
      const friendlyName = cfg.friendlyName || name;
      satellite = new Satellite({
        config: cfg,
        name,
        friendlyName,
        mac,
        version: pkg.version,
        ...(o.config.device.area ? { area: o.config.device.area } : {}),
        wakePhrases: wakePhrasesAsSaid,
        bus: o.bus,
        clock: o.clock,
        log: o.log,
        hooks,
      });
      server = new ApiServer({ host: cfg.host, port: cfg.port, key, serverInfo: `hark ${pkg.version}`, satellite, log: o.log, clock: o.clock });
      const port = await server.listen();
      o.log.info('ha satellite: ESPHome native API listening', { host: cfg.host, port, name, encrypted: key !== null });
      o.bus.emit('ha.satellite.listening', { port, encrypted: key !== null, name });
      offs.push(
        o.bus.on('router.effect', (e) => void effects.push(e as Effect)),
        o.bus.on('utterance.final', (u) => {
          if (typeof u.segmentId === 'number' && segments.has(u.segmentId)) heardIn.set(u.segmentId, u);
        }),
        o.bus.on('segment.handled', handled),
        o.bus.on('mute', (e) => {
          if (e.by === 'api') return;
          muted = e.muted;
          satellite?.muteChanged(muted);
        }),
      );
      if (cfg.mdns) {
        try {
          unadvertise = advertise({
            name,
            port,
            txt: esphomeTxt({ mac, version: '2025.10.0', friendlyName, encryption: server.encryption, projectVersion: pkg.version }),
            log: o.log,
            ...(cfg.mdnsInterface ? { iface: cfg.mdnsInterface } : {}),
          });
        } catch (err) {
          o.log.warn('ha satellite: cannot advertise over mDNS; add the device by host and port', { error: errorMessage(err) });
        }
      }
    },
    stop: async () => {
      for (const off of offs.splice(0)) off();
      await unadvertise?.().catch(() => {});
      unadvertise = null;
      await server?.close();
      server = null;
      satellite = null;
      segments.clear();
      heardIn.clear();
    },
  };
}
