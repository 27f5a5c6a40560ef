import { hostname } from 'node:os';
import { z } from 'zod';
import { flag, intBetween, ms, oneOf, section, text } from '../core/config-fields.js';

/** A topic level: no MQTT wildcards or separators, so a device or room name cannot widen a subscription. */
const TOPIC_LEVEL = /^[a-z0-9][a-z0-9_-]*$/;

/** This device's id from the host name, made a safe topic level ("Kitchen-Pi.local" → "kitchen-pi"). */
export function deviceIdFromHost(host = hostname()): string {
  const id = host
    .split('.')[0]!
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^[-_]+|-+$/g, '');
  return id || 'hark';
}

const level = (def: string, what: string) =>
  z
    .string({ error: 'must be a string' })
    .trim()
    .toLowerCase()
    .refine((s) => s === '' || TOPIC_LEVEL.test(s), `must be a ${what} of letters, digits, - and _ (no spaces, /, + or #)`)
    .default(def);

const prefix = (def: string) =>
  z
    .string({ error: 'must be a string' })
    .min(1, 'must not be empty')
    .refine((s) => !/[+#]/.test(s) && !s.startsWith('/') && !s.endsWith('/'), 'must be a topic without +, # or a leading or trailing /')
    .default(def);

const RING_SCOPE = oneOf(['device', 'area', 'site'] as const, 'device');

/**
 * mqtt: the fleet. Off unless `url` is set. The user name and password come only from
 * the environment (HARK_MQTT_USERNAME, HARK_MQTT_PASSWORD), never from this file.
 */
export const mqttSection = section({
  /** mqtt://host:1883, mqtts://host:8883 (TLS), ws:// or wss://. Empty: no fleet. */
  url: text('').refine((s) => s === '' || /^(mqtts?|wss?):\/\/[^/\s]+/.test(s), 'must be an mqtt://, mqtts://, ws:// or wss:// URL with a host'),
  /** This device's id in topics and in Home Assistant; default: the host name. */
  device: level(deviceIdFromHost(), 'name').refine((s) => s !== '' && s !== 'room', 'must not be empty or "room" (room/ is the room topics)'),
  /** Devices that can hear each other: only one of a room acts on a command. Empty: device.area (the room the device stands in); neither: no arbitration. */
  room: level('', 'room name'),
  topicPrefix: prefix('hark'),
  discoveryPrefix: prefix('homeassistant'),
  /** Publish Home Assistant discovery configs. */
  discovery: flag(true),
  /**
   * Where a due timer rings: `device` (only the one that set it), `area` (every device of its
   * device.area, or mqtt.room without one), `site` (every device under topicPrefix). Stopped at any of
   * them, it stops on all.
   */
  ringOn: RING_SCOPE,
  /** ...per timer name, over ringOn: {fryer: site, pasta: area}. */
  ringOnByName: z.record(z.string().trim().toLowerCase().min(1, 'a timer name must not be empty'), RING_SCOPE).default({}),
  /** How long a device waits for the room's other claims on a command before acting (the latency it adds). */
  arbitrationWindowMs: ms(200, 0, 5000),
  /** Events kept while the broker is away; the oldest go first (counted). */
  queueMax: intBetween(1, 100_000, 1000),
  reconnectInitialMs: ms(1000, 100, 600_000),
  reconnectMaxMs: ms(30_000, 100, 3_600_000),
  connectTimeoutMs: ms(5000, 500, 120_000),
  keepaliveS: intBetween(5, 3600, 30),
  /** mqtts:// only: a CA bundle, a client certificate and key (PEM paths); verify the broker. */
  tls: section({
    ca: text(''),
    cert: text(''),
    key: text(''),
    rejectUnauthorized: flag(true),
  }),
}).superRefine((c, ctx) => {
  if (c.reconnectMaxMs < c.reconnectInitialMs) ctx.addIssue({ code: 'custom', path: ['reconnectMaxMs'], message: 'must not be below mqtt.reconnectInitialMs' });
});

export type MqttConfig = z.infer<typeof mqttSection>;
