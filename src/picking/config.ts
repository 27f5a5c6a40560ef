import { z } from 'zod';
import { flag, intBetween, ms, section, text } from '../core/config-fields.js';

/**
 * picking: voice-directed picking (docs/picking.md). Off unless enabled; on, the device is a
 * picker's: the picking frame sits on top of the stack from start and takes every word it expects
 * without the wake word.
 */
export const pickingSection = section({
  enabled: flag(false),
  /** Operators hark knows (their number as said at sign-on), each with a PIN or none. Empty: any number, no PIN. */
  operators: z
    .array(
      z.strictObject({
        id: z.string({ error: 'must be a string of digits' }).regex(/^[0-9]{1,12}$/, 'must be 1 to 12 digits'),
        pin: z
          .string({ error: 'must be a string of digits' })
          .regex(/^[0-9]{3,8}$/, 'must be 3 to 8 digits')
          .optional(),
      }),
      { error: 'must be a list of {id, pin?}' },
    )
    .default([]),
  /** Speaking rate for picking, words a minute: where each operator starts, and how far "faster" and "slower" go. */
  rate: section({
    start: intBetween(80, 450, 170),
    min: intBetween(80, 450, 120),
    max: intBetween(80, 450, 260),
    step: intBetween(5, 100, 20),
  }),
  wms: section({
    /** Results are POSTed here (JSON, one pick each, in order). Empty: not over HTTP. */
    url: text('').refine((s) => s === '' || /^https?:\/\/[^/\s]+/.test(s), 'must be an http:// or https:// URL with a host'),
    /** A result waits this long before it is sent, so "undo" can still take it back. */
    holdMs: ms(3000, 0, 60_000),
    timeoutMs: ms(5000, 100, 120_000),
    /** Retries back off from the first delay to the last, doubling. */
    retryFirstMs: ms(1000, 10, 600_000),
    retryMaxMs: ms(30_000, 10, 3_600_000),
    /** Assignments and results over the fleet's broker (mqtt.url) instead of HTTP. */
    mqtt: flag(false),
    /** Results kept while the warehouse system is away; past this, new picks are refused aloud (none is dropped). */
    queueMax: intBetween(10, 1_000_000, 10_000),
  }),
}).superRefine((c, ctx) => {
  const r = c.rate;
  if (!(r.min <= r.start && r.start <= r.max))
    ctx.addIssue({ code: 'custom', path: ['rate', 'start'], message: `must be between picking.rate.min (${r.min}) and picking.rate.max (${r.max})` });
  const seen = new Set<string>();
  c.operators.forEach((o, i) => {
    if (seen.has(o.id)) ctx.addIssue({ code: 'custom', path: ['operators', i, 'id'], message: `operator ${o.id} is listed twice` });
    seen.add(o.id);
  });
  if (c.wms.mqtt && c.wms.url)
    ctx.addIssue({ code: 'custom', path: ['wms', 'mqtt'], message: 'results go over HTTP (picking.wms.url) or MQTT, not both: empty one' });
  if (c.wms.retryMaxMs < c.wms.retryFirstMs)
    ctx.addIssue({ code: 'custom', path: ['wms', 'retryMaxMs'], message: 'must not be below picking.wms.retryFirstMs' });
});

export type PickingConfig = z.infer<typeof pickingSection>;

/** Across sections: results over MQTT need the fleet's broker. */
export function checkPickingConfig(cfg: { picking: PickingConfig; mqtt: { url: string } }, ctx: z.RefinementCtx): void {
  if (cfg.picking.wms.mqtt && !cfg.mqtt.url) ctx.addIssue({ code: 'custom', path: ['picking', 'wms', 'mqtt'], message: 'needs the site broker in mqtt.url' });
}
