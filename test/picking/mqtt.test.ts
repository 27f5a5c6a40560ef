import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { connect, createServer, type Server, type Socket } from 'node:net';
import BetterSqlite3 from 'better-sqlite3';
import { HARK_BIN } from '../support/paths.js';
import { Mosquitto, Recorder } from '../fleet/mosquitto.js';
import { assignment, pickOf, scratch, type Line } from './sim.js';

/**
 * Picking over the site's broker: a real Mosquitto on 127.0.0.1, the warehouse system as an MQTT
 * client that publishes assignments and records what hark answers and sends, and `hark simulate
 * --live-wms` as the device with a scripted picker. hark reaches the broker through a TCP relay on
 * 127.0.0.1 that is cut after the first pick and restored after the second (the broker, and the
 * warehouse system's session on it, stay up): the results wait in the outbox and all arrive, in
 * order, each once by id. Bounded: one run of at most 40 s.
 */

/** A relay to the broker that can be cut (connections dropped, the port refusing) and restored. */
class Relay {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  port = 0;
  constructor(private readonly to: number) {}
  async up(): Promise<void> {
    const server = createServer((a) => {
      const b = connect(this.to, '127.0.0.1');
      for (const s of [a, b]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => s.destroy());
      }
      a.pipe(b).pipe(a);
      a.on('close', () => b.destroy());
      b.on('close', () => a.destroy());
    });
    await new Promise<void>((r) => server.listen(this.port, '127.0.0.1', r));
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }
  async down(): Promise<void> {
    const s = this.server;
    this.server = null;
    for (const sock of this.sockets) sock.destroy();
    if (s) await new Promise<void>((r) => s.close(() => r()));
  }
}
const DEVICE = 'dock-1';
const T = `hark/${DEVICE}/picking`;
let broker: Mosquitto;
let wms: Recorder;
let relay: Relay;

beforeAll(async () => {
  const dir = scratch('mqtt');
  broker = await Mosquitto.start(join(dir, 'broker'));
  wms = await Recorder.connect(broker.url, [`${T}/#`], { clientId: 'wms', clean: false });
  relay = new Relay(broker.port);
  await relay.up();
});
afterAll(async () => {
  await relay?.down();
  await wms?.close();
  await broker?.stop();
});

describe('assignments and results over MQTT', () => {
  it('refuses a malformed assignment naming the field, takes a good one, and delivers every result through a lost connection to the broker', async () => {
    const dir = scratch('mqtt-run');
    writeFileSync(
      join(dir, 'hark.yaml'),
      `mqtt:\n  url: mqtt://127.0.0.1:${relay.port}\n  device: ${DEVICE}\n  reconnectInitialMs: 100\npicking:\n  enabled: true\n  wms:\n    mqtt: true\n    holdMs: 0\n    retryFirstMs: 50\n    retryMaxMs: 300\n    timeoutMs: 1000\n`,
    );
    const child: ChildProcess = spawn(
      process.execPath,
      [HARK_BIN, 'simulate', '-c', join(dir, 'hark.yaml'), '--out-dir', join(dir, 'out'), '--drain-ms', '0', '--live-wms', '--wms-drain-ms', '10000'],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    const guard = setTimeout(() => child.kill('SIGKILL'), 40_000);
    const lines: Line[] = [];
    // The picker waits while the broker is being stopped or started (so the fault lands where it should).
    let gate: Promise<unknown> = Promise.resolve();
    const say = (t: string) => void gate.then(() => child.stdin!.write(t + '\n'));
    let confirmed = 0;
    let restoredAt = 0;
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    createInterface({ input: child.stdout! }).on('line', (l) => {
      const line = JSON.parse(l) as Line;
      lines.push(line);
      if (line.type === 'picking' && line.event === 'wms-connected' && lines.filter((x) => x.event === 'wms-connected').length === 1) {
        const bad = assignment('BAD', 2) as { picks: { checkDigits: string }[] };
        bad.picks[0]!.checkDigits = '';
        void wms.client.publishAsync(`${T}/assignment`, JSON.stringify(bad), { qos: 1 });
        void wms.client.publishAsync(`${T}/assignment`, JSON.stringify(assignment('M3', 3)), { qos: 1 });
      }
      if (line.type === 'picking' && line.event === 'assignment-received') say('sign on');
      if (line.type === 'picking' && line.event === 'confirmed') {
        confirmed++;
        // The broker is out of reach after the first pick and back after the second.
        if (confirmed === 1) gate = relay.down();
        if (confirmed === 2) gate = new Promise((r) => setTimeout(r, 800)).then(() => relay.up()).then(() => (restoredAt = Date.now()));
      }
      if (line.type !== 'speak') return;
      const text = line.text as string;
      if (text.startsWith('Assignment complete')) return void child.stdin!.end();
      if (text.endsWith('Operator number?')) return say('one two');
      const loc = /Aisle (\d+), slot \d+\.$/.exec(text);
      if (loc) return say(pickOf(Number(loc[1])).check);
      const qty = /^Pick (\d+) cases?\.$/.exec(text);
      if (qty) say(qty[1]!);
    });
    await exited;
    clearTimeout(guard);

    expect(wms.json(`${T}/refused`)).toEqual([{ version: 1, type: 'refused', id: 'BAD', problems: ['picks.0.checkDigits: must be 1 to 8 letters or digits'] }]);
    expect(wms.json(`${T}/accepted`)).toEqual([{ version: 1, type: 'accepted', id: 'M3', duplicate: false }]);
    await wms.waitFor(
      () => new Set(wms.json(`${T}/result`).map((r) => r.id)).size === 3,
      20_000,
      `three results (outbox at exit: ${JSON.stringify(lines.find((l) => l.type === 'picking-outbox'))})`,
    );
    const results = wms.json(`${T}/result`);
    const firstOfEach = results.filter((r, i) => results.findIndex((x) => x.id === r.id) === i);
    expect(firstOfEach.map((r) => [r.id, r.seq, r.picked])).toEqual([1, 2, 3].map((i) => [`M3/P${i}`, i, pickOf(i).quantity]));
    expect(lines.find((l) => l.type === 'picking-outbox')).toMatchObject({ pending: 0, sent: 3 });
    // The second pick waited in the outbox while the broker was out of reach: taken only once it was back.
    const db = new BetterSqlite3(join(dir, 'out', 'picking.db'), { readonly: true });
    const sentAt = db.prepare('SELECT sent_at FROM pick_outbox ORDER BY seq').pluck().all() as number[];
    db.close();
    expect(restoredAt).toBeGreaterThan(0);
    expect(sentAt[1]).toBeGreaterThanOrEqual(restoredAt);
  }, 60_000);
});
