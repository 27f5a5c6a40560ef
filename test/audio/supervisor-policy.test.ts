import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import { SupervisorPolicy, type SupervisorEffect } from '../../src/audio/supervisor-policy.js';

const SETTINGS = { initialMs: 1000, maxMs: 30_000, watchdogMs: 2000, steadyMs: 10_000 };

function setup(settings = SETTINGS) {
  const clock = new VirtualClock();
  const effects: Array<SupervisorEffect & { at: number }> = [];
  const policy = new SupervisorPolicy(settings, clock, (e) => effects.push({ ...e, at: clock.now() }));
  const kinds = () => effects.map((e) => e.kind);
  const take = () => effects.splice(0);
  /** Deliver a chunk every `everyMs` for `forMs`. */
  const stream = (forMs: number, everyMs = 32) => {
    const end = clock.now() + forMs;
    while (clock.now() + everyMs <= end) {
      clock.advanceBy(everyMs);
      policy.onData();
    }
    clock.advanceTo(end);
  };
  return { clock, policy, effects, kinds, take, stream };
}

describe('SupervisorPolicy', () => {
  it('spawns on start and reports up once, when the first bytes arrive', () => {
    const { clock, policy, take } = setup();
    policy.start();
    expect(take()).toEqual([{ kind: 'spawn', at: 0 }]);
    clock.advanceBy(150);
    policy.onData();
    policy.onData();
    expect(take()).toEqual([{ kind: 'up', at: 150 }]);
  });

  it('reports down with the reason and restarts after the backoff', () => {
    const { clock, policy, take } = setup();
    policy.start();
    policy.onData();
    take();
    clock.advanceBy(500);
    policy.onExit('arecord exited with code 1: audio open error: No such device');
    expect(take()).toEqual([{ kind: 'down', reason: 'arecord exited with code 1: audio open error: No such device', restartInMs: 1000, at: 500 }]);
    clock.advanceBy(999);
    expect(take()).toEqual([]);
    clock.advanceBy(1);
    expect(take()).toEqual([{ kind: 'spawn', at: 1500 }]);
  });

  it('doubles the delay per consecutive failure up to the cap: 1 2 4 8 16 30 30 s', () => {
    const { clock, policy, effects } = setup();
    policy.start();
    for (let i = 0; i < 7; i++) {
      clock.advanceBy(10); // fails at once
      policy.onExit('arecord exited with code 1');
      clock.advanceTo(clock.nextDue()!);
    }
    const delays = effects.filter((e) => e.kind === 'down').map((e) => (e as { restartInMs: number }).restartInMs);
    expect(delays).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000]);
    expect(effects.filter((e) => e.kind === 'spawn')).toHaveLength(8);
  });

  it('resets the backoff only after audio flowed steadily for steadyMs', () => {
    const { clock, policy, effects } = setup();
    const downs = () => effects.filter((e) => e.kind === 'down').map((e) => (e as { restartInMs: number }).restartInMs);
    policy.start();
    // Three instant failures grow the delay to 8 s.
    for (let i = 0; i < 3; i++) {
      policy.onExit('x');
      clock.advanceTo(clock.nextDue()!);
    }
    expect(downs()).toEqual([1000, 2000, 4000]);
    // A flapping mic: 3 s of audio, then a crash. Not steady: the delay keeps growing.
    policy.onData();
    for (let t = 0; t < 3000; t += 32) {
      clock.advanceBy(32);
      policy.onData();
    }
    policy.onExit('flap');
    clock.advanceTo(clock.nextDue()!);
    expect(downs().at(-1)).toBe(8000);
    // A good long run (12 s) then an unplug: back to 1 s, then 2 s on the next failure.
    for (let t = 0; t < 12_000; t += 32) {
      clock.advanceBy(32);
      policy.onData();
    }
    policy.onExit('unplugged');
    clock.advanceTo(clock.nextDue()!);
    policy.onExit('still unplugged');
    expect(downs().slice(-2)).toEqual([1000, 2000]);
  });

  it('watchdog: no bytes for watchdogMs kills the recorder, and the down says why', () => {
    const { clock, policy, take, stream } = setup();
    policy.start();
    stream(5000);
    take();
    // The last chunk came at 4992 ms.
    clock.advanceTo(6991);
    expect(take()).toEqual([]);
    clock.advanceTo(6992);
    expect(take()).toEqual([{ kind: 'kill', reason: 'no audio for 2000 ms', at: 6992 }]);
    clock.advanceBy(5);
    policy.onExit('arecord killed by SIGTERM');
    expect(take()).toEqual([{ kind: 'down', reason: 'no audio for 2000 ms', restartInMs: 1000, at: 6997 }]);
  });

  it('watchdog: a recorder that starts but never delivers is killed too', () => {
    const { clock, policy, take } = setup();
    policy.start();
    take();
    clock.advanceBy(2000);
    expect(take()).toEqual([{ kind: 'kill', reason: 'no audio for 2000 ms', at: 2000 }]);
    clock.advanceBy(3000);
    expect(take()).toEqual([]); // one kill per run, even if the process is slow to die
  });

  it('watchdog: steady audio never trips it, and it keeps at most one timer', () => {
    const { clock, policy, kinds } = setup();
    policy.start();
    for (let t = 0; t < 60_000; t += 32) {
      clock.advanceBy(32);
      policy.onData();
      expect(clock.pending()).toBeLessThanOrEqual(1);
    }
    expect(kinds()).toEqual(['spawn', 'up']);
  });

  it('stop: no restart afterwards, no timer left, and down (not restarting) if audio was up', () => {
    const { clock, policy, take } = setup();
    policy.start();
    policy.onData();
    take();
    policy.stop();
    expect(take()).toEqual([{ kind: 'down', reason: 'stopped', restartInMs: null, at: 0 }]);
    expect(clock.pending()).toBe(0);
    policy.onExit('arecord killed by SIGTERM'); // the kill that stop caused
    policy.onData();
    clock.advanceBy(120_000);
    expect(take()).toEqual([]);
  });

  it('stop while waiting to restart cancels the restart', () => {
    const { clock, policy, take } = setup();
    policy.start();
    policy.onExit('x');
    take();
    policy.stop();
    expect(take()).toEqual([]); // it was already down
    expect(clock.pending()).toBe(0);
    clock.advanceBy(60_000);
    expect(take()).toEqual([]);
  });

  it('ignores bytes and exits that arrive while no recorder is running', () => {
    const { clock, policy, take } = setup();
    policy.start();
    policy.onExit('x');
    take();
    policy.onData(); // late bytes from the dead run
    policy.onExit('x'); // duplicate exit
    expect(take()).toEqual([]);
    clock.advanceBy(1000);
    expect(take()).toEqual([{ kind: 'spawn', at: 1000 }]);
  });

  it('copes with a spawn that fails synchronously inside the spawn effect', () => {
    const clock = new VirtualClock();
    const effects: SupervisorEffect[] = [];
    const policy: SupervisorPolicy = new SupervisorPolicy(SETTINGS, clock, (e) => {
      effects.push(e);
      if (e.kind === 'spawn') policy.onExit('cannot start arecord: EINVAL');
    });
    policy.start();
    expect(effects).toEqual([{ kind: 'spawn' }, { kind: 'down', reason: 'cannot start arecord: EINVAL', restartInMs: 1000 }]);
    expect(clock.pending()).toBe(1); // the restart, no watchdog for a run that never existed
  });
});
