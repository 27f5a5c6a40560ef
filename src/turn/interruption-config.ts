import { z } from 'zod';
import { flag, ms } from '../core/config-fields.js';
import { DEFAULT_IGNORE_LIST } from './ignore-list.js';

/**
 * interruption: while hark is speaking, what the person says only interrupts when it is
 * more than a backchannel ("yeah", "uh huh", "go on").
 */
export const interruptionSection = z
  .strictObject({
    enabled: flag(true),
    /** Words and phrases that do not interrupt hark while it speaks. Multi-word entries match as a phrase. */
    ignoreList: z
      .array(z.string({ error: 'must be a word or phrase' }).trim().min(1, 'must not be empty'), { error: 'must be a list of words or phrases' })
      .default([...DEFAULT_IGNORE_LIST]),
    caseSensitive: flag(false),
    /** How long a partial transcript made only of ignore-list words waits for the final one (seed: 0 to 2 s). */
    bufferMs: ms(500, 0, 2000),
  })
  .superRefine((cfg, ctx) => {
    if (cfg.enabled && cfg.ignoreList.length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['ignoreList'],
        message: 'must not be empty while interruption.enabled is true (set enabled: false to let every word interrupt)',
      });
    }
  })
  .prefault({} as never);

export type InterruptionConfig = z.infer<typeof interruptionSection>;
