import { createRequire } from 'node:module';
import type { Secrets } from '../core/secrets.js';
import type { Bus } from '../core/bus.js';
import type { Clock } from '../core/clock.js';
import type { DeviceConfig } from '../core/device-config.js';
import type { Logger } from '../core/log.js';
import type { Component } from '../path/lifecycle.js';
import type { PathFront } from '../path/plugins.js';
import type { Speech } from '../speech/create.js';
import type { RouterConfig } from '../command/config.js';
import { Fleet, type FleetHooks } from './client.js';
import type { MqttConfig } from './config.js';
import type { RingOutbox } from './site-ring.js';

const pkg = createRequire(import.meta.url)('../../package.json') as { version: string };

/**
 * The fleet's hooks into hark, read when a command arrives (the path is built after the fleet starts):
 * only through the path's narrow front (src/path/plugins.ts).
 */
export function fleetHooks(front: () => PathFront | null, speech: () => Speech | null): FleetHooks {
  const timers = () => front()?.timers;
  return {
    heardText: (text, from) => front()?.heardText(text, from) ?? Promise.resolve(),
    say: (text) => {
      const s = speech();
      if (!s) throw new Error('speech output is off on this device');
      s.queue.say(text);
    },
    timers: () => timers()?.list() ?? [],
    setTimer: (seconds, label) => void timers()?.set(seconds, label),
    timerAct: (op, label, all) => timers()?.act(op, label ? { name: label } : {}, all),
    // How long it has rung at the owner, by wall time (the timers keep their own clock).
    ringGuest: (from, label, ring) =>
      timers()?.ringGuest(from, label, ring ? { seconds: ring.seconds, rungMs: Math.max(0, Date.now() - (Date.parse(ring.since) || Date.now())) } : undefined),
    endGuest: (from) => timers()?.endGuest(from),
    stopOwn: (id, by, at) => timers()?.stopOwn(id, by, at) ?? false,
  };
}

/** The sections the fleet reads: its own, the room the device stands in, and the mode it starts in. */
export interface FleetSections {
  mqtt: MqttConfig;
  device: DeviceConfig;
  router: Pick<RouterConfig, 'mode'>;
}

/**
 * The daemon's fleet component: nothing unless mqtt.url is set. Started after the store and before
 * the router (which takes its arbiter) and capture; stopped before the store, saying "offline".
 */
export function fleetComponent(
  o: { config: FleetSections; secrets: Secrets; bus: Bus; clock: Clock; log: Logger; hooks: FleetHooks; outbox?: () => RingOutbox | null },
  keep: (f: Fleet | null) => void,
): Component {
  let fleet: Fleet | null = null;
  return {
    name: 'fleet',
    start: () => {
      if (!o.config.mqtt.url) return;
      // One room setting: devices that hear each other are the ones in the same area, unless mqtt.room says otherwise.
      const mqtt = { ...o.config.mqtt, room: o.config.mqtt.room || (o.config.device.area ?? '') };
      // A timer rung for its area rings on the devices of the same device.area (mqtt.room without one).
      const area = o.config.device.area || mqtt.room || null;
      fleet = new Fleet({
        config: mqtt,
        secrets: o.secrets,
        bus: o.bus,
        clock: o.clock,
        log: o.log,
        hooks: o.hooks,
        version: pkg.version,
        initialMode: o.config.router.mode,
        area,
        outbox: o.outbox?.() ?? null,
      });
      keep(fleet);
      fleet.start();
    },
    stop: async () => {
      await fleet?.stop();
      fleet = null;
      keep(null);
    },
  };
}
