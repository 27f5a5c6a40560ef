import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { SystemClock } from '../../src/core/clock.js';
import { createLogger } from '../../src/core/log.js';
import { openDatabase } from '../../src/store/open.js';
import { checkAssignment, type Assignment } from '../../src/picking/assignment.js';
import { Outbox } from '../../src/picking/outbox.js';
import { OutboxSender } from '../../src/picking/sender.js';
import { httpChannel } from '../../src/picking/http-channel.js';
import { SqliteLedger } from '../../src/picking/sqlite-ledger.js';
import { assignment, scratch } from './sim.js';
import { WmsDouble } from './wms-double.js';

/**
 * The outbox against a warehouse system double over real HTTP: results in order, with ids, at least
 * once, through 500s, a system that is down, slow replies and replies lost on the way. Bounded: each
 * case sends at most 20 results and waits at most 10 s.
 */
const log = createLogger({ level: 'error' });
const opened: { close(): void }[] = [];
afterEach(async () => {
  for (const o of opened.splice(0)) o.close();
});

async function rig(n: number, timeoutMs = 2000) {
  const wms = await new WmsDouble().start();
  const { db } = openDatabase(join(scratch('outbox'), 'hark.db'), { recoverCorrupt: false });
  const ledger = new SqliteLedger(db, 'dock-1');
  const a = (checkAssignment(assignment('A', n)) as { value: Assignment }).value;
  ledger.add(a);
  const progress = ledger.current('12')!;
  const sender = new OutboxSender({
    outbox: new Outbox(db),
    channel: httpChannel({ url: wms.url, timeoutMs }),
    clock: new SystemClock(),
    wallNow: Date.now,
    log,
    holdMs: 0,
    retryFirstMs: 10,
    retryMaxMs: 80,
  });
  opened.push({ close: () => (sender.stop(), db.close(), void wms.close()) });
  const confirm = (i: number) => {
    ledger.confirm({ assignment: a, pick: progress.todo[i]!, operator: '12', picked: progress.todo[i]!.quantity, utteranceId: `u${i}` });
    sender.kick();
  };
  const until = async (cond: () => boolean, ms = 10_000) => {
    const end = Date.now() + ms;
    while (!cond()) {
      if (Date.now() > end) throw new Error('timed out');
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  return { wms, db, ledger, sender, confirm, until, outbox: new Outbox(db) };
}

const ids = (n: number) => Array.from({ length: n }, (_, k) => `A/P${k + 1}`);

describe('the pick outbox, delivered to the warehouse system over HTTP', () => {
  it('sends each result once, in order, with its id as body and Idempotency-Key', async () => {
    const r = await rig(5);
    for (let i = 0; i < 5; i++) r.confirm(i);
    await r.until(() => r.outbox.state().pending === 0);
    expect(r.wms.deliveries.map((d) => [d.id, d.seq, d.idempotencyKey])).toEqual(ids(5).map((id, k) => [id, k + 1, id]));
    expect(r.wms.deliveries[0]!.body).toMatchObject({ version: 1, type: 'pick', device: 'dock-1', operator: '12', assignment: 'A', pick: 'P1', short: false });
  });

  it('500s: the same result again until taken, and the ones behind it wait their turn', async () => {
    const r = await rig(4);
    r.wms.fail(3);
    for (let i = 0; i < 4; i++) r.confirm(i);
    await r.until(() => r.outbox.state().pending === 0);
    expect(r.wms.kept.map((d) => d.id)).toEqual(ids(4));
    expect(r.wms.deliveries.map((d) => d.id)).toEqual(ids(4));
    const attempts = r.db.prepare('SELECT attempts FROM pick_outbox ORDER BY seq').pluck().all();
    expect(attempts).toEqual([4, 1, 1, 1]);
  });

  it('down: results queue in the outbox (counted, the error kept) and all go, in order, once it is back', async () => {
    const r = await rig(6);
    await r.wms.down();
    for (let i = 0; i < 6; i++) r.confirm(i);
    await r.until(() => r.sender.failing >= 2);
    expect(r.outbox.state()).toMatchObject({ pending: 6, sent: 0, lastError: expect.stringMatching(/fetch failed|ECONNREFUSED/) });
    await r.wms.up();
    await r.until(() => r.outbox.state().pending === 0);
    expect(r.wms.kept.map((d) => d.id)).toEqual(ids(6));
    expect(r.outbox.state()).toMatchObject({ pending: 0, sent: 6, lastError: null });
  });

  it('slow past the timeout, and replies lost: duplicates arrive, the warehouse keeps each id once, in order', async () => {
    const r = await rig(6, 300);
    r.wms.slow(600, 2);
    r.wms.loseReplies(2);
    for (let i = 0; i < 6; i++) r.confirm(i);
    await r.until(() => r.outbox.state().pending === 0);
    expect(r.wms.deliveries.length).toBeGreaterThan(6);
    expect(r.wms.kept.map((d) => d.id)).toEqual(ids(6));
    // Never out of order: each delivery is the first unsent result or a repeat of the one before.
    const seqs = r.wms.deliveries.map((d) => d.seq);
    for (let i = 1; i < seqs.length; i++) expect(seqs[i]! - seqs[i - 1]!).toBeGreaterThanOrEqual(0);
  });

  it('"undo" within the hold takes a result back before it is sent: the warehouse never sees it', async () => {
    const r = await rig(2);
    // As picking.wms.holdMs would: the sender leaves a result alone until it is older than the hold.
    const held = new OutboxSender({
      outbox: r.outbox,
      channel: httpChannel({ url: r.wms.url, timeoutMs: 2000 }),
      clock: new SystemClock(),
      wallNow: Date.now,
      log,
      holdMs: 400,
      retryFirstMs: 10,
      retryMaxMs: 80,
    });
    r.sender.stop();
    opened.push({ close: () => held.stop() });
    const a = r.ledger.current('12')!;
    r.ledger.confirm({ assignment: a.assignment, pick: a.todo[0]!, operator: '12', picked: 1, utteranceId: 'u' });
    held.kick();
    expect(r.ledger.undo('A', 'P1')).toBe('undone');
    r.ledger.confirm({ assignment: a.assignment, pick: a.todo[0]!, operator: '12', picked: a.todo[0]!.quantity, utteranceId: 'u2' });
    held.kick();
    await r.until(() => r.outbox.state().pending === 0);
    expect(r.wms.deliveries.map((d) => [d.id, d.body.picked])).toEqual([['A/P1', a.todo[0]!.quantity]]);
    expect(r.ledger.undo('A', 'P1')).toBe('sent');
  });
});
