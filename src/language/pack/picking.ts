import { z } from 'zod';
import { normalise } from '../text.js';

/**
 * picking.yaml: every word voice picking says or hears in a language (the prompts, the commands,
 * the digits, the spelling alphabet), held to its shape here with the other pack files. A prompt
 * that names a slot the dialogue does not fill, a command with no phrase, or one phrase for two
 * commands is refused with its file and path when hark starts, never found out when a picker speaks.
 */

/** The slots each prompt may use: what the dialogue fills in. */
export const PICK_SAY_SLOTS = {
  askOperator: [],
  askPin: [],
  unknownOperator: ['operator'],
  wrongPin: [],
  signedOn: ['operator'],
  noAssignment: [],
  newAssignment: ['picks'],
  resuming: [],
  location: ['aisle', 'slot'],
  wrong: [],
  pick: ['quantity'],
  tooMany: ['quantity'],
  askPicked: [],
  shortConfirm: ['missing'],
  yesOrNo: [],
  skipped: [],
  lastSlot: [],
  howMuchMore: ['picks', 'units'],
  nothingLeft: [],
  description: ['description'],
  noDescription: [],
  undone: [],
  nothingToUndo: [],
  alreadySent: [],
  lastPick: ['aisle', 'slot', 'picked'],
  noLastPick: [],
  onBreak: [],
  signedOff: [],
  assignmentDone: [],
  faster: [],
  slower: [],
  fastest: [],
  slowest: [],
  outboxOver: ['picks'],
} as const satisfies Record<string, readonly string[]>;

export type PickSayKey = keyof typeof PICK_SAY_SLOTS;

/** Commands heard at any step (and the answers a step expects: yes, no, ready, sign on). */
export const PICK_HEAR_KEYS = [
  'sayAgain',
  'skipSlot',
  'short',
  'howMuchMore',
  'description',
  'undo',
  'repeatLastPick',
  'takeBreak',
  'ready',
  'signOn',
  'signOff',
  'faster',
  'slower',
  'yes',
  'no',
] as const;
export type PickHearKey = (typeof PICK_HEAR_KEYS)[number];

const phrase = z
  .string({ error: (i) => (i.input === undefined ? 'is missing: every pack says it' : 'must be a word or phrase') })
  .trim()
  .min(1, 'must not be empty');
const template = (slots: readonly string[]) =>
  phrase.superRefine((s, ctx) => {
    for (const m of s.matchAll(/\{([^}]*)\}/g)) {
      if (!slots.includes(m[1]!))
        ctx.addIssue({
          code: 'custom',
          message: `unknown slot {${m[1]}} (this sentence has: ${slots.length ? slots.map((x) => `{${x}}`).join(', ') : 'none'})`,
        });
    }
  });
const pluralForms = z.strictObject({ one: template(['n']), other: template(['n']) });

export const packPicking = z
  .strictObject({
    say: z.strictObject(
      Object.fromEntries(Object.entries(PICK_SAY_SLOTS).map(([k, slots]) => [k, template(slots)])) as Record<PickSayKey, ReturnType<typeof template>>,
    ),
    plural: z.strictObject({ picks: pluralForms, units: pluralForms }),
    hear: z.strictObject(
      Object.fromEntries(PICK_HEAR_KEYS.map((k) => [k, z.array(phrase).min(1, 'needs at least one phrase')])) as Record<PickHearKey, z.ZodArray<typeof phrase>>,
    ),
    fillers: z.array(phrase).default([]),
    /** One digit a word ("vier sieben"): read before the number words, so "null acht" is "08", not 8. */
    digits: z.record(phrase, z.string().regex(/^[0-9]$/, 'must be one digit, "0" to "9"')),
    /** "double four" is "44". */
    double: z.array(phrase).default([]),
    /** The spelling alphabet (ICAO in every language): word → letter. */
    letters: z.record(phrase, z.string().regex(/^[A-Z]$/, 'must be one capital letter, "A" to "Z"')),
  })
  .superRefine((p, ctx) => {
    // One phrase, two commands: which one a picker meant could not be told.
    const seen = new Map<string, PickHearKey>();
    for (const key of PICK_HEAR_KEYS) {
      p.hear[key].forEach((text, i) => {
        const norm = normalise(text);
        const had = seen.get(norm);
        if (had && had !== key) ctx.addIssue({ code: 'custom', path: ['hear', key, i], message: `"${text}" is also a phrase of ${had}` });
        seen.set(norm, key);
      });
    }
  });

export type PickingWords = z.infer<typeof packPicking>;
