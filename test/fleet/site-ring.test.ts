import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Bus } from '../../src/core/bus.js';
import { VirtualClock } from '../../src/core/clock.js';
import type { TimedEffect } from '../../src/core/effects.js';
import { memoryLogger } from '../../src/core/log.js';
import { validateConfig } from '../../src/config/load.js';
import { createSpeech } from '../../src/speech/create.js';
import { Conversation } from '../../src/path/conversation.js';
import type { PathFront } from '../../src/path/plugins.js';
import { fleetComponent, fleetHooks } from '../../src/fleet/component.js';
import type { Fleet } from '../../src/fleet/client.js';
import { scopeOf } from '../../src/fleet/site-ring.js';
import { Store } from '../../src/store/store.js';
import { outputDir } from '../support/paths.js';
import { Mosquitto, Recorder } from './mosquitto.js';

/**
 * A ring for the whole area, on the fleet's real Mosquitto: each device is hark's command side as
 * `hark simulate` builds it (the one builder, a virtual clock, playback modelled) with the fleet
 * component the daemon starts. Wall-clock bounds are what a cook notices ("within a second").
 */
const until = async (what: string, pred: () => boolean, ms = 5000) => {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
};

type Device = Awaited<ReturnType<typeof device>>;
const started: { stop(): Promise<void> }[] = [];

async function device(url: string, name: string, area: string, mqtt: Record<string, unknown> = {}, storePath?: string) {
  const config = validateConfig(
    {
      device: { area },
      mqtt: { url, device: name, ringOnByName: { fryer: 'area', 'front of house': 'site' }, reconnectInitialMs: 100, reconnectMaxMs: 200, ...mqtt },
      actions: { timers: { ringEveryMs: 5000, giveUpMs: 60_000 } },
    },
    'test',
  );
  const clock = new VirtualClock(0);
  const bus = new Bus();
  const log = memoryLogger();
  const speech = createSpeech(config, { bus, clock, simulated: {} });
  const dir = mkdtempSync(join(outputDir('site-ring'), `${name}-`));
  const conv = new Conversation({ config, bus, clock, log, store: null, speech, sandbox: { dir, notCalled: { webhook: 'test', ha: 'test' } } });
  const effects: TimedEffect[] = [];
  conv.listen((e, atMs) => effects.push({ ...e, atMs }));
  let n = 0;
  const say = (text: string) => conv.dispatch({ id: `${name}-${++n}`, text, rawText: text, engine: 'text', atMs: clock.now() });
  const core = conv.core;
  const front = { timers: core.timers, heardText: (text: string) => say(text), stopRinging: () => core.tapStopsRinging() } as unknown as PathFront;
  let fleet: Fleet | null = null;
  // With a store: stops said here wait in its SQLite file for their owner, as on the appliance.
  const store = storePath ? new Store({ path: storePath, housekeeping: null }) : null;
  const component = fleetComponent(
    {
      config,
      secrets: {},
      bus,
      clock,
      log,
      hooks: fleetHooks(
        () => front,
        () => speech,
      ),
      outbox: () => store?.ringStops() ?? null,
    },
    (f) => (fleet = f),
  );
  await component.start();
  const d = {
    name,
    bus,
    clock,
    core,
    effects,
    say,
    fleet: () => fleet!,
    store,
    stop: async () => {
      await component.stop();
      store?.close();
    },
    /** What rings here now, by name ("fryer", or "fryer from back" for another device's). */
    ringing: () =>
      core.timers
        .list()
        .filter((t) => t.state === 'ringing')
        .map((t) => (t.from ? `${t.label ?? 'timer'} from ${t.from.device}` : (t.label ?? 'timer'))),
    rings: () => effects.filter((e) => e.type === 'speak' && e.earcon === 'timer').map((e) => (e as { text: string }).text),
    timerEvents: (event: string) => effects.filter((e) => e.type === 'timer' && e.event === event),
  };
  started.push(d);
  await until(`${name} connected`, () => fleet?.status.state === 'connected');
  return d;
}

/** Set a fryer timer on `owner` and let it come due there; returns when `others` ring it too. */
async function fryerRings(owner: Device, others: Device[]) {
  await owner.say('computer set a fryer timer for 1 minute');
  owner.clock.advanceTo(60_000);
  expect(owner.ringing()).toEqual(['fryer']);
  await until('the area rings it', () => others.every((d) => d.ringing().includes(`fryer from ${owner.name}`)));
}

describe('a timer rung for its whole area, on a real Mosquitto', () => {
  let broker: Mosquitto;
  const dir = outputDir('site-ring');

  beforeAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    broker = await Mosquitto.start(join(dir, 'broker'));
  });
  afterEach(async () => {
    for (const d of started.splice(0)) await d.stop();
    // Retained state from one case must not ring in the next.
    const clean = await Recorder.connect(broker.url, []);
    for (const name of ['back', 'pass', 'bar', 'grill', 'late']) await clean.client.publishAsync(`hark/${name}/state/ringing`, '', { retain: true, qos: 1 });
    await clean.close();
  });
  afterAll(async () => {
    await broker?.stop();
  });

  it('two devices: the other rings it by name; "stop" there stops it on both within a second, recorded once at the owner', async () => {
    const back = await device(broker.url, 'back', 'kitchen');
    const pass = await device(broker.url, 'pass', 'kitchen');
    await fryerRings(back, [pass]);
    expect(pass.rings()).toEqual(['Fryer timer done.']);
    const t0 = Date.now();
    await pass.say('stop');
    expect(pass.ringing()).toEqual([]);
    await until('the owner stops', () => back.ringing().length === 0, 1000);
    expect(Date.now() - t0).toBeLessThan(1000);
    // Recorded once, against the owner's timer, with where and how it was stopped.
    expect(back.timerEvents('stopped')).toEqual([expect.objectContaining({ id: 1, label: 'fryer', by: 'voice', at: 'pass' })]);
    // The ring stays stopped: the owner's next ring time passes in silence on both.
    back.clock.advanceTo(70_000);
    pass.clock.advanceTo(70_000);
    expect(back.rings()).toEqual(['Fryer timer done.']);
    expect(pass.rings()).toEqual(['Fryer timer done.']);
  });

  it('three devices and one in another area: an area timer rings in its area only, a site timer everywhere; a tap at the third stops it on all', async () => {
    const back = await device(broker.url, 'back', 'kitchen');
    const pass = await device(broker.url, 'pass', 'kitchen');
    const grill = await device(broker.url, 'grill', 'kitchen');
    const bar = await device(broker.url, 'bar', 'bar');
    await fryerRings(back, [pass, grill]);
    await new Promise((r) => setTimeout(r, 200));
    expect(bar.ringing()).toEqual([]);
    const t0 = Date.now();
    expect(grill.core.tapStopsRinging()).toBe(true);
    await until('all three stop', () => [back, pass, grill].every((d) => d.ringing().length === 0), 1000);
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(back.timerEvents('stopped')).toEqual([expect.objectContaining({ by: 'button', at: 'grill' })]);
    // The pass did not stop it: its ring ended because the owner said so.
    expect(pass.timerEvents('ended')).toEqual([expect.objectContaining({ from: { device: 'back', id: 1 } })]);

    await back.say('computer set a front of house timer for 2 minutes');
    back.clock.advanceTo(200_000);
    await until('the whole site rings it', () => [pass, grill, bar].every((d) => d.ringing().includes('front of house from back')));
    await bar.say('thanks');
    await until('all four stop', () => [back, pass, grill, bar].every((d) => d.ringing().length === 0), 1000);
    expect(back.timerEvents('stopped').at(-1)).toEqual(expect.objectContaining({ label: 'front of house', at: 'bar' }));
  });

  it('a ring on another device carries its duration and how long it has rung at the owner (the debug page, /api/kitchen)', async () => {
    const back = await device(broker.url, 'back', 'kitchen', { ringOn: 'area' });
    await back.say('computer set a timer for 1 minute');
    back.clock.advanceTo(60_000);
    expect(back.ringing()).toEqual(['timer']);
    // Two seconds of ringing at the owner before the pass joins.
    await new Promise((r) => setTimeout(r, 2100));
    const pass = await device(broker.url, 'pass', 'kitchen', { ringOn: 'area' });
    await until('the pass rings it', () => pass.ringing().includes('timer from back'));
    const [shown] = pass.core.timers.view();
    expect(shown).toMatchObject({ seconds: 60, state: 'ringing', from: 'back' });
    expect(shown!.ringingSeconds).toBeGreaterThanOrEqual(2);
    // Picked by its duration there, as at the owner: cancelling "the 1 minute timer" stops it on both.
    await pass.say('computer cancel the 1 minute timer');
    await until('the owner stops', () => back.ringing().length === 0, 1000);
  });

  it('a device that joins while it rings rings it too, and stops when the owner does', async () => {
    const back = await device(broker.url, 'back', 'kitchen');
    await fryerRings(back, []);
    const late = await device(broker.url, 'late', 'kitchen');
    await until('the late device rings it', () => late.ringing().includes('fryer from back'));
    await back.say('stop');
    await until('the late device stops', () => late.ringing().length === 0, 1000);
    expect(back.timerEvents('stopped')).toEqual([expect.objectContaining({ by: 'voice' })]);
    expect(back.timerEvents('stopped')[0]).not.toHaveProperty('at');
  });

  it('a stop that arrives twice, and two devices stopping at once, are recorded once', async () => {
    const back = await device(broker.url, 'back', 'kitchen');
    const pass = await device(broker.url, 'pass', 'kitchen');
    const grill = await device(broker.url, 'grill', 'kitchen');
    await fryerRings(back, [pass, grill]);
    await Promise.all([pass.say('stop'), grill.say('ok thanks')]);
    await until('the owner stops', () => back.ringing().length === 0, 1000);
    // The same stop again (a QoS 1 redelivery), and a stop id never seen for the timer now stopped.
    const peer = await Recorder.connect(broker.url, ['hark/back/event/error']);
    const stop = JSON.stringify({ id: 1, stopId: 'pass-stop-1', by: 'voice', device: 'pass' });
    await peer.client.publishAsync('hark/back/ring/stop', stop, { qos: 1 });
    await peer.client.publishAsync('hark/back/ring/stop', stop, { qos: 1 });
    await peer.client.publishAsync('hark/back/ring/stop', '{"id": "one"}', { qos: 1 });
    await peer.waitFor((m) => m.topic === 'hark/back/event/error', 3000, 'the refusal');
    await new Promise((r) => setTimeout(r, 200));
    expect(peer.json('hark/back/event/error')[0]).toMatchObject({
      topic: 'hark/back/ring/stop',
      error: expect.stringContaining(`"id" must be the timer's id`),
    });
    // A retained stop would act at every reconnect: a device connecting to find one refuses it.
    await peer.client.publishAsync('hark/late/ring/stop', JSON.stringify({ id: 1, stopId: 'kept', by: 'voice', device: 'pass' }), { qos: 1, retain: true });
    await peer.client.subscribeAsync('hark/late/event/error', { qos: 1 });
    await device(broker.url, 'late', 'kitchen');
    await peer.waitFor((m) => m.topic === 'hark/late/event/error' && m.text.includes('retained stops are ignored'), 3000, 'the retained refusal');
    await peer.client.publishAsync('hark/late/ring/stop', '', { qos: 1, retain: true });
    await peer.close();
    expect(back.timerEvents('stopped')).toHaveLength(1);
    expect(back.timerEvents('stopped')[0]).toEqual(expect.objectContaining({ at: expect.stringMatching(/^(pass|grill)$/) }));
    // The stop it could not read was refused (above) and the owner carries on.
    expect(back.fleet().status.state).toBe('connected');
  });

  it('a stop said while the owner is away is stored, survives a restart of the device it was said at, and stops the ring when the owner is back', async () => {
    const file = join(dir, 'pass.sqlite');
    rmSync(file, { force: true });
    const back = await device(broker.url, 'back', 'kitchen');
    let pass = await device(broker.url, 'pass', 'kitchen', {}, file);
    await fryerRings(back, [pass]);
    // The owner's connection goes; it rings on, alone.
    await back.fleet().stop();
    await pass.say('stop');
    expect(pass.ringing()).toEqual([]);
    // Stored before hark moved on, and kept: the owner has not said it stopped.
    expect(pass.store!.ringStops().all()).toEqual([expect.objectContaining({ owner: 'back', timerId: 1, by: 'voice', device: 'pass' })]);
    await pass.stop();
    started.splice(started.indexOf(pass), 1);
    expect(back.ringing()).toEqual(['fryer']);
    // The owner back (its fleet started again), then the device that heard the stop, after a restart.
    const again = fleetComponent(
      {
        config: validateConfig({ device: { area: 'kitchen' }, mqtt: { url: broker.url, device: 'back', ringOnByName: { fryer: 'area' } } }, 'test'),
        secrets: {},
        bus: back.bus,
        clock: back.clock,
        log: memoryLogger(),
        hooks: fleetHooks(
          () => ({ timers: back.core.timers }) as unknown as PathFront,
          () => null,
        ),
      },
      () => {},
    );
    await again.start();
    started.push({ stop: async () => void (await again.stop()) });
    pass = await device(broker.url, 'pass', 'kitchen', {}, file);
    await until('the owner stops', () => back.ringing().length === 0, 2000);
    expect(back.timerEvents('stopped')).toEqual([expect.objectContaining({ by: 'voice', at: 'pass' })]);
    await until('the stop settled', () => pass.store!.ringStops().all().length === 0, 2000);
    expect(pass.ringing()).toEqual([]);
  });

  it('the broker lost mid-ring: each device rings only its own timers; the owner stopped meanwhile, the others follow its state when it is back', async () => {
    const back = await device(broker.url, 'back', 'kitchen');
    const pass = await device(broker.url, 'pass', 'kitchen');
    await pass.say('computer set a pasta timer for 1 minute');
    pass.clock.advanceTo(60_000);
    await fryerRings(back, [pass]);
    expect(pass.ringing().sort()).toEqual(['fryer from back', 'pasta']);
    await broker.stop();
    await until('the pass rings only its own', () => pass.ringing().join() === 'pasta', 2000);
    expect(back.ringing()).toEqual(['fryer']);
    // Stopped at the owner while the broker is away: its state waits in the queue.
    await back.say('stop');
    expect(back.ringing()).toEqual([]);
    await broker.resume();
    await until('both reconnect', () => [back, pass].every((d) => d.fleet().status.state === 'connected'), 5000);
    await new Promise((r) => setTimeout(r, 500));
    expect(pass.ringing()).toEqual(['pasta']);
    expect(back.timerEvents('stopped')).toHaveLength(1);
  });

  it('the broker restarted mid-ring, the owner stopped it meanwhile and is back last: the other device never rings it again', async () => {
    // The owner reconnects seconds after the broker is back; the pass within a few hundred ms.
    const back = await device(broker.url, 'back', 'kitchen', { reconnectInitialMs: 2500, reconnectMaxMs: 2500 });
    const pass = await device(broker.url, 'pass', 'kitchen');
    await fryerRings(back, [pass]);
    await broker.stop();
    await until('the pass rings only its own', () => pass.ringing().length === 0, 2000);
    await back.say('stop');
    await broker.resume();
    // Back on the broker, the pass finds the owner's retained state from before the restart (the fryer
    // still listed): it is not the owner's word now, and the fryer must not ring again.
    await until('the pass reconnects', () => pass.fleet().status.state === 'connected', 3000);
    await new Promise((r) => setTimeout(r, 500));
    expect(back.fleet().status.state).not.toBe('connected');
    expect(pass.ringing()).toEqual([]);
    expect(pass.rings()).toEqual(['Fryer timer done.']);
    // The owner back: its state no longer lists the fryer, and the pass stays quiet.
    await until('the owner reconnects', () => back.fleet().status.state === 'connected', 6000);
    await new Promise((r) => setTimeout(r, 300));
    expect(pass.ringing()).toEqual([]);
    expect(pass.rings()).toEqual(['Fryer timer done.']);
    expect(back.timerEvents('stopped')).toEqual([expect.objectContaining({ by: 'voice' })]);
  });

  it('the broker restarted mid-ring and the owner still rings: the other device rings it again once the owner says so, whichever is back first', async () => {
    const back = await device(broker.url, 'back', 'kitchen', { reconnectInitialMs: 2500, reconnectMaxMs: 2500 });
    const pass = await device(broker.url, 'pass', 'kitchen');
    const grill = await device(broker.url, 'grill', 'kitchen', { reconnectInitialMs: 5000, reconnectMaxMs: 5000 });
    await fryerRings(back, [pass, grill]);
    await broker.stop();
    await until('the others ring nothing', () => pass.ringing().length === 0 && grill.ringing().length === 0, 2000);
    await broker.resume();
    // The pass is back before the owner: the retained state alone does not ring it.
    await until('the pass reconnects', () => pass.fleet().status.state === 'connected', 3000);
    await new Promise((r) => setTimeout(r, 300));
    expect(pass.ringing()).toEqual([]);
    // The owner back, still ringing: the pass rings it again (its ring starts over from the room's level).
    await until('the pass rings it again', () => pass.ringing().includes('fryer from back'), 6000);
    expect(back.fleet().status.state).toBe('connected');
    // The grill is back after the owner: it asks the owner, which answers that the fryer still rings.
    await until('the grill rings it again', () => grill.ringing().includes('fryer from back'), 8000);
    await pass.say('stop');
    await until('all three quiet', () => [back, pass, grill].every((d) => d.ringing().length === 0), 1000);
    expect(back.timerEvents('stopped')).toEqual([expect.objectContaining({ at: 'pass' })]);
  }, 20_000);
});

describe('where a timer rings: the settings', () => {
  it('a timer name first, then the default; names are matched as the timer language lowercases them', () => {
    const mqtt = validateConfig({ mqtt: { ringOn: 'area', ringOnByName: { 'Front of House': 'site', pasta: 'device' } } }, 'test').mqtt;
    expect(scopeOf('front of house', mqtt)).toBe('site');
    expect(scopeOf('pasta', mqtt)).toBe('device');
    expect(scopeOf('fryer', mqtt)).toBe('area');
    expect(scopeOf(undefined, mqtt)).toBe('area');
    expect(validateConfig({}, 'test').mqtt.ringOn).toBe('device');
  });

  it('refuses a place it cannot ring, naming the setting and the choices', () => {
    expect(() => validateConfig({ mqtt: { ringOnByName: { fryer: 'kitchen' } } }, 'test')).toThrow(
      /mqtt\.ringOnByName\.fryer.*must be one of: device, area, site/,
    );
    expect(() => validateConfig({ mqtt: { ringOn: 'everywhere' } }, 'test')).toThrow(/mqtt\.ringOn.*must be one of: device, area, site/);
  });
});
