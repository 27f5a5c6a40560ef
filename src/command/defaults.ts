import { english } from '../language/pack/english.js';
import type { Language } from '../language/pack/language.js';
import { normalise } from '../language/text.js';
import type { FrameSpec, FramesSpec, RuleSpec, VerbSpec, VoiceSpec } from './spec.js';

/**
 * The frames hark ships with. Tests and users rely on these words; change them in YAML
 * (router.frames.<name>.rules replaces that frame's list), not here.
 *
 * Patterns match normalised text: lower case, no punctuation, "what's" → "whats".
 */

// Timers and lists are read by the kitchen language (src/language/), not by patterns here: "a ten
// minute timer", "timer called pizza for 5 minutes" and "how long is left on my 1 hour timer" put
// the duration, the name and the verb in different places, which one rule per phrasing would not
// keep up with. `kitchen: [timer, list]` matches when the utterance is such a request; the
// `kitchen` verb carries it out.
const KITCHEN_RULES = [{ kitchen: ['timer' as const, 'list' as const], do: ['kitchen', 'pop'] }];

/** Answer words, repeated or combined, with what a language says around them ("please", "thanks", "uh"). */
function answerPattern(words: readonly string[], around: readonly string[]): string {
  const alt = [...words, ...around]
    .map(escape)
    .sort((a, b) => b.length - a.length)
    .join('|');
  return `^(?:${alt})(?: (?:${alt}))*$`;
}

function escape(word: string): string {
  return word.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
}

/** One word list of every language's, the first language's first, each phrase once. */
function all(langs: readonly Language[], pick: (w: Language['pack']['words']) => readonly string[]): string[] {
  return [...new Set(langs.flatMap((l) => pick(l.pack.words)))];
}

type Rule = Exclude<RuleSpec, 'check-parent'>;

/**
 * One rule per language for one command, each with that language's phrases (normalised as speech
 * is, each phrase once: a phrase an earlier language has stays that language's). A rule of a
 * language other than the device's first names it (`lang`): a frame it opens answers in it.
 */
function perLanguage(langs: readonly Language[], pick: (l: Language) => readonly string[], make: (phrases: string[]) => Rule): Rule[] {
  const seen = new Set<string>();
  const out: Rule[] = [];
  langs.forEach((l, i) => {
    const phrases = [
      ...new Set(
        pick(l)
          .map(normalise)
          .filter((p) => p && !seen.has(p)),
      ),
    ];
    if (!phrases.length) return;
    for (const p of phrases) seen.add(p);
    out.push(i === 0 ? make(phrases) : { ...make(phrases), lang: l.code });
  });
  return out;
}

/** The languages whose frames.yaml words are heard: the device's, and English's on every device (the words hark's docs teach). */
function withEnglish(langs: readonly Language[]): Language[] {
  return langs.some((l) => l.code === 'en') ? [...langs] : [...langs, english()];
}

/**
 * The frames hark ships with, their words those of the device's languages (each pack's
 * words.yaml and frames.yaml): a Spanish cook wakes hark with "oye computadora", opens dictation
 * with "empezar dictado" and confirms with "sí", a German says "Inventur starten" and "ja", on the
 * same device as an English one; each command is a rule per language, so a frame it opens answers
 * in the language it was asked in. Yes and no with the words around them are read per language,
 * so a Spanish "sí" never comes with an English "please" it was not said with.
 */
export function defaultFrames(langs: readonly Language[] = [english()]): FramesSpec {
  const heard = withEnglish(langs);
  const wake = all(langs, (w) => w.wake);
  const yes = all(langs, (w) => w.yes);
  const no = all(langs, (w) => w.no);
  const words = (pick: (f: Language['pack']['frames']) => readonly string[], make: (phrases: string[]) => Rule) =>
    perLanguage(heard, (l) => pick(l.pack.frames), make);
  const exact = (pick: (f: Language['pack']['frames']) => readonly string[], verbs: VerbSpec[]) => words(pick, (p) => ({ exact: p, do: verbs }));
  return {
    base: {
      kind: 'base',
      rules: [
        ...perLanguage(
          langs,
          (l) => l.pack.words.wake,
          (p) => ({ prefix: p, do: [{ push: 'query' }] }),
        ),
        ...exact((f) => f.base.mode_query, ['say-mode']),
        ...exact((f) => f.base.always_listen, [{ mode: 'always-listen' }]),
        ...exact((f) => f.base.wake_word_mode, [{ mode: 'wake-word' }]),
        ...perLanguage(
          langs,
          (l) => l.pack.words.start_dictation,
          (p) => ({ exact: p, do: [{ push: 'dictation' }] }),
        ),
        ...exact((f) => f.base.switch_voice, [{ push: 'voice' }]),
        ...exact((f) => f.base.start_inventory, [{ push: 'inventory' }]),
        ...exact((f) => f.base.stop, [{ action: 'stop' }]),
        ...exact((f) => f.base.repeat, [{ action: 'repeat' }]),
        // Imperatives however they are put ("can you repeat that", "repeat number 3",
        // "please stop", "stop. actually continue"), each clause an action in order; the action
        // router's last-wins keeps the correction. `whole`: only when nothing but command words was
        // said, so "next table wants the fish" stays a kitchen's words.
        { intent: ['stop', 'repeat', 'continue', 'start-over'], whole: true, do: ['imperative'] },
        // "repeat number 3" … "no, number 5" across a pause: the correction alone, after a correction word.
        {
          pattern: '^(?:no|sorry|actually|i mean)(?: (?:no|sorry|actually|i mean))* (?:repeat )?number (?<n>[a-z0-9]+)$',
          do: [{ action: 'repeat', args: { reference: 'number {n}' } }],
        },
        // Always-listen: everything else acts as if the wake phrase came first. In wake-word mode
        // nothing matches here, so the utterance is reported as ignored (a kitchen radio must not
        // drive hark).
        { 'catch-all': true, when: 'always-listen', do: [{ push: 'query' }] },
      ],
    },
    query: {
      kind: 'query',
      target: 'file',
      silenceMs: 4000,
      rules: [
        ...perLanguage(
          langs,
          (l) => l.pack.words.query_cancel,
          (p) => ({ exact: p, do: [{ earcon: 'cancelled' }, 'pop'] }),
        ),
        ...exact((f) => f.query.send, ['submit', 'pop']),
        ...exact((f) => f.query.read_back, ['read-back']),
        ...KITCHEN_RULES,
        // Before the catch-all: the base frame gets first refusal (mode words, "switch voice",
        // "stop"), and the catch-all keeps only what the base frame did not take.
        'check-parent',
        { 'catch-all': true, do: ['append'] },
      ],
    },
    voice: {
      kind: 'voice',
      timeoutMs: 15_000,
      rules: [{ exact: ['@voices'], do: ['set-voice', 'pop'] }, ...exact((f) => f.voice.cancel, [{ reply: 'voice.unchanged' }, 'pop'])],
    },
    dictation: {
      kind: 'dictation',
      target: 'file',
      rules: [
        // Three ways out, all the same verbs (so the same submit and 'sent' earcon):
        // - the button: a tap (CommandRouter.button), not dependent on any transcript;
        // - the exit phrase heard tolerantly (router/near.ts): "and dictation", "end the dictation.",
        //   "okay, end dictation", "stop dictating". Only the whole utterance, give or take one word,
        //   so a dictated sentence that mentions dictation stays text. Here only: the base frame and
        //   the query frame do not have this rule, and nothing reaches dictation from above.
        { button: 'tap', do: ['submit', 'pop'] },
        ...perLanguage(
          langs,
          (l) => l.pack.words.dictation_exit,
          (p) => ({ near: p, do: ['submit', 'pop'] }),
        ),
        // A bare "stop" or "computer" is kept as text (everything is content until the exit
        // phrase; a one-word "Stop." can be dictated, and leaving wrongly would drop everything said
        // after it), but a person saying only that most likely wanted out, so hark says how.
        { exact: [...new Set([...heard.flatMap((l) => l.pack.frames.dictation.still.map(normalise)), ...wake])], do: ['append', { reply: 'dictation.still' }] },
        { 'catch-all': true, do: ['append'] },
      ],
    },
    confirm: {
      kind: 'confirm',
      timeoutMs: 10_000,
      rules: [
        // The words a kitchen answers with. Exact phrases first (a whole answer closes the segment
        // early: see complete.ts), then the same words in any order with fillers and thanks around
        // them ("uh yes please", "yeah go ahead"), then a "no" that goes on ("no, the other one").
        // Yes and no as a kitchen says them: the kitchen language's words (src/language/answers.ts).
        { exact: yes, do: ['yes', 'pop'] },
        { exact: no, do: ['no', 'pop'] },
        ...langs.flatMap((l): FrameSpec['rules'] => [
          { pattern: answerPattern(l.pack.words.yes, l.pack.words.answer_around), do: ['yes', 'pop'] },
          { pattern: answerPattern(l.pack.words.no, l.pack.words.answer_around), do: ['no', 'pop'] },
        ]),
        { pattern: '^(?:(?:uh|um|oh|er|well) )*(?:no|nope|nah)(?! (?:problem|worries))(?: .+)?$', do: ['no', 'pop'] },
        // Anything else: "Yes or no?" once, then quietly ignored until an answer or the timeout.
        { 'catch-all': true, do: ['unclear'] },
      ],
    },
    inventory: {
      kind: 'inventory',
      target: 'inventory',
      rules: [
        ...exact((f) => f.inventory.undo, ['undo']),
        ...exact((f) => f.inventory.read_back, ['read-back']),
        ...exact((f) => f.inventory.save, ['save', 'pop']),
        // A tap saves, as "save" does: the picker's hands may be full of boxes, and "save" misheard
        // becomes an item.
        { button: 'tap', do: ['save', 'pop'] },
        ...exact((f) => f.inventory.discard, ['discard']),
        { 'catch-all': true, do: ['append'] },
      ],
    },
  };
}

/** The frames of an English device (router.frames' defaults). */
export const DEFAULT_FRAMES: FramesSpec = defaultFrames();

/**
 * The frames a device with these languages uses: each default frame whose rules the config left
 * alone (router.frames.<name>.rules replaces them) gets every language's words; a frame the config
 * wrote keeps what it says.
 */
export function framesFor(frames: FramesSpec, langs: readonly Language[]): FramesSpec {
  if (langs.length === 1 && langs[0] === english()) return frames;
  const built = defaultFrames(langs);
  const out: FramesSpec = { ...frames };
  for (const [name, spec] of Object.entries(frames)) {
    if (spec.rules === DEFAULT_FRAMES[name]?.rules) out[name] = { ...spec, rules: built[name]!.rules };
  }
  return out;
}

/**
 * espeak-ng voices every install has, with what a cook would say. The speech issue narrows this
 * to the voices actually installed; config (router.voices) replaces it.
 */
export const DEFAULT_VOICES: VoiceSpec[] = [
  { id: 'en-us', say: ['american', 'american english', 'us english'] },
  { id: 'en-gb', say: ['british', 'british english', 'english'] },
  { id: 'en-gb-scotland', say: ['scottish', 'scottish english'] },
  { id: 'en-029', say: ['caribbean', 'caribbean english'] },
];
