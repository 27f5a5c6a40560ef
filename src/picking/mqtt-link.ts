import mqtt, { type MqttClient } from 'mqtt';
import { errorMessage } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import { MESSAGE_VERSION, type PickResult } from './assignment.js';
import type { Offered } from './runtime.js';
import type { ResultChannel } from './sender.js';

/** Picking's topics under the fleet's prefix and this device (docs/picking.md). */
export function pickingTopics(prefix: string, device: string) {
  const base = `${prefix}/${device}/picking`;
  return { assignment: `${base}/assignment`, accepted: `${base}/accepted`, refused: `${base}/refused`, result: `${base}/result` };
}

export interface MqttLinkOptions {
  url: string;
  device: string;
  topicPrefix: string;
  username?: string | undefined;
  password?: string | undefined;
  /** A publish not acknowledged (PUBACK) within this long failed; the sender sends it again. */
  timeoutMs: number;
  reconnectMs: number;
  log: Logger;
  /** An assignment as it arrived (parsed JSON, or the text when it was not JSON). */
  offer(raw: unknown): Offered;
  onConnected?: () => void;
}

/**
 * Picking over the site's MQTT broker, on its own connection (the fleet's client is the fleet's):
 * assignments arrive on `<p>/<d>/picking/assignment` (QoS 1, a persistent session, so one published
 * while hark was off is delivered when it is back), each answered on `accepted` or `refused`
 * (naming every problem); results go out on `result`, QoS 1, taken when the broker acknowledges
 * them. Not connected is a failed send, never a silent queue: the outbox is the queue.
 */
export class MqttLink implements ResultChannel {
  readonly name: string;
  private client: MqttClient | null = null;
  private readonly topics;

  constructor(private readonly o: MqttLinkOptions) {
    this.name = `mqtt ${o.url}`;
    this.topics = pickingTopics(o.topicPrefix, o.device);
  }

  start(): void {
    const client = mqtt.connect(this.o.url, {
      clientId: `hark-picking-${this.o.device}`,
      clean: false,
      reconnectPeriod: this.o.reconnectMs,
      connectTimeout: 5000,
      // The outbox keeps what must go; mqtt.js must not hold a second copy of its own.
      queueQoSZero: false,
      ...(this.o.username ? { username: this.o.username, password: this.o.password ?? '' } : {}),
    });
    this.client = client;
    client.on('connect', (ack) => {
      // A session the broker kept has the subscription already; a new one needs it, and the link is
      // ready only once the broker has it (an assignment published before would not reach hark).
      if (ack.sessionPresent) return this.o.onConnected?.();
      client.subscribe(this.topics.assignment, { qos: 1 }, (err) => {
        if (err) return this.o.log.warn('picking: cannot subscribe to assignments', { error: errorMessage(err) });
        this.o.onConnected?.();
      });
    });
    client.on('error', (err) => this.o.log.warn('picking: mqtt', { url: this.o.url, error: errorMessage(err) }));
    client.on('message', (topic, payload) => {
      if (topic !== this.topics.assignment) return;
      this.assignment(payload.toString('utf8'));
    });
  }

  async send(result: PickResult): Promise<void> {
    const c = this.client;
    if (!c?.connected) throw new Error(`not connected to ${this.o.url}`);
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        c.publishAsync(this.topics.result, JSON.stringify(result), { qos: 1 }),
        new Promise(
          (_, reject) => (timer = setTimeout(() => reject(new Error(`no PUBACK from ${this.o.url} within ${this.o.timeoutMs} ms`)), this.o.timeoutMs)),
        ),
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  async stop(): Promise<void> {
    const c = this.client;
    this.client = null;
    if (!c) return;
    await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, 1000);
      c.end(false, {}, () => (clearTimeout(t), resolve()));
    });
  }

  private assignment(text: string): void {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (err) {
      return this.answer(this.topics.refused, { version: MESSAGE_VERSION, type: 'refused', problems: [`(the message): not valid JSON: ${errorMessage(err)}`] });
    }
    const r = this.o.offer(raw);
    const id = typeof (raw as { id?: unknown })?.id === 'string' ? { id: (raw as { id: string }).id } : {};
    if (!r.ok) return this.answer(this.topics.refused, { version: MESSAGE_VERSION, type: 'refused', ...id, problems: r.problems });
    this.answer(this.topics.accepted, { version: MESSAGE_VERSION, type: 'accepted', id: r.assignment.id, duplicate: r.duplicate });
  }

  private answer(topic: string, body: Record<string, unknown>): void {
    this.client?.publish(topic, JSON.stringify(body), { qos: 1 });
  }
}
