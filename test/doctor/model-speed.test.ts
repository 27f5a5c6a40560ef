import { describe, expect, it } from 'vitest';
import { validateConfig } from '../../src/config/load.js';
import type { DoctorContext } from '../../src/doctor/check.js';
import { keepsUpWith, modelSpeedCheck } from '../../src/doctor/model-speed.js';
import { TINY_MODEL, requireFile } from '../support/paths.js';

/** `hark doctor` times the installed model on this CPU and says how much talk per minute it keeps up with. */

describe('keepsUpWith', () => {
  it.each([
    { compute: 0.5, audio: 6, perMin: 60 },
    { compute: 6, audio: 6, perMin: 60 },
    { compute: 12, audio: 6, perMin: 30 },
    { compute: 18, audio: 6, perMin: 20 },
    { compute: 0, audio: 6, perMin: 60 },
  ])('$compute s for $audio s of audio → $perMin s of talk per minute', ({ compute, audio, perMin }) => {
    expect(keepsUpWith(compute, audio)).toBe(perMin);
  });
});

describe('the model speed check', () => {
  const ctx = (stt: Record<string, unknown>): DoctorContext => ({
    loaded: { config: validateConfig({ stt }, 'test'), source: null, secrets: {} as never },
    configError: null,
    env: {},
    exec: async () => ({ code: 127, stdout: '', stderr: '' }),
  });

  it('times the real model (whole and opening) and says how many seconds of talk per minute it keeps up with', async () => {
    const model = requireFile(TINY_MODEL);
    const r = await modelSpeedCheck.run(ctx({ mode: 'local-only', whisper: { model } }));
    expect(r.detail).toMatch(
      /^6 s segment: \d+\.\d\d s \(real-time factor \d+\.\d\d\), its 2\.5 s opening: \d+\.\d\d s\. Keeps up with \d+ s of talk per minute transcribed whole, \d+ s per minute with the opening check/,
    );
    expect(r.data).toMatchObject({ segmentSec: 6, model });
    expect((r.data!.wholeSec as number) > 0).toBe(true);
  }, 120_000);

  it('says it is not used in cloud-only mode', async () => {
    expect(await modelSpeedCheck.run(ctx({ mode: 'cloud-only' }))).toMatchObject({ status: 'ok', detail: 'not used (stt.mode cloud-only)' });
  });
});
