import { afterEach, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { haSatelliteSection } from '../../src/ha/satellite/config.js';
import { Bus } from '../../src/core/bus.js';
import { VirtualClock, type Clock } from '../../src/core/clock.js';
import { memoryLogger } from '../../src/core/log.js';
import { encodePlain } from '../../src/ha/satellite/framing.js';
import { ApiServer } from '../../src/ha/satellite/server.js';
import { Satellite, type SatelliteHooks } from '../../src/ha/satellite/satellite.js';
import { connectClient, msg, nextMessage, type EsphomeConnection } from '../support/esphome-client.js';
import { oversizedHandshake, plaintextHello, silentSocket } from '../support/ha-satellite-wire.js';

/**
 * The native API's connections as ESPHome's own server treats them (esphome/components/api:
 * api_frame_helper_noise.cpp, api_connection.cpp, api_pb2_service.cpp) and as Home Assistant's
 * client (aioesphomeapi) reads them: the explicit handshake rejection a plaintext client turns into
 * "requires encryption", the bound on handshake frames, connections that never finish their hello,
 * idle connections that must not lock Home Assistant out, and message types hark does not know.
 */
interface Rig {
  server: ApiServer;
  satellite: Satellite;
  port: number;
  log: ReturnType<typeof memoryLogger>;
}

async function rig(o: { key?: Buffer | null; clock?: Clock } = {}): Promise<Rig> {
  const log = memoryLogger();
  const hooks: SatelliteHooks = {
    play: async () => 'ended',
    earcon: () => {},
    muted: () => false,
    setMuted: () => {},
    ring: () => {},
    media: async () => new Int16Array(0),
  };
  const config = haSatelliteSection.parse({ enabled: true, port: 0, host: '127.0.0.1', mdns: false });
  const clock = o.clock ?? new VirtualClock();
  const satellite = new Satellite({
    config,
    name: 'hark-test',
    friendlyName: 'hark test',
    mac: '0242ac110002',
    version: '0.1.0',
    bus: new Bus(),
    clock,
    log,
    hooks,
  });
  const server = new ApiServer({ host: '127.0.0.1', port: 0, key: o.key ?? null, serverInfo: 'hark test', satellite, log, clock } as ConstructorParameters<
    typeof ApiServer
  >[0]);
  const port = await server.listen();
  return { server, satellite, port, log };
}

const until = async (pred: () => boolean, ms: number, what: string) => {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((res) => setTimeout(res, 10));
  }
};

/** Resolves true when the promise settles within `ms` (a bound on a real socket, not a timing assertion). */
const settles = (p: Promise<unknown>, ms: number) => Promise.race([p.then(() => true), new Promise<boolean>((res) => setTimeout(() => res(false), ms))]);

let r: Rig | null = null;
const open: EsphomeConnection[] = [];
afterEach(async () => {
  for (const c of open.splice(0)) c.disconnect();
  await r?.server.close();
  r = null;
});

describe('an encrypted hark and a client without the key', () => {
  it('a plaintext client gets the explicit handshake rejection, which Home Assistant reports as "requires encryption"', async () => {
    r = await rig({ key: randomBytes(32) });
    expect(await plaintextHello(r.port)).toEqual({ kind: 'requires-encryption', message: 'Connection requires encryption' });
    expect(r.log.lines.join('\n')).toMatch(/plaintext client.*encryption key/);
  });

  it('a plaintext hark still answers a plaintext client in plaintext', async () => {
    r = await rig();
    expect((await plaintextHello(r.port)).kind).toBe('plaintext');
  });
});

describe('handshake frames are bounded as ESPHome bounds them (128 bytes)', () => {
  it('a handshake frame announcing 65,535 bytes is rejected at once ("Bad handshake packet len"), and the server takes the next client', async () => {
    const key = randomBytes(32);
    r = await rig({ key });
    expect(await oversizedHandshake(r.port, 65535)).toEqual({ kind: 'rejected', explanation: 'Bad handshake packet len' });
    await until(() => r!.log.lines.some((l) => l.includes('Bad handshake packet len')), 2000, 'the log line');
    const ha = await connectClient(r.port, { encryptionKey: key.toString('base64') });
    open.push(ha);
    expect(await ha.deviceInfoService()).toMatchObject({ name: 'hark-test' });
  });
});

describe('connections that do not finish their hello', () => {
  for (const encrypted of [false, true]) {
    it(`${encrypted ? 'encrypted' : 'plaintext'}: a connection that says nothing is closed once the setup deadline passes`, async () => {
      const clock = new VirtualClock();
      r = await rig({ clock, key: encrypted ? randomBytes(32) : null });
      const s = await silentSocket(r.port);
      await until(() => clock.pending() > 0, 2000, 'the setup deadline to be armed');
      clock.advanceTo(clock.now() + 9_000);
      expect(await settles(s.closed, 300)).toBe(false);
      clock.advanceTo(clock.now() + 2_000);
      expect(await settles(s.closed, 3000)).toBe(true);
      expect(r.log.lines.join('\n')).toMatch(/did not finish its hello within 10 s/);
    });
  }

  it('a client that said hello and then went quiet is pinged after 60 s and dropped at 150 s, as ESPHome does', async () => {
    const clock = new VirtualClock();
    r = await rig({ clock });
    const s = connect(r.port, '127.0.0.1');
    const got: Buffer[] = [];
    s.on('data', (d) => got.push(d));
    s.on('error', () => {});
    const closed = new Promise<void>((res) => s.on('close', () => res()));
    await new Promise<void>((res) => s.once('connect', () => res()));
    s.write(encodePlain(1, Buffer.from([0x0a, 2, 0x48, 0x41])));
    await until(() => got.length > 0, 2000, 'the hello response');
    const before = Buffer.concat(got).length;
    clock.advanceTo(clock.now() + 61_000);
    // PingRequest (type 7, empty): 00 00 07.
    await until(
      () =>
        Buffer.concat(got)
          .subarray(before)
          .equals(Buffer.from([0, 0, 7])),
      2000,
      'the keepalive ping',
    );
    clock.advanceTo(clock.now() + 80_000);
    expect(await settles(closed, 300)).toBe(false);
    clock.advanceTo(clock.now() + 10_000);
    expect(await settles(closed, 3000)).toBe(true);
  });
});

describe('idle connections cannot lock Home Assistant out', () => {
  it('eight silent TCP connections: Home Assistant still gets in, and the oldest of them is let go', async () => {
    r = await rig();
    const idle = await Promise.all(Array.from({ length: 8 }, () => silentSocket(r!.port)));
    const ha = await connectClient(r.port, { timeoutMs: 3000 });
    open.push(ha);
    expect(await ha.deviceInfoService()).toMatchObject({ name: 'hark-test' });
    expect(await settles(idle[0]!.closed, 3000)).toBe(true);
    for (const s of idle) s.socket.destroy();
  });

  it('eight clients that said hello and went quiet: Home Assistant gets in; its voice subscription is never the one let go', async () => {
    r = await rig();
    const ha = await connectClient(r.port);
    open.push(ha);
    ha.sendMessage(msg('SubscribeVoiceAssistantRequest', { subscribe: true, flags: 1 }));
    await until(() => r!.satellite.ready, 2000, 'the subscription');
    const quiet: EsphomeConnection[] = [];
    for (let i = 0; i < 8; i++) quiet.push(await connectClient(r.port, { timeoutMs: 3000 }));
    open.push(...quiet);
    expect(r.satellite.ready).toBe(true);
    await expect(ha.pingService()).resolves.toBeDefined();
    expect(quiet.filter((c) => c.connected).length).toBeLessThan(8);
  });
});

describe('message types hark does not know', () => {
  it('are ignored and logged once per type; the connection goes on', async () => {
    r = await rig();
    const ha = await connectClient(r.port);
    open.push(ha);
    const s = (ha as unknown as { frameHelper: { socket: import('node:net').Socket } }).frameHelper.socket;
    s.write(encodePlain(9999, Buffer.from([1, 2])));
    s.write(encodePlain(9999, Buffer.from([3])));
    s.write(encodePlain(4242, Buffer.alloc(0)));
    const pong = nextMessage(ha, 'PingResponse');
    ha.sendMessage(msg('PingRequest'));
    await pong;
    expect(ha.connected).toBe(true);
    const lines = r.log.lines.filter((l) => l.includes('message type hark does not know'));
    expect(lines).toHaveLength(2);
    expect(lines.join('\n')).toMatch(/9999/);
    expect(lines.join('\n')).toMatch(/4242/);
  });
});
