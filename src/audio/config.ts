import type { z } from 'zod';
import { ms, nonEmpty, section } from '../core/config-fields.js';

/** capture: the microphone (arecord), and how its supervisor restarts it. */
export const captureSection = section({
  /** ALSA device; prefer a stable name such as plughw:CARD=Device,DEV=0 (see `arecord -L`). */
  device: nonEmpty('default'),
  /** First restart delay after the recorder dies; doubles up to restartMaxMs. */
  restartInitialMs: ms(1000, 10, 600_000),
  restartMaxMs: ms(30_000, 10, 3_600_000),
  /** No bytes from the recorder for this long counts as a dead microphone. */
  watchdogMs: ms(2000, 100, 600_000),
}).superRefine((c, ctx) => {
  if (c.restartMaxMs < c.restartInitialMs) ctx.addIssue({ code: 'custom', path: ['restartMaxMs'], message: 'must not be below capture.restartInitialMs' });
});

export type CaptureConfig = z.infer<typeof captureSection>;
