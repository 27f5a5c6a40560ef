import { z } from 'zod';
import { HarkError } from '../core/errors.js';
import { normalise } from '../language/text.js';
import english from './words.en.json' with { type: 'json' };

/**
 * Every word picking says or hears, read from one data file per language (words.en.json) and checked
 * when hark starts: a template that names a slot hark does not fill, or a command with no phrase, is
 * refused with its path, never found out when a picker speaks. Picking's code holds no word of its own.
 */

/** The slots each sentence may use: what the dialogue fills in. */
export const SAY_SLOTS = {
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

export type SayKey = keyof typeof SAY_SLOTS;

/** Commands heard at any step (and the answers a step expects: yes, no, ready, sign on). */
export const HEAR_KEYS = [
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
export type HearKey = (typeof HEAR_KEYS)[number];

const phrase = z.string().trim().min(1, 'must not be empty');
const template = (slots: readonly string[]) =>
  phrase.superRefine((s, ctx) => {
    for (const m of s.matchAll(/\{([^}]*)\}/g)) {
      if (!slots.includes(m[1]!)) ctx.addIssue({ code: 'custom', message: `unknown slot {${m[1]}} (this sentence has: ${slots.length ? slots.map((x) => `{${x}}`).join(', ') : 'none'})` });
    }
  });
const pluralForms = z.strictObject({ one: template(['n']), other: template(['n']) });

const wordsSchema = z.strictObject({
  language: phrase,
  say: z.strictObject(Object.fromEntries(Object.entries(SAY_SLOTS).map(([k, slots]) => [k, template(slots)])) as Record<SayKey, ReturnType<typeof template>>),
  plural: z.strictObject({ picks: pluralForms, units: pluralForms }),
  hear: z.strictObject(Object.fromEntries(HEAR_KEYS.map((k) => [k, z.array(phrase).min(1, 'needs at least one phrase')])) as Record<HearKey, z.ZodArray<typeof phrase>>),
  fillers: z.array(phrase),
  digits: z.record(phrase, z.string().regex(/^[0-9]$/, 'must be one digit, "0" to "9"')),
  double: z.array(phrase),
  letters: z.record(phrase, z.string().regex(/^[A-Z]$/, 'must be one capital letter, "A" to "Z"')),
});

export type WordsFile = z.infer<typeof wordsSchema>;

/** The words, checked and made quick to look up (every phrase in the router's normal form). */
export interface PickWords {
  readonly language: string;
  say(key: SayKey, slots?: Record<string, string | number>): string;
  plural(key: 'picks' | 'units', n: number): string;
  /** Which command these normalised words are, if any. */
  command(norm: string): HearKey | null;
  readonly fillers: ReadonlySet<string>;
  readonly digits: ReadonlyMap<string, string>;
  readonly double: ReadonlySet<string>;
  /** Spelling-alphabet words (one or two words each, "x ray") to letters. */
  readonly letters: ReadonlyMap<string, string>;
}

/** Check a words file's content; a bad one is refused naming every field that is wrong. */
export function readWords(raw: unknown, source: string): PickWords {
  const r = wordsSchema.safeParse(raw);
  if (!r.success) {
    const problems = r.error.issues.map((i) => `${[source, ...i.path].join('.')}: ${i.message}`);
    throw new HarkError(problems.join('\n'), { exitCode: 2 });
  }
  const w = r.data;
  const commands = new Map<string, HearKey>();
  const problems: string[] = [];
  for (const key of HEAR_KEYS) {
    for (const p of w.hear[key]) {
      const norm = normalise(p);
      const had = commands.get(norm);
      // One phrase, two commands: which one a picker meant could not be told.
      if (had && had !== key) problems.push(`${source}.hear.${key}: "${p}" is also a phrase of ${had}`);
      commands.set(norm, key);
    }
  }
  if (problems.length) throw new HarkError(problems.join('\n'), { exitCode: 2 });
  const fill = (t: string, slots: Record<string, string | number>) => t.replace(/\{([^}]+)\}/g, (_, k: string) => String(slots[k] ?? ''));
  return {
    language: w.language,
    say: (key, slots = {}) => fill(w.say[key], slots),
    plural: (key, n) => fill(n === 1 ? w.plural[key].one : w.plural[key].other, { n }),
    command: (norm) => commands.get(norm) ?? null,
    fillers: new Set(w.fillers.map(normalise)),
    digits: new Map(Object.entries(w.digits).map(([k, v]) => [normalise(k), v])),
    double: new Set(w.double.map(normalise)),
    letters: new Map(Object.entries(w.letters).map(([k, v]) => [normalise(k), v])),
  };
}

let cached: PickWords | undefined;

/** The built-in English words (checked once; a broken file stops hark at start). */
export function englishWords(): PickWords {
  return (cached ??= readWords(english, 'picking/words.en.json'));
}
