import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { errorMessage } from '../core/errors.js';
import { cardPair, EchoSkewTable, ONE_CLOCK_PPM, type EchoSkewRow } from '../store/echo-skew.js';
import type { Check } from './check.js';

const MEASURE = 'sudo systemctl stop hark; sudo -u hark node /opt/hark/bin/hark.js clocks --config /etc/hark/hark.yaml; sudo systemctl start hark';
const r2 = (x: number) => Math.round(x * 100) / 100;

/**
 * Whether the speaker's clock has been measured against the microphone's on the cards configured
 * (the store's echo_skew, written by `hark clocks` or by hark itself once it has spoken long enough):
 * unmeasured, a new hark's first seconds of sound are cancelled less well. Read-only.
 */
export const clocksCheck: Check = {
  id: 'clocks',
  title: "the speaker's clock",
  async run(ctx) {
    const config = ctx.loaded?.config;
    if (!config) return { status: 'warn', detail: 'not checked: the config is invalid', fix: 'fix the config first' };
    if (config.echo.mode !== 'cancel' || !config.echo.followSkew)
      return { status: 'ok', detail: 'not followed (echo.mode or echo.followSkew): nothing to measure' };
    const cards = cardPair(config.capture.device, config.speech.device);
    const path = config.store.path;
    let row: EchoSkewRow | null = null;
    if (existsSync(path)) {
      let db: Database.Database | null = null;
      try {
        db = new Database(path, { readonly: true, fileMustExist: true });
        const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'echo_skew'").get();
        if (table) row = new EchoSkewTable(db).get(cards);
      } catch (err) {
        return { status: 'warn', detail: `${path} cannot be read: ${errorMessage(err)}`, fix: 'see the segment log check' };
      } finally {
        db?.close();
      }
    }
    if (!row)
      return {
        status: 'warn',
        detail: `not measured on these cards (${cards}): a new hark's first 8-16 s of sound are cancelled less well until it has been`,
        fix: MEASURE,
      };
    const when = new Date(row.measuredAt).toISOString().slice(0, 16).replace('T', ' ');
    if (Math.abs(row.ppm) < ONE_CLOCK_PPM)
      return { status: 'ok', detail: `one clock on these cards (${r2(row.ppm)} ppm, measured ${when} UTC): nothing to follow`, data: { ppm: row.ppm } };
    return {
      status: 'ok',
      detail: `${r2(row.ppm)} ppm (± ${r2(row.errorPpm)}) off the microphone's on these cards, measured ${when} UTC: followed from hark's first sound`,
      data: { ppm: row.ppm, errorPpm: row.errorPpm },
    };
  },
};
