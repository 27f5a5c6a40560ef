import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import { parseConfigText } from '../../src/config/load.js';
import { echoCheck } from '../../src/doctor/echo.js';
import type { DoctorContext } from '../../src/doctor/check.js';
import { EchoGate, effectiveThreshold } from '../../src/echo/gate.js';

const CANCEL = { mode: 'cancel' as const, fallback: 'raise' as const, raiseThreshold: 0.9, tailMs: 300 };

describe('echo gate in cancel mode', () => {
  it.each([
    // [canceller trusted, fallback, threshold while hark plays]
    [true, 'raise', 0.5],
    [false, 'raise', 0.9],
    [false, 'gate', Infinity],
    [false, 'off', 0.5],
    [true, 'gate', 0.5],
  ] as const)('trusted=%s fallback=%s: threshold %s while hark plays', (trusted, fallback, want) => {
    expect(effectiveThreshold(true, { ...CANCEL, fallback: fallback }, 0.5, trusted)).toBe(want);
    expect(effectiveThreshold(false, { ...CANCEL, fallback: fallback }, 0.5, trusted)).toBe(0.5);
  });

  it('stands down once the canceller is trusted, and stands in again when it is not (delay changed)', () => {
    const clock = new VirtualClock();
    const gate = new EchoGate(CANCEL, 0.5, clock);
    const canceller = { trusted: false };
    gate.setCanceller(canceller);
    gate.playbackStarted();
    expect(gate.inForce).toBe('raise');
    expect(gate.adjust(0.8)).toBeCloseTo((0.8 * 0.5) / 0.9);
    canceller.trusted = true;
    expect(gate.inForce).toBe('cancel');
    expect(gate.adjust(0.8)).toBe(0.8);
    canceller.trusted = false;
    expect(gate.adjust(0.8)).toBeCloseTo((0.8 * 0.5) / 0.9);
  });

  it('with no canceller (it failed to load) the fallback gate is all there is', () => {
    const gate = new EchoGate({ ...CANCEL, fallback: 'gate' }, 0.5, new VirtualClock());
    gate.setCanceller(null);
    gate.playbackStarted();
    expect(gate.inForce).toBe('gate');
    expect(gate.adjust(0.99)).toBe(0);
  });
});

describe('hark doctor: echo', () => {
  const ctx = (yaml: string): DoctorContext => ({
    loaded: { config: parseConfigText(yaml, 'hark.yaml'), source: 'hark.yaml', secrets: {} as never },
    configError: null,
    env: {},
    exec: async () => ({ code: 0, stdout: '', stderr: '' }),
  });

  it('says the canceller is in force by default, having seen it cancel', async () => {
    const r = await echoCheck.run(ctx(''));
    expect(r.status).toBe('ok');
    expect(r.detail).toMatch(
      /echo canceller in force .*self-test removed \d+ dB.*echo gate stands in \(echo.fallback: raise: the VAD threshold is raised to 0.9 while hark plays\)/,
    );
    expect(r.data).toMatchObject({ inForce: 'cancel', fallback: 'raise', followSkew: true });
    expect(r.data!.erleDb as number).toBeGreaterThan(20);
    expect(r.detail).toMatch(/the speaker's clock is followed/);
  });

  it("says when the speaker's clock is not followed", async () => {
    const r = await echoCheck.run(ctx('echo:\n  followSkew: false\n'));
    expect(r.status).toBe('ok');
    expect(r.detail).toMatch(/speaker's clock is not followed \(echo.followSkew: false\)/);
    expect(r.data).toMatchObject({ followSkew: false });
  });

  it('says which gate is in force when the canceller is off', async () => {
    const r = await echoCheck.run(ctx('echo:\n  mode: gate\n'));
    expect(r.detail).toMatch(/echo gate in force \(echo.mode: gate\): hark hears only the button/);
    expect(r.data).toMatchObject({ inForce: 'gate' });
  });
});
