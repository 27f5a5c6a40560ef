import { Backoff } from '../core/backoff.js';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import type { KitchenTimer } from '../command/actions/timers.js';
import type { Secrets } from '../core/secrets.js';
import type { MqttConfig } from './config.js';
import type { Bus, HarkEventName } from '../core/bus.js';
import type { Clock } from '../core/clock.js';
import { errorMessage } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import type { Mode } from '../core/effects.js';
import { parseRoomMessage, type Claim } from './arbitration.js';
import { RoomArbiter, type ArbitrationOutcome } from './arbiter.js';
import { parseCommand, type FleetCommand } from './commands.js';
import { discoveryMessages } from './discovery.js';
import { publicationsFor, timersState, type Dashboard } from './events.js';
import { BoundedQueue, type Outgoing } from './queue.js';
import { Topics } from './topics.js';
import { parseRingStop, parseRingingState, ringingState, scopeOf, SiteRing, type RingOutbox, type RingScope, type SiteRingHooks } from './site-ring.js';

/** What the fleet may ask of the rest of hark (the daemon wires these to the segment path). */
export interface FleetHooks extends SiteRingHooks {
  /** Words handled exactly as if heard (cmd/utterance; cmd/mode as the mode's words). */
  heardText(text: string, from: string): Promise<void>;
  say(text: string): void;
  timers(): KitchenTimer[];
  setTimer(seconds: number, label?: string): void;
  timerAct(op: 'cancel' | 'pause' | 'resume', label: string | undefined, all: boolean): void;
}

export type FleetState = 'off' | 'connecting' | 'connected' | 'reconnecting' | 'refused';

export interface FleetStatus {
  state: FleetState;
  url: string;
  device: string;
  room: string | null;
  queued: number;
  dropped: number;
  lastError: string | null;
}

declare module '../core/bus.js' {
  interface HarkEvents {
    /** The broker connection changed (the debug page and /metrics read it). */
    'fleet.state': FleetStatus;
    /** A room decided who acts on a command: this device, or the one named in `to`. */
    'fleet.arbitration': ArbitrationOutcome;
    /** A command came in over MQTT (`error` when it was refused, with what was wrong). */
    'fleet.command': { topic: string; verb: string; ok: boolean; error?: string };
  }
}

/** Bus events that leave the device (the rest stay local). */
const FORWARDED: HarkEventName[] = ['segment.handled', 'router.effect', 'capture.up', 'capture.down', 'led.pattern', 'fleet.arbitration'];

/** Phrases the default base frame knows for each mode: a cmd/mode goes through the router like the words. */
const MODE_WORDS: Record<Mode, string> = { 'always-listen': 'always listen', 'wake-word': 'wake word mode' };

const EVENT_QOS = 1;

/**
 * The fleet over MQTT: availability with a last will, events and retained state out,
 * Home Assistant discovery, commands in, and the room arbiter. Start never waits for the broker and
 * nothing on the audio path waits on the network: publishing is fire-and-forget, and while the broker
 * is away messages wait in a bounded queue (oldest dropped, counted).
 */
export class Fleet {
  readonly topics: Topics;
  readonly arbiter: RoomArbiter | null;
  private client: MqttClient | null = null;
  private readonly queue: BoundedQueue;
  private readonly dash: Dashboard;
  private state: FleetState = 'off';
  private lastError: string | null = null;
  private readonly backoff: Backoff;
  private readonly unsubscribe: (() => void)[] = [];
  private stopping = false;
  private readonly ring: SiteRing;

  constructor(
    private readonly o: {
      config: MqttConfig;
      secrets: Secrets;
      bus: Bus;
      clock: Clock;
      log: Logger;
      hooks: FleetHooks;
      version: string;
      initialMode: string;
      /** The area a timer rung for its area rings in (device.area, else mqtt.room); null: none. */
      area?: string | null;
      /** Where stops said here for other devices' rings wait for their owners (the store); none: in memory only. */
      outbox?: RingOutbox | null;
      wallNow?: () => number;
    },
  ) {
    const c = o.config;
    this.topics = new Topics({ prefix: c.topicPrefix, device: c.device, room: c.room, discoveryPrefix: c.discoveryPrefix });
    this.queue = new BoundedQueue(c.queueMax);
    this.backoff = new Backoff(c.reconnectInitialMs, c.reconnectMaxMs);
    this.dash = { mode: o.initialMode, frame: 'base' };
    this.ring = new SiteRing({ device: c.device, area: o.area ?? null, hooks: o.hooks, outbox: o.outbox ?? null });
    // The arbiter reaches the room through this client; claims go out at QoS 0 (latency over delivery).
    const channel = {
      connected: () => this.client?.connected === true,
      publishClaim: (claim: Claim) => void this.client?.publish(this.topics.claim!, JSON.stringify(claim), { qos: 0 }),
    };
    this.arbiter = c.room
      ? new RoomArbiter({ device: c.device, windowMs: c.arbitrationWindowMs, clock: o.clock, channel, onOutcome: (x) => o.bus.emit('fleet.arbitration', x) })
      : null;
  }

  get status(): FleetStatus {
    return {
      state: this.state,
      url: this.o.config.url,
      device: this.o.config.device,
      room: this.o.config.room || null,
      queued: this.queue.size,
      dropped: this.queue.dropped,
      lastError: this.lastError,
    };
  }

  /** Where a timer of this device rings when it comes due: here, its area, or the site (mqtt.ringOn, mqtt.ringOnByName). */
  ringsOn(label: string | undefined): RingScope {
    return scopeOf(label, this.o.config);
  }

  /** Connects in the background: a broker that is down or refuses hark never holds up the daemon. */
  start(): void {
    const c = this.o.config;
    for (const name of FORWARDED) this.unsubscribe.push(this.o.bus.on(name, (p) => this.forward(name, p)));
    // The room hears at once that this device closed a segment, before speech-to-text: the others
    // then know to wait for its claim, and a device no one else heard acts without waiting.
    if (this.arbiter) this.unsubscribe.push(this.o.bus.on('segment.closed', (s) => this.segmentClosed(s.index)));
    let client: MqttClient;
    try {
      client = mqtt.connect(c.url, this.clientOptions());
    } catch (err) {
      // A missing certificate or a bad URL leaves hark running without the fleet, and says why.
      this.lastError = `cannot start the MQTT client: ${errorMessage(err)}`;
      this.o.log.error(`mqtt: ${this.lastError}; the fleet is off until this is fixed`, { url: c.url });
      this.setState('refused');
      return;
    }
    this.client = client;
    this.setState('connecting');
    client.on('connect', () => this.connected());
    client.on('message', (topic, payload, packet) => this.message(topic, payload.toString('utf8'), packet.retain));
    client.on('error', (err) => this.failed(err));
    client.on('close', () => {
      if (this.stopping) return;
      if (this.state === 'connected')
        this.o.log.warn('mqtt: connection to the broker lost; events are queued until it is back', { url: c.url, queueMax: c.queueMax });
      this.ring.brokerLost();
      if (this.state !== 'refused') this.setState('reconnecting');
      // Backoff: mqtt.js reads reconnectPeriod each time it schedules a reconnect.
      client.options.reconnectPeriod = this.backoff.fail();
    });
  }

  async stop(): Promise<void> {
    this.stopping = true;
    for (const u of this.unsubscribe.splice(0)) u();
    const client = this.client;
    this.client = null;
    if (!client) return;
    // A clean shutdown says "offline" itself (the last will is only for a death).
    if (client.connected) {
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, 1000);
        client.publish(this.topics.availability, 'offline', { qos: 1, retain: true }, () => (clearTimeout(t), resolve()));
      });
    }
    await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, 1000);
      client.end(!client.connected, {}, () => (clearTimeout(t), resolve()));
    });
    this.setState('off');
  }

  private clientOptions(): IClientOptions {
    const c = this.o.config;
    const tls = c.tls;
    return {
      clientId: `hark-${c.device}`,
      ...(this.o.secrets.mqttUsername ? { username: this.o.secrets.mqttUsername } : {}),
      ...(this.o.secrets.mqttPassword ? { password: this.o.secrets.mqttPassword } : {}),
      clean: true,
      keepalive: c.keepaliveS,
      connectTimeout: c.connectTimeoutMs,
      reconnectPeriod: c.reconnectInitialMs,
      // A broker that refused the credentials may be fixed without restarting hark: keep trying (with backoff).
      reconnectOnConnackError: true,
      // The bounded queue below keeps what waits while the broker is away, not mqtt.js's unbounded one.
      queueQoSZero: false,
      will: { topic: this.topics.availability, payload: Buffer.from('offline'), qos: 1, retain: true },
      ...(tls.ca ? { ca: readFileSync(tls.ca) } : {}),
      ...(tls.cert ? { cert: readFileSync(tls.cert) } : {}),
      ...(tls.key ? { key: readFileSync(tls.key) } : {}),
      rejectUnauthorized: tls.rejectUnauthorized,
    };
  }

  private connected(): void {
    const client = this.client;
    if (!client) return;
    const c = this.o.config;
    this.backoff.reset();
    client.options.reconnectPeriod = c.reconnectInitialMs;
    this.lastError = null;
    this.setState('connected');
    this.o.log.info('mqtt: connected', { url: c.url, device: c.device, room: c.room || null });
    client.publish(this.topics.availability, 'online', { qos: 1, retain: true });
    const subs = [
      ...this.topics.commandFilters,
      this.topics.haStatus,
      ...(this.topics.claim ? [this.topics.claim] : []),
      this.topics.peersRinging,
      this.topics.ringStop(),
      this.topics.ringAsk(),
    ];
    client.subscribe(subs, { qos: 1 }, (err) => err && this.o.log.error('mqtt: subscribe failed', { topics: subs, error: errorMessage(err) }));
    if (c.discovery) this.publishDiscovery();
    this.sendTimers();
    this.send(this.topics.state('mode'), { ...this.dash, at: new Date(this.wall()).toISOString() }, true);
    const waiting = this.queue.take();
    for (const m of waiting) client.publish(m.topic, m.payload, { qos: EVENT_QOS, retain: m.retain });
    // Stops said here that their owners have not confirmed (from before a restart, or lost in flight): again.
    for (const p of this.ring.pending()) client.publish(this.topics.ringStop(p.owner), JSON.stringify(p.stop), { qos: EVENT_QOS });
    if (waiting.length) this.o.log.info('mqtt: queued events sent', { count: waiting.length, droppedWhileAway: this.queue.dropped });
  }

  private segmentClosed(index: number): void {
    this.arbiter?.ownSegmentClosed(index);
    if (this.client?.connected) this.client.publish(this.topics.claim!, JSON.stringify({ closed: true, device: this.o.config.device }), { qos: 0 });
  }

  private publishDiscovery(): void {
    for (const m of discoveryMessages(this.topics, { version: this.o.version, room: this.o.config.room }))
      this.client?.publish(m.topic, JSON.stringify(m.payload), { qos: 1, retain: true });
  }

  private failed(err: Error & { code?: number | string }): void {
    const refused = typeof err.code === 'number' && err.code > 0;
    const why = refused
      ? `the broker refused the connection: ${err.message}${err.code === 4 || err.code === 134 || err.code === 5 || err.code === 135 ? ' (check HARK_MQTT_USERNAME / HARK_MQTT_PASSWORD and the broker ACL)' : ''}`
      : `cannot reach the broker at ${this.o.config.url}: ${err.message}`;
    // One line per new problem, not one per retry.
    if (why !== this.lastError) this.o.log.error(`mqtt: ${why}`, { retryInMs: this.backoff.nextMs });
    this.lastError = why;
    if (refused) this.setState('refused');
    else this.o.bus.emit('fleet.state', this.status);
  }

  private setState(s: FleetState): void {
    this.state = s;
    this.o.bus.emit('fleet.state', this.status);
  }

  private wall(): number {
    return (this.o.wallNow ?? Date.now)();
  }

  private forward(name: string, payload: unknown): void {
    for (const p of publicationsFor(name, payload, this.dash, this.wall())) {
      if (p.kind === 'event') this.send(this.topics.event(p.type), p.body, false);
      else if (p.kind === 'state') this.send(this.topics.state(p.name), p.body, true);
      else this.sendTimers();
    }
    if (name === 'router.effect') this.guestStopped(payload as Record<string, unknown>);
  }

  /** The retained timers state (this device's own timers) and the timers it rings beyond itself. */
  private sendTimers(): void {
    const own = this.o.hooks.timers().filter((t) => !t.from);
    this.send(this.topics.state('timers'), timersState(own, this.o.clock.now(), this.wall()), true);
    this.sendRinging();
  }

  private sendRinging(): void {
    const own = this.o.hooks.timers().filter((t) => !t.from);
    const c = this.o.config;
    const state = ringingState(
      c.device,
      this.o.area ?? null,
      own,
      (label) => scopeOf(label, c),
      (id) => this.ring.ringingSince(id, this.wall()),
      this.wall(),
    );
    this.ring.keepSince(state.ringing.map((r) => r.id));
    this.send(this.topics.state('ringing'), { ...state }, true);
  }

  /** Another device's timer was stopped here: the stop goes to its owner (queued while the broker is away). */
  private guestStopped(e: Record<string, unknown>): void {
    const from = e.from as { device: string; id: number } | undefined;
    if (e.type !== 'timer' || !from) return;
    if (e.event === 'gave-up') return this.ring.quietHere(from);
    if (e.event !== 'stopped' && e.event !== 'cancelled') return;
    const stop = this.ring.stoppedAtGuest(from, e.by === 'button' ? 'button' : 'voice', randomUUID());
    if (stop) this.send(this.topics.ringStop(from.device), { ...stop }, false);
  }

  /** Publish now if connected, otherwise queue (bounded). Never waits, never throws. */
  private send(topic: string, body: Record<string, unknown>, retain: boolean): void {
    const m: Outgoing = { topic, payload: JSON.stringify(body), retain };
    const client = this.client;
    if (client?.connected) client.publish(m.topic, m.payload, { qos: EVENT_QOS, retain });
    else {
      const before = this.queue.dropped;
      this.queue.push(m);
      if (this.queue.dropped > before) this.o.bus.emit('fleet.state', this.status);
    }
  }

  private message(topic: string, payload: string, retained: boolean): void {
    const owner = this.topics.ringingOwner(topic);
    if (owner !== null) {
      const { again, ask } = this.ring.peerState(owner, payload ? parseRingingState(payload) : null, retained);
      for (const stop of again) this.send(this.topics.ringStop(owner), { ...stop }, false);
      // Not queued: an owner away answers anyway when it is back (it publishes its state at connect).
      if (ask && this.client?.connected) this.client.publish(this.topics.ringAsk(owner), JSON.stringify({ device: this.o.config.device }), { qos: EVENT_QOS });
      return;
    }
    // Asked what it rings: its state again, fresh (the payload is not read: any ask is answered).
    if (topic === this.topics.ringAsk()) return this.sendRinging();
    if (topic === this.topics.ringStop()) {
      // Retained, it would stop the next ring of that id at every reconnect.
      if (retained) return this.refuse(topic, 'ring/stop', payload, 'retained stops are ignored (publish them without the retain flag)');
      const stop = parseRingStop(payload);
      if ('error' in stop) return this.refuse(topic, 'ring/stop', payload, stop.error);
      this.ring.stopArrived(stop);
      return;
    }
    if (topic === this.topics.claim) {
      const m = parseRoomMessage(payload);
      if (m?.kind === 'claim') this.arbiter?.claimArrived(m.claim);
      else if (m?.kind === 'closed') this.arbiter?.peerSegmentClosed(m.device);
      return;
    }
    if (topic === this.topics.haStatus) {
      if (payload.trim() === 'online' && this.o.config.discovery) this.publishDiscovery();
      return;
    }
    const cmd = this.topics.parseCommand(topic);
    if (!cmd) return;
    // A retained command would act again at every reconnect: commands are for now only.
    if (retained) return this.refuse(topic, cmd.verb, payload, 'retained commands are ignored (publish commands without the retain flag)');
    const parsed = parseCommand(cmd.verb, payload);
    if (!parsed.ok) return this.refuse(topic, cmd.verb, payload, parsed.error);
    this.o.bus.emit('fleet.command', { topic, verb: cmd.verb, ok: true });
    try {
      this.execute(parsed.command, topic);
    } catch (err) {
      this.refuse(topic, cmd.verb, payload, `${cmd.verb} failed: ${errorMessage(err)}`);
    }
  }

  private refuse(topic: string, verb: string, payload: string, error: string): void {
    this.o.log.warn('mqtt: command refused', { topic, error });
    this.o.bus.emit('fleet.command', { topic, verb, ok: false, error });
    this.send(this.topics.event('error'), { topic, verb, error, payload: payload.slice(0, 200), at: new Date(this.wall()).toISOString() }, false);
  }

  private execute(c: FleetCommand, topic: string): void {
    const h = this.o.hooks;
    switch (c.verb) {
      case 'say':
        return h.say(c.text);
      case 'utterance':
        void h.heardText(c.text, `mqtt ${topic}`);
        return;
      case 'mode':
        void h.heardText(MODE_WORDS[c.mode], `mqtt ${topic}`);
        return;
      case 'timer':
        if (c.action === 'set') return h.setTimer(c.seconds, c.label);
        return h.timerAct(c.action, c.label, c.all);
    }
  }
}
