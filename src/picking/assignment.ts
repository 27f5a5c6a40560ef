import { z } from 'zod';

/**
 * The messages between hark and the warehouse system (docs/picking.md), version 1. An assignment is
 * checked with the same care as config: every problem is named by its field, and a refused one
 * changes nothing hark already holds.
 */
export const MESSAGE_VERSION = 1;

const id = z.string({ error: 'must be a string' }).trim().min(1, 'must not be empty').max(64, 'must be at most 64 characters');
const words = (max: number) => z.string({ error: 'must be a string' }).trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);

const pickSchema = z.strictObject({
  id,
  aisle: words(32),
  slot: words(32),
  /** What hark says for the location, when the warehouse has its own words for it ("Freezer two, bay nine"). */
  say: words(200).optional(),
  /** Printed at the slot and never said by hark; digits, and letters read in the spelling alphabet. */
  checkDigits: z
    .string({ error: 'must be a string' })
    .transform((s) => s.replace(/\s+/g, '').toUpperCase())
    .pipe(z.string().regex(/^[A-Z0-9]{1,8}$/, 'must be 1 to 8 letters or digits')),
  description: words(200).optional(),
  quantity: z.number({ error: 'must be a number' }).int('must be a whole number').min(1, 'must be at least 1').max(100_000, 'must be at most 100000'),
  /** The unit as said after the quantity: one and more than one ("case", "cases"). */
  unit: words(32),
  unitPlural: words(32).optional(),
  container: words(32).optional(),
});

export const assignmentSchema = z
  .strictObject({
    version: z.literal(MESSAGE_VERSION, { error: `must be ${MESSAGE_VERSION} (this hark reads version ${MESSAGE_VERSION} messages)` }),
    type: z.literal('assignment', { error: 'must be "assignment"' }),
    id,
    /** For this operator only (their number as they say it at sign-on); any operator if absent. */
    operator: z
      .string({ error: 'must be a string' })
      .regex(/^[0-9]{1,12}$/, 'must be 1 to 12 digits')
      .optional(),
    picks: z.array(pickSchema, { error: 'must be a list of picks' }).min(1, 'must hold at least one pick').max(1000, 'must hold at most 1000 picks'),
  })
  .superRefine((a, ctx) => {
    const seen = new Set<string>();
    a.picks.forEach((p, i) => {
      if (seen.has(p.id))
        ctx.addIssue({ code: 'custom', path: ['picks', i, 'id'], message: `"${p.id}" is the id of an earlier pick (each pick needs its own)` });
      seen.add(p.id);
    });
  });

export type Assignment = z.infer<typeof assignmentSchema>;
export type Pick = Assignment['picks'][number];

export type Checked<T> = { ok: true; value: T } | { ok: false; problems: string[] };

/** An assignment as received (parsed JSON), or every problem with it by field ("picks.2.quantity: must be at least 1"). */
export function checkAssignment(raw: unknown): Checked<Assignment> {
  const r = assignmentSchema.safeParse(raw);
  if (r.success) return { ok: true, value: r.data };
  return { ok: false, problems: r.error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(the message)'}: ${i.message}`) };
}

/** A confirmed pick as hark reports it: `id` is the same on every delivery, so the warehouse can drop a repeat. */
export interface PickResult {
  version: typeof MESSAGE_VERSION;
  type: 'pick';
  /** `<assignment>/<pick>`: one result per pick, whatever the number of deliveries. */
  id: string;
  /** Order of confirmation on this device: results arrive in this order. */
  seq: number;
  device: string;
  operator: string;
  assignment: string;
  pick: string;
  aisle: string;
  slot: string;
  quantity: number;
  picked: number;
  short: boolean;
  /** Wall-clock time of the confirmation (ISO 8601). */
  confirmedAt: string;
}

export function unitWord(p: Pick, n: number): string {
  return n === 1 ? p.unit : (p.unitPlural ?? p.unit);
}
