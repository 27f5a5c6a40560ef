import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { Bus } from '../../src/core/bus.js';
import { SystemClock } from '../../src/core/clock.js';
import { memoryLogger } from '../../src/core/log.js';
import { validateConfig } from '../../src/config/load.js';
import { Fleet, type FleetHooks, type FleetStatus } from '../../src/fleet/client.js';
import { mqttCheck } from '../../src/doctor/mqtt.js';
import type { KitchenTimer } from '../../src/command/actions/timers.js';
import { outputDir } from '../support/paths.js';
import { Mosquitto, Recorder, freePort } from './mosquitto.js';

/** The fleet client against a real Mosquitto (Debian's), in process, with hark's side stubbed. */
function hooks() {
  const calls: string[] = [];
  const timers: KitchenTimer[] = [];
  const h: FleetHooks = {
    heardText: async (text, from) => void calls.push(`heard ${text} (${from})`),
    say: (text) => void calls.push(`say ${text}`),
    timers: () => timers,
    setTimer: (s, l) => {
      calls.push(`set ${s} ${l ?? ''}`.trim());
      timers.push({ id: timers.length + 1, seconds: s, dueAtMs: performance.now() + s * 1000, state: 'running', ...(l ? { label: l } : {}) });
    },
    timerAct: (op, l, all) => void calls.push(`${op} ${l ?? '-'} ${all}`),
    ringGuest: () => {},
    endGuest: () => {},
    stopOwn: () => false,
  };
  return { h, calls };
}

function fleetOn(url: string, over: Record<string, unknown> = {}, secrets = {}) {
  const bus = new Bus();
  const log = memoryLogger();
  const { h, calls } = hooks();
  const config = validateConfig({ mqtt: { url, device: 'tester', room: 'lab', reconnectInitialMs: 200, reconnectMaxMs: 400, ...over } }, 'test').mqtt;
  const fleet = new Fleet({ config, secrets, bus, clock: new SystemClock(), log, hooks: h, version: '0.0.0-test', initialMode: 'wake-word' });
  const states: FleetStatus[] = [];
  bus.on('fleet.state', (s) => states.push(s));
  return { fleet, bus, log, calls, states };
}

const until = async (pred: () => boolean, ms: number, what: string) => {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('fleet client on a real Mosquitto', () => {
  let broker: Mosquitto;
  let rec: Recorder;
  let f: ReturnType<typeof fleetOn>;
  const dir = outputDir('fleet-client');

  beforeAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    broker = await Mosquitto.start(join(dir, 'broker'));
    // A persistent session (clean: false): what is published while it reconnects waits for it.
    rec = await Recorder.connect(broker.url, ['hark/#', 'homeassistant/#'], { clientId: 'fleet-client-recorder', clean: false });
    f = fleetOn(broker.url);
    f.fleet.start();
    await rec.waitFor((m) => m.topic === 'hark/tester/availability' && m.text === 'online', 5000, 'online');
  });

  afterAll(async () => {
    await f?.fleet.stop();
    await rec?.close();
    await broker?.stop();
  });

  it('says online (retained), publishes its discovery configs retained, and its state', async () => {
    await rec.waitFor((m) => m.topic === 'homeassistant/sensor/tester/mode/config', 5000, 'discovery');
    const late = await Recorder.connect(broker.url, ['hark/tester/availability', 'homeassistant/+/tester/+/config', 'hark/tester/state/#']);
    await late.waitFor((m) => m.topic === 'hark/tester/state/mode', 3000, 'retained mode');
    expect(late.on('hark/tester/availability').map((m) => [m.text, m.retain])).toEqual([['online', true]]);
    const configs = late.messages.filter((m) => m.topic.endsWith('/config'));
    expect(configs.map((m) => m.topic).sort()).toEqual([
      'homeassistant/binary_sensor/tester/microphone/config',
      'homeassistant/sensor/tester/action/config',
      'homeassistant/sensor/tester/heard/config',
      'homeassistant/sensor/tester/mode/config',
      'homeassistant/sensor/tester/timers/config',
    ]);
    expect(configs.every((m) => m.retain)).toBe(true);
    expect(late.json('hark/tester/state/timers')[0]).toMatchObject({ count: 0 });
    await late.close();
  });

  it('sends discovery again when Home Assistant announces itself', async () => {
    const before = rec.on('homeassistant/sensor/tester/heard/config').length;
    const ha = await Recorder.connect(broker.url, []);
    await ha.client.publishAsync('homeassistant/status', 'online');
    await until(() => rec.on('homeassistant/sensor/tester/heard/config').length > before, 3000, 'discovery again');
    await ha.close();
  });

  it('events out: a handled segment, an action, a timer with its time left, the microphone', async () => {
    f.bus.emit('segment.handled', {
      segment: 0,
      fate: 'dispatched',
      reason: null,
      utterance: { id: 'u', text: 'computer stop', engine: 'whisper' },
      actions: ['stop'],
      sttMs: 300,
      latencyMs: 500,
      actionMs: 450,
    });
    f.bus.emit('router.effect', { type: 'action', name: 'stop', args: {}, seq: 1, atMs: 1 });
    f.bus.emit('router.effect', { type: 'timer', event: 'set', id: 1, seconds: 300, dueAtMs: 301_000, atMs: 1000 });
    f.bus.emit('capture.down', { device: 'hw:1', reason: 'unplugged', restartInMs: 1000 });
    await rec.waitFor((m) => m.topic === 'hark/tester/state/microphone', 3000, 'microphone');
    expect(rec.json('hark/tester/event/segment')[0]).toMatchObject({ fate: 'dispatched', utterance: { text: 'computer stop' }, latencyMs: 500 });
    expect(rec.json('hark/tester/state/heard').at(-1)).toMatchObject({ text: 'computer stop', fate: 'dispatched' });
    expect(rec.json('hark/tester/event/action')[0]).toMatchObject({ name: 'stop', seq: 1 });
    expect(rec.json('hark/tester/event/timer')[0]).toMatchObject({ event: 'set', seconds: 300, leftSeconds: 300 });
    expect(rec.json('hark/tester/state/microphone').at(-1)).toMatchObject({ state: 'down', reason: 'unplugged' });
  });

  it('commands in, to the device and to its room; bad ones get an error event naming what was wrong', async () => {
    const cmd = await Recorder.connect(broker.url, []);
    await cmd.client.publishAsync('hark/tester/cmd/say', '{"text":"dinner is ready"}', { qos: 1 });
    await cmd.client.publishAsync('hark/room/lab/cmd/utterance', 'computer set a timer for five minutes', { qos: 1 });
    await cmd.client.publishAsync('hark/tester/cmd/timer', '{"action":"set","seconds":90,"label":"eggs"}', { qos: 1 });
    await cmd.client.publishAsync('hark/tester/cmd/timer', '{"action":"cancel","label":"eggs"}', { qos: 1 });
    await cmd.client.publishAsync('hark/tester/cmd/mode', '{"mode":"always-listen"}', { qos: 1 });
    await cmd.client.publishAsync('hark/tester/cmd/timer', '{"action":"set","seconds":"ten"}', { qos: 1 });
    await cmd.client.publishAsync('hark/tester/cmd/launch', '{}', { qos: 1 });
    await until(() => rec.on('hark/tester/event/error').length >= 2, 3000, 'two errors');
    expect(f.calls).toEqual([
      'say dinner is ready',
      'heard computer set a timer for five minutes (mqtt hark/room/lab/cmd/utterance)',
      'set 90 eggs',
      'cancel eggs false',
      'heard always listen (mqtt hark/tester/cmd/mode)',
    ]);
    const errors = rec.json('hark/tester/event/error').map((e) => e.error);
    expect(errors[0]).toMatch(/timer: "seconds" must be a whole number from 1 to 86400 \(got "ten"\)/);
    expect(errors[1]).toMatch(/unknown command "launch"/);
    await cmd.close();
  });

  it('a retained command is not acted on when a device (re)subscribes: it gets an error event', async () => {
    const cmd = await Recorder.connect(broker.url, []);
    await cmd.client.publishAsync('hark/late/cmd/say', '{"text":"old news"}', { qos: 1, retain: true });
    const late = fleetOn(broker.url, { device: 'late' });
    late.fleet.start();
    await rec.waitFor((m) => m.topic === 'hark/late/event/error', 5000, 'error event');
    expect(rec.json('hark/late/event/error')[0]).toMatchObject({ verb: 'say', error: expect.stringMatching(/retained commands are ignored/) });
    expect(late.calls).toEqual([]);
    await cmd.client.publishAsync('hark/late/cmd/say', '', { qos: 1, retain: true });
    await late.fleet.stop();
    await cmd.close();
  });

  it('broker away and back: nothing queued within the bound is lost, in order', async () => {
    await broker.stop();
    await until(() => f.fleet.status.state !== 'connected', 5000, 'disconnect seen');
    for (let i = 0; i < 20; i++) f.bus.emit('router.effect', { type: 'action', name: 'count', args: { i }, seq: i, atMs: i });
    expect(f.fleet.status.queued).toBeGreaterThanOrEqual(20);
    await broker.resume();
    await until(() => rec.on('hark/tester/event/action').filter((m) => m.text.includes('"count"')).length === 20, 8000, 'the 20 queued events');
    const got = rec
      .json('hark/tester/event/action')
      .filter((e) => e.name === 'count')
      .map((e) => (e.args as { i: number }).i);
    expect(got).toEqual([...Array(20).keys()]);
    expect(f.fleet.status).toMatchObject({ state: 'connected', queued: 0, dropped: 0 });
    // The retained "online" is back, and the last will is armed again.
    await rec.waitFor((m) => m.topic === 'hark/tester/availability' && m.text === 'online' && m.at > Date.now() - 8000, 3000, 'online again');
  }, 30_000);

  it('beyond the bound the oldest are dropped and counted', async () => {
    const small = fleetOn(broker.url, { device: 'small', queueMax: 5 });
    small.fleet.start();
    await rec.waitFor((m) => m.topic === 'hark/small/availability' && m.text === 'online', 5000, 'small online');
    await broker.stop();
    await until(() => small.fleet.status.state !== 'connected', 5000, 'disconnect seen');
    for (let i = 0; i < 12; i++) small.bus.emit('router.effect', { type: 'action', name: 'count', args: { i }, seq: i, atMs: i });
    // 12 events and the retained "last action" state (only its latest kept): 13 messages, 5 kept.
    expect(small.fleet.status).toMatchObject({ queued: 5, dropped: 8 });
    expect(small.states.at(-1)).toMatchObject({ dropped: 8 });
    await broker.resume();
    await until(() => rec.json('hark/small/event/action').length === 4, 8000, 'the 4 kept');
    expect(rec.json('hark/small/event/action').map((e) => (e.args as { i: number }).i)).toEqual([8, 9, 10, 11]);
    await rec.waitFor((m) => m.topic === 'hark/small/state/action' && m.text.includes('"i":11'), 3000, 'the latest state');
    await small.fleet.stop();
  }, 30_000);

  it('a clean stop says offline itself', async () => {
    const g = fleetOn(broker.url, { device: 'leaver' });
    g.fleet.start();
    await rec.waitFor((m) => m.topic === 'hark/leaver/availability' && m.text === 'online', 5000, 'online');
    await g.fleet.stop();
    await rec.waitFor((m) => m.topic === 'hark/leaver/availability' && m.text === 'offline', 3000, 'offline');
  });
});

describe('a broker that refuses the credentials, or is not there', () => {
  let broker: Mosquitto;
  const dir = outputDir('fleet-client-auth');
  beforeAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    broker = await Mosquitto.start(join(dir, 'broker'), { user: { name: 'hark', password: 'right' } });
  });
  afterAll(async () => broker?.stop());

  it('the client says refused, once, naming the credentials; and keeps running', async () => {
    const f = fleetOn(broker.url, {}, { mqttUsername: 'hark', mqttPassword: 'wrong' });
    f.fleet.start();
    await until(() => f.fleet.status.state === 'refused', 5000, 'refused');
    await new Promise((r) => setTimeout(r, 700));
    expect(f.fleet.status.lastError).toMatch(/refused the connection: Connection refused: (Not authorized|Bad username or password).*HARK_MQTT_USERNAME/);
    expect(f.log.lines.filter((l) => l.includes('refused the connection'))).toHaveLength(1);
    f.bus.emit('router.effect', { type: 'action', name: 'kept', args: {}, atMs: 0 });
    expect(f.fleet.status.queued).toBe(2);
    await f.fleet.stop();
  });

  it('the right credentials connect', async () => {
    const f = fleetOn(broker.url, {}, { mqttUsername: 'hark', mqttPassword: 'right' });
    f.fleet.start();
    await until(() => f.fleet.status.state === 'connected', 5000, 'connected');
    await f.fleet.stop();
  });

  const doctor = (url: string, env: Record<string, string>) =>
    mqttCheck.run({
      loaded: {
        config: validateConfig({ mqtt: { url, device: 'doc' } }, 't'),
        source: null,
        secrets: { ...(env.u ? { mqttUsername: env.u } : {}), ...(env.p ? { mqttPassword: env.p } : {}) },
      },
      configError: null,
      env: {},
      exec: async () => ({ code: 0, stdout: '', stderr: '' }),
    });

  it('hark doctor: accepted, refused (naming the credentials), unreachable, off', async () => {
    expect(await doctor(broker.url, { u: 'hark', p: 'right' })).toMatchObject({ status: 'ok', detail: expect.stringContaining('connected to') });
    const refused = await doctor(broker.url, { u: 'hark', p: 'wrong' });
    expect(refused).toMatchObject({
      status: 'fail',
      detail: expect.stringMatching(/refused hark as hark/),
      fix: expect.stringContaining('HARK_MQTT_PASSWORD'),
    });
    const nobody = await doctor(`mqtt://127.0.0.1:${await freePort()}`, {});
    expect(nobody).toMatchObject({ status: 'fail', detail: expect.stringMatching(/cannot reach mqtt:\/\/127\.0\.0\.1:\d+: .*ECONNREFUSED/) });
    expect(await doctor('', {})).toMatchObject({ status: 'ok', detail: 'fleet off (mqtt.url is not set)' });
  });
});

describe('bad TLS settings', () => {
  it('a certificate that cannot be read leaves hark running without the fleet, saying why', () => {
    const f = fleetOn('mqtts://127.0.0.1:8883', { tls: { ca: '/nonexistent/ca.pem' } });
    expect(() => f.fleet.start()).not.toThrow();
    expect(f.fleet.status).toMatchObject({ state: 'refused', lastError: expect.stringMatching(/cannot start the MQTT client: .*\/nonexistent\/ca\.pem/) });
    expect(f.log.lines.some((l) => l.includes('the fleet is off'))).toBe(true);
  });
});
