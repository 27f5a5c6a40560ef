import { createRequire } from 'node:module';

/**
 * Home Assistant's side of the ESPHome native API, played by a real client library from npm
 * (@2colors/esphome-native-api: its own framing, its own Noise initiator over noise-c.wasm, its own
 * google-protobuf classes generated from api.proto). Its id table stops before the voice-assistant
 * messages (ids 89-123), so they are added here from its own generated classes and api.proto's
 * ids; nothing else of the library is changed.
 */
const require = createRequire(import.meta.url);
const lib = require('@2colors/esphome-native-api') as { Connection: new (o: Record<string, unknown>) => EsphomeConnection };
const messages = require('@2colors/esphome-native-api/lib/utils/messages.js') as { pb: Record<string, PbClass>; id_to_type: Record<number, string> };

export const pb = messages.pb;

const VOICE_IDS: Record<string, number> = {
  SubscribeVoiceAssistantRequest: 89,
  VoiceAssistantRequest: 90,
  VoiceAssistantResponse: 91,
  VoiceAssistantEventResponse: 92,
  VoiceAssistantAudio: 106,
  VoiceAssistantTimerEventResponse: 115,
  VoiceAssistantAnnounceRequest: 119,
  VoiceAssistantAnnounceFinished: 120,
  VoiceAssistantConfigurationRequest: 121,
  VoiceAssistantConfigurationResponse: 122,
  VoiceAssistantSetConfiguration: 123,
};
for (const [type, id] of Object.entries(VOICE_IDS)) {
  messages.id_to_type[id] = type;
  const cls = pb[type]!;
  cls.type = type;
  cls.id = id;
}

export interface PbMessage {
  serializeBinary(): Uint8Array;
  toObject(): Record<string, unknown>;
  [setter: string]: unknown;
}
export interface PbClass {
  new (): PbMessage;
  type: string;
  id: number;
}

export interface EsphomeConnection {
  connect(): void;
  disconnect(): void;
  connected: boolean;
  authorized: boolean;
  on(event: string, fn: (...a: any[]) => void): void;
  once(event: string, fn: (...a: any[]) => void): void;
  off(event: string, fn: (...a: any[]) => void): void;
  sendMessage(m: PbMessage): void;
  deviceInfoService(): Promise<Record<string, unknown>>;
  listEntitiesService(): Promise<{ component: string; entity: Record<string, unknown> }[]>;
  pingService(): Promise<unknown>;
  disconnectService(): Promise<unknown>;
  subscribeStatesService(): void;
  switchCommandService(d: { key: number; state: boolean }): void;
  sendMessageAwaitResponse(m: PbMessage, response: string, timeoutSeconds?: number): Promise<Record<string, unknown>>;
}

/** Build a message of `type` from setter values: msg('VoiceAssistantResponse', { port: 0 }). */
export function msg(type: string, fields: Record<string, unknown> = {}): PbMessage {
  const m = new pb[type]!();
  for (const [k, v] of Object.entries(fields)) {
    const setter = `set${k[0]!.toUpperCase()}${k.slice(1)}`;
    if (typeof m[setter] !== 'function') throw new Error(`${type} has no ${setter}`);
    (m[setter] as (x: unknown) => void).call(m, v);
  }
  return m;
}

export function eventMsg(eventType: number, data: Record<string, string> = {}): PbMessage {
  const m = msg('VoiceAssistantEventResponse', { eventType });
  for (const [name, value] of Object.entries(data)) {
    const d = new pb.VoiceAssistantEventData!();
    (d.setName as (x: string) => void)(name);
    (d.setValue as (x: string) => void)(value);
    (m.addData as (x: PbMessage) => void)(d);
  }
  return m;
}

/** Connect as Home Assistant; resolves once hello (and auth, for old API versions) is done. */
export async function connectClient(
  port: number,
  o: { encryptionKey?: string; expectedServerName?: string; timeoutMs?: number } = {},
): Promise<EsphomeConnection> {
  const conn = new lib.Connection({
    host: '127.0.0.1',
    port,
    reconnect: false,
    clientInfo: 'Home Assistant (test)',
    pingInterval: 60_000,
    ...(o.encryptionKey ? { encryptionKey: o.encryptionKey } : {}),
    ...(o.expectedServerName ? { expectedServerName: o.expectedServerName } : {}),
  });
  const errors: Error[] = [];
  conn.on('error', (e: Error) => errors.push(e));
  await new Promise<void>((resolve, reject) => {
    const t = setTimeout(
      () => reject(new Error(`no connection within ${o.timeoutMs ?? 5000} ms: ${errors.map((e) => e.message).join('; ')}`)),
      o.timeoutMs ?? 5000,
    );
    conn.once('authorized', () => (clearTimeout(t), resolve()));
    conn.once('disconnected', () => (clearTimeout(t), reject(new Error(`disconnected: ${errors.map((e) => e.message).join('; ')}`))));
    conn.connect();
  });
  return conn;
}

/** The next message of a type (as the library maps it to a plain object). */
export function nextMessage(conn: EsphomeConnection, type: string, timeoutMs = 5000): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const fn = (m: Record<string, unknown>) => (clearTimeout(t), resolve(m));
    const t = setTimeout(() => (conn.off(`message.${type}`, fn), reject(new Error(`no ${type} within ${timeoutMs} ms`))), timeoutMs);
    conn.once(`message.${type}`, fn);
  });
}
