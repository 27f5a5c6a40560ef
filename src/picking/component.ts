import type { Database } from 'better-sqlite3';
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/log.js';
import type { CommandRouter } from '../command/router.js';
import type { Component } from '../path/lifecycle.js';
import type { PickingConfig } from './config.js';
import { wmsLink, type WmsLink } from './wms-link.js';
import { Outbox, type OutboxState } from './outbox.js';
import { PickingRuntime } from './runtime.js';
import { wallClockSender, type OutboxSender } from './sender.js';
import { SqliteLedger } from './sqlite-ledger.js';
import { pickingDay, type PickingDay } from './stats.js';

/** What the device's HTTP API asks of picking (the debug server's routes). */
export interface PickingApi {
  /** An assignment as posted: 201 kept (200 when already kept), 422 with every problem by field. */
  offer(body: unknown): { status: number; body: Record<string, unknown> };
  view(): {
    operator: string | null;
    step: string;
    assignment: { id: string; left: number } | null;
    waiting: number;
    outbox: OutboxState & { queueMax: number };
    today: PickingDay;
  };
}

export interface PickingComponentOptions {
  config: PickingConfig;
  /** language.languages: the first is what picking speaks; a picker may speak any of them. */
  languages: readonly string[];
  device: string;
  /** The store's open file (picking's tables are in it); read at start. */
  db: () => Database | null;
  router: () => CommandRouter | null;
  clock: Clock;
  log: Logger;
  /** The fleet's broker (picking.wms.mqtt uses it, on a connection of its own). */
  mqtt: { url: string; device: string; topicPrefix: string; reconnectInitialMs: number };
  /** HARK_WMS_TOKEN for HTTP; the broker's credentials for MQTT. */
  secrets: { wmsToken?: string | undefined; mqttUsername?: string | undefined; mqttPassword?: string | undefined };
}

/**
 * Picking on the device: the dialogue's frame on the router's stack, the ledger in the store, and
 * the sender that takes the outbox to picking.wms.url. Starts after the router; off unless
 * picking.enabled.
 */
export function pickingComponent(o: PickingComponentOptions): Component & { api(): PickingApi | null } {
  let runtime: PickingRuntime | null = null;
  let sender: OutboxSender | null = null;
  let link: WmsLink | null = null;
  let api: PickingApi | null = null;
  return {
    name: 'picking',
    api: () => api,
    start: () => {
      const db = o.db();
      const router = o.router();
      if (!o.config.enabled) return;
      if (!db || !router) throw new Error('picking needs the store and the router started first');
      const ledger = new SqliteLedger(db, o.device);
      const outbox = new Outbox(db);
      const w = o.config.wms;
      link = wmsLink({
        picking: o.config,
        mqtt: o.mqtt,
        secrets: o.secrets,
        log: o.log,
        offer: (raw) => runtime!.offer(raw),
        onConnected: () => sender?.kick(),
      });
      sender = link ? wallClockSender(outbox, link.channel, w, o.log, () => runtime?.checkOutbox()) : null;
      const rt = new PickingRuntime({
        config: o.config,
        languages: o.languages,
        router,
        ledger,
        clock: o.clock,
        log: o.log,
        outbox: { pending: () => outbox.state().pending, max: w.queueMax },
        onEvent: (e) => {
          o.log.info('picking', { ...e });
          if (e.event === 'confirmed') sender?.kick();
        },
      });
      runtime = rt;
      link?.start();
      sender?.kick();
      api = {
        offer: (body) => {
          const r = rt.offer(body);
          if (!r.ok) return { status: 422, body: { error: 'assignment refused; nothing kept changed', problems: r.problems } };
          return { status: r.duplicate ? 200 : 201, body: { ok: true, id: r.assignment.id, duplicate: r.duplicate } };
        },
        view: () => {
          const d = rt.dialogue;
          const startOfDay = new Date();
          startOfDay.setHours(0, 0, 0, 0);
          const current = ledger.operator() ? d.current : null;
          return {
            operator: ledger.operator(),
            step: d.stepName,
            assignment: current ? { id: d.assignmentId ?? '', left: d.left } : null,
            waiting: ledger.waiting(),
            outbox: { ...outbox.state(), queueMax: w.queueMax },
            today: pickingDay(db, startOfDay.getTime()),
          };
        },
      };
    },
    stop: async () => {
      sender?.stop();
      await sender?.idle();
      await link?.stop();
      link = null;
      sender = null;
      runtime = null;
      api = null;
    },
  };
}
