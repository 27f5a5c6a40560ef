import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { errorMessage } from '../core/errors.js';
import { Outbox } from '../picking/outbox.js';
import type { Check } from './check.js';

/** A result still waiting after this long means the warehouse system is not taking them. */
const STALE_MS = 60_000;

/** Voice picking's outbox: results the warehouse system has not taken yet, and why. */
export const pickingCheck: Check = {
  id: 'picking-outbox',
  title: 'voice picking: results to the warehouse system',
  async run(ctx) {
    const config = ctx.loaded?.config;
    if (!config) return { status: 'warn', detail: 'not checked: the config is invalid', fix: 'fix the config first' };
    if (!config.picking.enabled) return { status: 'ok', detail: 'not used (picking.enabled is false)' };
    const w = config.picking.wms;
    const to = w.url ? w.url : w.mqtt ? `the broker ${config.mqtt.url}` : null;
    const path = config.store.path;
    if (!existsSync(path)) return { status: 'ok', detail: `${path} does not exist yet: no picks` };
    let db: Database.Database | null = null;
    try {
      db = new Database(path, { readonly: true, fileMustExist: true });
      const hasTable = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'pick_outbox'").get();
      if (!hasTable) return { status: 'ok', detail: 'no picks yet (the store has no picking tables until hark starts with picking on)' };
      const s = new Outbox(db).state();
      const data = { ...s, queueMax: w.queueMax, to };
      if (!to)
        return {
          status: s.pending ? 'warn' : 'ok',
          detail: `${s.pending} results kept, none sent: no warehouse system is configured`,
          fix: 'set picking.wms.url, or picking.wms.mqtt with mqtt.url',
          data,
        };
      if (s.pending === 0) return { status: 'ok', detail: `${s.sent} results taken by ${to}, none waiting`, data };
      const ageS = s.oldestAt === null ? 0 : Math.round((Date.now() - s.oldestAt) / 1000);
      const why = s.lastError ? `; last error: ${s.lastError}` : '';
      if (s.pending >= w.queueMax)
        return {
          status: 'fail',
          detail: `${s.pending} results waiting (picking.wms.queueMax ${w.queueMax}), the oldest for ${ageS} s${why}`,
          fix: `bring ${to} back (none is dropped: they go, in order, once it answers)`,
          data,
        };
      if (ageS * 1000 >= STALE_MS)
        return { status: 'warn', detail: `${s.pending} results waiting, the oldest for ${ageS} s${why}`, fix: `check that ${to} is up and answers`, data };
      return { status: 'ok', detail: `${s.sent} results taken by ${to}; ${s.pending} on the way`, data };
    } catch (err) {
      return { status: 'fail', detail: `${path}: the picking outbox cannot be read: ${errorMessage(err)}`, fix: 'check the file (hark doctor database)' };
    } finally {
      db?.close();
    }
  },
};
