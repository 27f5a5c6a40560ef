import mqtt from 'mqtt';
import type { Check, CheckResult } from '../doctor/check.js';
import { errorMessage } from '../core/errors.js';

/**
 * `hark doctor`: is the MQTT broker reachable, and does it accept hark's credentials? One real
 * connection, no retries, closed at once (no availability message, no last will).
 */
export const mqttCheck: Check = {
  id: 'mqtt',
  title: 'MQTT broker (the fleet)',
  async run(ctx): Promise<CheckResult> {
    const cfg = ctx.loaded?.config.mqtt;
    if (!cfg) return { status: 'warn', detail: 'not checked: the config could not be loaded', fix: 'fix the config first' };
    if (!cfg.url) return { status: 'ok', detail: 'fleet off (mqtt.url is not set)' };
    const s = ctx.loaded!.secrets;
    const who = s.mqttUsername ? `as ${s.mqttUsername}` : 'without a user name';
    return new Promise<CheckResult>((resolve) => {
      const client = mqtt.connect(cfg.url, {
        clientId: `hark-doctor-${cfg.device}-${process.pid}`,
        ...(s.mqttUsername ? { username: s.mqttUsername } : {}),
        ...(s.mqttPassword ? { password: s.mqttPassword } : {}),
        reconnectPeriod: 0,
        connectTimeout: Math.min(cfg.connectTimeoutMs, 5000),
        rejectUnauthorized: cfg.tls.rejectUnauthorized,
      });
      const done = (r: CheckResult) => {
        clearTimeout(timer);
        client.end(true);
        resolve(r);
      };
      const timer = setTimeout(
        () =>
          done({
            status: 'fail',
            detail: `no answer from ${cfg.url} within 6 s`,
            fix: 'check mqtt.url, the network, and that the broker runs (systemctl status mosquitto)',
          }),
        6000,
      );
      client.on('connect', () => done({ status: 'ok', detail: `connected to ${cfg.url} ${who}; device ${cfg.device}${cfg.room ? `, room ${cfg.room}` : ''}` }));
      client.on('error', (err: Error & { code?: number | string }) => {
        if (typeof err.code === 'number' && err.code > 0) {
          done({
            status: 'fail',
            detail: `${cfg.url} refused hark ${who}: ${err.message}`,
            fix: 'set HARK_MQTT_USERNAME and HARK_MQTT_PASSWORD in /etc/hark/hark.env to an account the broker accepts (mosquitto_passwd), and check its ACL',
          });
        } else {
          done({
            status: 'fail',
            detail: `cannot reach ${cfg.url}: ${errorMessage(err)}`,
            fix: 'check mqtt.url and that the broker runs and listens there (systemctl status mosquitto; mosquitto_sub -h HOST -t "#" -C 1)',
          });
        }
      });
    });
  },
};
