import { describe, expect, it } from 'vitest';
import { speechServicesView } from '../../src/debug/speech-view.js';
import { healthReport } from '../../src/debug/health.js';
import type { EchoStatus } from '../../src/echo/canceller.js';

/**
 * What a technician sees of the two clocks: the skew on the debug page's JSON (/healthz's speech),
 * and a skew no pair of crystals has named as a problem with its fix.
 */
const status = (ppm: number, unfollowable: boolean): EchoStatus => ({
  state: 'cancelling',
  delayMs: 80.44,
  estimate: null,
  erleDb: 31.2,
  converged: true,
  distrustedFor: null,
  lateReferenceMs: 0,
  noEcho: false,
  clocks: {
    ppm,
    errorPpm: 0.123,
    settled: true,
    lags: 30,
    captureVsClockPpm: 3.14159,
    playbackVsClockPpm: null,
    followedPpm: unfollowable ? 0 : ppm,
    unfollowable,
  },
});

const health = (speech: ReturnType<typeof speechServicesView>) =>
  healthReport({
    store: { audioStorage: 'ok', pausedReason: null, reclaimedSegments: 0, pendingRows: 0, rowsLost: 0, recovered: null } as never,
    metrics: { capture: { state: 'running' }, fleet: null, realTimeFactor: () => null } as never,
    load: null,
    mode: 'daemon',
    uptimeS: 1,
    timers: [],
    speech,
    sseClients: 0,
  });

describe('the two clocks on the debug page and in /healthz', () => {
  it('shows the skew measured and followed', () => {
    const v = speechServicesView([], null, status(20.0123, false));
    expect(v.echo).toEqual({
      state: 'cancelling',
      delayMs: 80.4,
      erleDb: 31,
      skewPpm: 20.01,
      skewErrorPpm: 0.12,
      followedPpm: 20.01,
      captureVsClockPpm: 3.14,
      problem: null,
    });
    expect(health(v).body.problems).toEqual([]);
  });

  it('names a skew beyond a crystal as a problem, with the fix', () => {
    const v = speechServicesView([], null, status(4200, true));
    expect(v.echo!.problem).toMatch(/4200 ppm off the microphone's.*one USB speakerphone for both.*capture\.device and speech\.device/);
    expect(health(v).body.problems).toEqual([v.echo!.problem]);
  });

  it('no canceller: no echo view', () => {
    expect(speechServicesView([], null).echo).toBeNull();
  });
});
