import { z } from 'zod';
import { logSection } from './sections/log.js';
import { captureSection } from './sections/capture.js';
import { vadSection } from './sections/vad.js';

/**
 * The whole config. Every setting has a default, so an empty file is a working config.
 * Each subsystem owns its section in ./sections/; add a line here when a subsystem lands.
 */
export const configSchema = z
  .strictObject({
    log: logSection,
    capture: captureSection,
    vad: vadSection,
  })
  .superRefine((cfg, ctx) => {
    if (cfg.vad.releaseThreshold > cfg.vad.threshold) {
      ctx.addIssue({ code: 'custom', path: ['vad', 'releaseThreshold'], message: 'must not be above vad.threshold' });
    }
    if (cfg.capture.restartMaxMs < cfg.capture.restartInitialMs) {
      ctx.addIssue({ code: 'custom', path: ['capture', 'restartMaxMs'], message: 'must not be below capture.restartInitialMs' });
    }
  });

export type HarkConfig = z.infer<typeof configSchema>;
