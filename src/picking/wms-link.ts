import type { Logger } from '../core/log.js';
import type { PickingConfig } from './config.js';
import { httpChannel } from './http-channel.js';
import { MqttLink } from './mqtt-link.js';
import type { Offered } from './runtime.js';
import type { ResultChannel } from './sender.js';

/** The way to the warehouse system the config names: HTTP (picking.wms.url) or the fleet's broker (picking.wms.mqtt). */
export interface WmsLink {
  channel: ResultChannel;
  start(): void;
  stop(): Promise<void>;
}

export function wmsLink(o: {
  picking: PickingConfig;
  mqtt: { url: string; device: string; topicPrefix: string; reconnectInitialMs: number };
  secrets: { wmsToken?: string | undefined; mqttUsername?: string | undefined; mqttPassword?: string | undefined };
  log: Logger;
  offer: (raw: unknown) => Offered;
  onConnected?: () => void;
}): WmsLink | null {
  const w = o.picking.wms;
  if (w.url) {
    const channel = httpChannel({ url: w.url, timeoutMs: w.timeoutMs, token: o.secrets.wmsToken });
    return { channel, start: () => o.onConnected?.(), stop: async () => {} };
  }
  if (w.mqtt && o.mqtt.url) {
    const link = new MqttLink({
      url: o.mqtt.url,
      device: o.mqtt.device,
      topicPrefix: o.mqtt.topicPrefix,
      username: o.secrets.mqttUsername,
      password: o.secrets.mqttPassword,
      timeoutMs: w.timeoutMs,
      reconnectMs: o.mqtt.reconnectInitialMs,
      log: o.log,
      offer: o.offer,
      ...(o.onConnected ? { onConnected: o.onConnected } : {}),
    });
    return { channel: link, start: () => link.start(), stop: () => link.stop() };
  }
  return null;
}
