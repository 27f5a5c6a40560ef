import { z } from 'zod';
import { ms } from '../core/config-fields.js';

/**
 * cascade: after the person stops speaking, a spoken answer is prepared in three steps,
 * each from the end of speech, so a pause to think is not cut off and the answer still feels instant.
 * The same steps answer an open request the intent pass handles (wake-word mode): the model is asked
 * at modelMs, its question rendered at renderMs, and the request handed over and asked at playMs.
 * Why: docs/decisions.md#the-response-cascades-three-timers.
 */
export const cascadeSection = z
  .strictObject({
    /** Start working out the answer, or ask the model about an open request (cached, not heard). */
    modelMs: ms(500, 0, 10_000),
    /** Render the answer to speech (cached, not heard). */
    renderMs: ms(1500, 0, 10_000),
    /** Start playing it (for a request: hand it over, and say the question). */
    playMs: ms(2000, 0, 10_000),
  })
  .superRefine((cfg, ctx) => {
    if (cfg.renderMs < cfg.modelMs)
      ctx.addIssue({ code: 'custom', path: ['renderMs'], message: 'must not be below cascade.modelMs (the answer is rendered after it is worked out)' });
    if (cfg.playMs < cfg.renderMs)
      ctx.addIssue({ code: 'custom', path: ['playMs'], message: 'must not be below cascade.renderMs (the answer plays after it is rendered)' });
  })
  .prefault({} as never);

export type CascadeConfig = z.infer<typeof cascadeSection>;
