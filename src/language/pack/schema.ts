import { z } from 'zod';
import { packIntents } from './intents.js';
import { packPicking } from './picking.js';
import { packProposals } from './proposals.js';

/**
 * The shape of a language pack: one folder per language (packs/<lang>/), one YAML file per part.
 * Every word hark reads or says in a language is here; the code that reads a pack knows no
 * language. Each file is checked alone here (its shape), then together with the others in
 * check.ts (templates compile, rules and slots exist, every reply hark says is there).
 */
const word = z.string({ error: 'must be a word or phrase' }).trim().min(1, 'must not be empty');
const words = z.array(word, { error: 'must be a list of words or phrases' });
const template = z.string({ error: 'must be a template, such as "cancel [the] {timer}"' }).trim().min(1, 'must not be empty');
const value = z.number({ error: 'must be a number' }).finite();
const table = z.record(word, value, { error: 'must map words to numbers' });

export const packMeta = z.strictObject({
  /** The code a config names (language.languages: [en, es]) and an utterance carries. */
  language: z
    .string({ error: 'must be a language code such as en or es' })
    .regex(/^[a-z]{2,3}(-[a-z0-9]+)?$/, 'must be a language code such as en, es or pt-br'),
  name: word,
  /** espeak-ng's voice for this language's replies. */
  voice: word,
  /**
   * A pack this one grows from: a file it leaves out, and a reply it does not write, are that
   * pack's (said in that language). Its sentences and rules are always its own, and only the
   * intents it writes are read. Without a fallback a pack is whole: everything is required.
   */
  fallback: z.string({ error: 'must be a language code' }).optional(),
  /**
   * Reply slots whose words are nouns, said with a capital first letter where the language writes
   * nouns so: German's [name, list, item, unit] make "den Nudel-Timer", "2 Kilo Zwiebeln".
   */
  noun_slots: z.array(z.enum(['name', 'list', 'item', 'unit'], { error: 'must be name, list, item or unit' })).default([]),
});

/** intent → templates ("timer.cancel": ["<cancel> {timer}", ...]). */
export const packSentences = z.record(word, z.array(template, { error: 'must be a list of templates' }).min(1, 'must have at least one template'), {
  error: 'must map intent names to lists of templates',
});

/** rule → its alternatives (a list), or one template ("[<a>] {duration} <timer_word>"). */
export const packRules = z.record(
  word,
  z.union([template, z.array(template).min(1, 'must have at least one alternative')], { error: 'must be a template or a list of alternatives' }),
  {
    error: 'must map rule names to templates',
  },
);

/**
 * Number words as data: word → value, multipliers ("hundred" times the number before it),
 * connectors (what a joining word joins) and whether a number is written as one compound word
 * that is split into its parts ("fünfundzwanzig" → fünf und zwanzig).
 */
export const CONNECTOR_JOINS = ['after-hundreds', 'tens-units', 'units-tens'] as const;
const join = z.enum(CONNECTOR_JOINS, { error: `must be one of ${CONNECTOR_JOINS.join(', ')}` });
/** Per gender, a word of a number and its form; a key "-eins" is a number's end ("hunderteins" → "hundertundeine"). */
const forms = z.record(word, z.record(word, word, { error: 'must map a number word to its form' }), { error: 'must map genders to word forms' });
export const packNumbers = z.strictObject({
  values: table,
  multipliers: z.record(word, z.strictObject({ value, alone: z.boolean().default(false) }), { error: 'must map words to {value, alone}' }).default({}),
  /** What a joining word joins; a list where one word joins in several places (German "und": "fünfundzwanzig", "hundertundfünf"). */
  connectors: z
    .record(
      word,
      z.union([join, z.array(join).min(1, 'must name what it joins')], { error: `must be one of ${CONNECTOR_JOINS.join(', ')}, or a list of them` }),
      { error: 'must map words to what they join' },
    )
    .default({}),
  compounds: z.boolean().default(false),
  /** Parts that are a number only inside a compound word ("ein" of "einundzwanzig"; alone it is an article). */
  compound_values: table.default({}),
  /** How hark says a number in words; without it hark says digits (espeak-ng reads them in the voice's language). */
  say: z
    .strictObject({
      /** 0 to 19 at least; a language with one word for more ("veintiuno") names them on, up to 99. */
      ones: z.array(word).min(20, 'must name 0 to 19').max(100, 'must name at most 0 to 99'),
      tens: z.array(z.string()).length(10, 'must name the tens, 0 to 90 (the first two empty)'),
      /** Between tens and units: ' ' ("forty two"), ' y ' ("treinta y cinco"), 'und' ("dreiundzwanzig"). */
      tens_join: z.string().default(' '),
      /** Units said before the tens ("drei und zwanzig"). */
      units_first: z.boolean().default(false),
      /** One as the first part of a compound ("ein" of "einundzwanzig"), where it differs from one alone. */
      compound_one: word.optional(),
      hundred: word,
      /** Each hundred's own word, 0 to 900 ("ciento", "doscientos"); without it, the ones then `hundred`. */
      hundreds: z.array(z.string()).length(10, 'must name the hundreds, 0 to 900 (the first empty)').optional(),
      /** A hundred exactly, where it differs ("cien"). */
      hundred_alone: word.optional(),
      thousand: word,
      /** A thousand with no number before it ("mil", "tausend"); without it, one then `thousand`. */
      thousand_alone: word.optional(),
      /** Between the parts of a number: ' ', or '' where a number is one word ("zweihundertdrei"). */
      space: z.string().default(' '),
      /** Said after hundreds and before what is left ("one hundred and five"); none in some languages. */
      and: z.string().default(''),
      /**
       * Before a noun a number agrees with it: per gender (lists.yaml `gender`), a word of the number
       * and the form it takes ("uno" → "un" of "un limón", "ciento un limones"; "doscientos" →
       * "doscientas cebollas"; "eins" → "eine Zwiebel"). Read back after another number word too
       * ("treinta y una cebollas"). Empty where numbers do not agree (English).
       */
      genders: forms.default({}),
      /**
       * The forms a case takes where they differ from `genders` (the case a number takes when a
       * reply names none): per case, per gender, as `genders` ("eins" → "einen" of "einen Kasten",
       * accusative). A reply asks for a case with a slot modifier, `{items:acc}`. Empty where
       * numbers have no case (English, Spanish).
       */
      cases: z.record(word, forms, { error: 'must map cases to genders and their word forms' }).default({}),
    })
    .optional(),
});

/** A unit as hark says it: one, several, and (where a language says "5 minute timer") as a measure. */
const unitSay = z.strictObject({ one: word, other: word, measure: word.optional() });
export const packDurations = z.strictObject({
  /** Unit words and their seconds ("minutes": 60, "viertelstunde": 900). */
  units: table,
  /** Articles that are one of a unit ("an hour", "una hora"). */
  one: words,
  /** Fraction words and their value ("half": 0.5, "media": 0.5). */
  fractions: table,
  /** Fractions never said straight after "and" without an article ("and half"). */
  fraction_needs_article: words.default([]),
  /** Joins parts ("one minute and thirty seconds") and a fraction ("an hour and a half"). */
  and: words,
  of: words,
  /** Counted quarters: "three quarters of an hour". */
  quarters: words,
  /** "a couple of minutes": two. */
  couple: words,
  /** Said before a duration as more time: "another ten minutes". */
  another: words,
  /** Said inside or after it as more time: "2 more minutes", "five minutes longer". */
  more: words,
  /** A spoken correction inside a duration: "ten minutes, no, five minutes"; and the words among them that make one ("that" or "it" alone do not). */
  corrections: words,
  corrects: words,
  /** How hark says a duration: each unit's forms ("1 hour", "2 hours"; as a measure: "5 minute timer") and the last joiner. */
  say: z.strictObject({ hour: unitSay, minute: unitSay, second: unitSay, and: word }),
});

export const packLists = z.strictObject({
  /** The list a request means when it names none, as said in this language. */
  default: word,
  /**
   * Lists are shared by every language on a device: a name said here → the list it is ("compra" →
   * shopping), so "añade huevos a la lista" and "add eggs to the list" fill one list. A name not
   * here is its own list. Replies say a list by the first name that maps to it.
   */
  names: z.record(word, word, { error: 'must map names said in this language to lists' }).default({}),
  /** The word for a list, and where its name goes: before it ("the stores list") or after it ("la lista de la compra"). */
  list_words: words,
  list_name: z.array(z.enum(['before', 'after'], { error: 'must be before or after' })).min(1, "must say where a list's name goes"),
  /** Articles that are one of a unit: "a case of milk", "una caja de leche". */
  one: words,
  /** Articles an item may start with ("the lemons"). */
  item_start: words,
  /** Words before an item that say nothing of it ("the", "some"). */
  articles: words,
  /** Words of an amount without a number ("some", "a bit"): dropped from the item. */
  vague: words,
  /** Units said with no "of" after them ("2 kilos onions"). */
  measures: words,
  /** Counting words: phrase → how many ("a dozen": 12, "half a dozen": 6, "a couple of": 2). */
  counts: table,
  /** Words said after a count that add nothing ("two MORE lemons"). */
  after_count: words.default([]),
  /** A fraction said after a number: "one and a half kilos". */
  fractions: table.default({}),
  /** Counting words after a number: "two dozen eggs" is 24. */
  count_multipliers: table.default({}),
  /** Words that join items ("and", "plus"). */
  joiners: words,
  of: words,
  /** How a plural is made singular to tell "lemon" and "lemons" apart: the first ending that fits wins. */
  singular: z.array(z.strictObject({ ends: word, becomes: z.string(), keep: words.default([]) })).default([]),
  /** Words this short are never made singular ("bus", "gas"). */
  singular_min_letters: z.number().int().min(1).default(1),
  /** Words for one before a thing counted: "un limón" is one lemon (where "a lemon" is just lemon, none). */
  counted_one: words.default([]),
  /**
   * A noun's gender, for a number that agrees with it (numbers.yaml `say.genders`): the noun is an
   * item's first or last word (`head`), or the unit; `nouns` names the gender of known nouns (singular
   * or plural), else the first ending that fits, else `default`.
   */
  gender: z
    .strictObject({
      default: word,
      head: z.enum(['first', 'last'], { error: 'must be first or last' }).default('first'),
      nouns: z.record(word, word, { error: 'must map nouns to their gender' }).default({}),
      endings: z.array(z.strictObject({ ends: word, is: word })).default([]),
    })
    .optional(),
  /** Words an item never starts or ends with, never holds, and never is (they belong to the sentence). */
  item_edge: words,
  item_never: words,
  not_an_item: words,
  /** Words never in a list's name ("the", "whats"). */
  name_never: words,
});

export const packTimers = z.strictObject({
  /** Rooms a person may name; with no device.area, any of them means here. */
  rooms: words,
  determiners: words,
  all: words,
  latest: words,
  /** A word that may come before a latest word ("the most recent one"). */
  latest_lead: words.default([]),
  /** Words that name a timer, and which of them are plural ("timers", "ones"). */
  words: words,
  plural: words,
  /** Words that stand for a timer only after a describing word ("the pizza ONE", "the last one"). */
  pronouns: words.default([]),
  /** The name may follow the timer word straight ("temporizador pizza"). */
  name_after: z.boolean().default(false),
  /** "timer named pizza". */
  named: words,
  /** After the timer word: what names its duration or name ("timer for 5 minutes"), its room ("timer in the kitchen"), and the article between. */
  for: words,
  in: words,
  the: words,
  /** Words never in a timer's name (the verbs and small words of the sentences around it). */
  name_never: words,
  /** Words a new timer's name never starts or ends with, or holds. */
  name_edge: words,
  new_name_never: words,
  /** Verbs a command for later starts with ("in 5 minutes, open the garage door"), and words after which such a verb is a reminder instead ("remind ME"). */
  command_verbs: words,
  command_not_before: words,
  /** Words that end a free-text name, reminder or command ("check the oven TIMER"), and the words after which a reminder ends when a duration follows ("... IN 10 minutes"). */
  free_text_ends: words,
  reminder_until: words,
  /** Words that start another timer in the same breath ("and a 5 minute sauce timer"). */
  start_another: words,
  /**
   * "a 10 minute pasta timer AND a 5 minute sauce timer": where a language sets several timers in
   * one breath, the words that cut them apart and how the second is said again as a sentence of
   * its own ("set" + its words, or "set a" + its words + "timer"; "for" after the cut word means
   * the timer word comes first). Without it, one timer a sentence.
   */
  start_many: z.strictObject({ and: words, verb: word, article: word, timer: word, for: word, drop: words }).optional(),
  /** The answer to "Which timer?" that means all of them, and polite words around an answer. */
  answer_all: words,
  answer_polite: words,
  /** Words that name the alarm while it rings, and the words that name a timer or the timers in a short reply ("the chips TIMER"). */
  alarm: words,
  owned_words: words,
});

export const packWords = z.strictObject({
  /** Sounds of hesitation: never added to a query alone ("um", "uh"), and those taken out before a request is read. */
  fillers: words,
  disfluent: words,
  /** Words whose "'s" a template spells fused ("what's" is whats). Empty where a language has no such clitic. */
  fused: words.default([]),
  /** Words after which a request may go on with something else ("… and then tell me when it's done"). */
  go_on: words,
  /** Compound words split into their stem and a known last part before reading ("nudeltimer" → nudel timer). */
  compound_suffixes: words.default([]),
  /** Words that correct what came before ("stop, actually continue"). */
  corrections: words,
  /** The word in "repeat number 3", and the words that point at the last thing said. */
  number: words,
  last: words,
  /** A kitchen's yes and no (the confirm frame). */
  yes: words,
  no: words,
  /**
   * Words that, alone or together, silence a ring ("stop", "ok thanks"), and the words allowed
   * around them; a long segment that opens with them while a timer rings is heard whole. One word
   * each: the line is read word by word ("turn it off" is turn and it around off).
   */
  ring_stop: z.array(word.regex(/^\S+$/, 'must be one word (a phrase is its words: "turn it off" is ring_stop off with turn and it in ring_stop_also)')),
  ring_stop_also: z.array(word.regex(/^\S+$/, 'must be one word')),
  /** Backchannels and thinking sounds said while hark speaks: never an interruption. */
  backchannels: words,
  /** The wake phrases, and what dictation is left with. */
  wake: words,
  dictation_exit: words,
  /** What opens dictation ("start dictation"), and what cancels a query the wake phrase opened ("cancel", "never mind"). */
  start_dictation: words.default([]),
  query_cancel: words.default([]),
  /** Words a confirmation's yes or no may come with ("uh yes please", "no thanks then"). */
  answer_around: words.default([]),
  /** Lead-ins a tolerant exit phrase ignores ("okay, end dictation"). */
  near_skip: words,
  /** Lead-ins a clipped opening may carry before the wake phrase. */
  opening_lead_ins: words,
  /** What speech-to-text invents on silence and noise in this language (dropped, with the reason). */
  hallucinations: words,
  /** Words that are never the name of a thing hark owns ("what's on THE list"). */
  not_a_name: words,
  /**
   * How a message for someone else starts ("tell the chef …", "let Sam know …"): words after the wake
   * phrase that open so are kept for that person, never answered as a question to hark.
   */
  message_openings: words.default([]),
});

/**
 * The default frames' own commands (router.frames' defaults), frame by frame: the base frame's mode
 * words, "switch voice", "start inventory", stop and repeat; the query's send and read-back; the
 * words that get dictation's "still dictating" hint; the voice picker's cancel; inventory's undo,
 * read-back, save and discard. Written as said ("¿qué modo?"): they are normalised as speech is.
 */
const frameWords = <T extends Record<string, typeof words>>(shape: T) =>
  z.strictObject(shape, {
    error: (i) =>
      i.code === 'unrecognized_keys'
        ? undefined
        : i.input === undefined
          ? "is missing: every pack writes each frame's words"
          : "must map each of the frame's commands to its phrases",
  });
export const packFrames = z.strictObject({
  base: frameWords({ mode_query: words, always_listen: words, wake_word_mode: words, switch_voice: words, start_inventory: words, stop: words, repeat: words }),
  query: frameWords({ send: words, read_back: words }),
  dictation: frameWords({ still: words }),
  voice: frameWords({ cancel: words }),
  inventory: frameWords({ undo: words, read_back: words, save: words, discard: words }),
});

/** Every spoken reply: key → template (message.ts). */
export const packReplies = z.record(word, z.string({ error: 'must be a reply, such as "Cancelled the {timer}."' }).min(1, 'must not be empty'), {
  error: 'must map reply names to replies',
});

/** The files of a pack and the part each holds. */
export const PACK_FILES = {
  'pack.yaml': packMeta,
  'sentences.yaml': packSentences,
  'rules.yaml': packRules,
  'numbers.yaml': packNumbers,
  'durations.yaml': packDurations,
  'lists.yaml': packLists,
  'timers.yaml': packTimers,
  'words.yaml': packWords,
  'frames.yaml': packFrames,
  'replies.yaml': packReplies,
  'picking.yaml': packPicking,
  'intents.yaml': packIntents,
  'proposals.yaml': packProposals,
} as const;

export type PackFile = keyof typeof PACK_FILES;

export interface PackData {
  meta: z.infer<typeof packMeta>;
  sentences: z.infer<typeof packSentences>;
  rules: z.infer<typeof packRules>;
  numbers: z.infer<typeof packNumbers>;
  durations: z.infer<typeof packDurations>;
  lists: z.infer<typeof packLists>;
  timers: z.infer<typeof packTimers>;
  words: z.infer<typeof packWords>;
  frames: z.infer<typeof packFrames>;
  replies: z.infer<typeof packReplies>;
  picking: z.infer<typeof packPicking>;
  intents: z.infer<typeof packIntents>;
  proposals: z.infer<typeof packProposals>;
}
