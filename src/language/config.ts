import { z } from 'zod';
import { GrammarError } from './grammar.js';
import { KitchenLanguage } from './kitchen.js';
import { packLanguage } from './pack/english.js';
import type { Language } from './pack/language.js';

/**
 * language: the kitchen language's own config section (composed by src/config/schema.ts). A
 * technician adds a phrasing as a line of data, with no code:
 *
 *   language:
 *     templates:
 *       timer.cancel: ['zap [the] {timer}']      # a new way to say an intent
 *       list.add: ['chuck {items} in the basket for <the_list>']
 *     rules:
 *       cancel: [belay, ditch]                     # more words for a rule every sentence uses
 *     replies:
 *       noted: Noted for the chef.                 # the first language's
 *       es: {noted: Anotado para el chef.}         # another language's
 *
 * Every template is compiled when the config is read, so a bad one stops hark at start with its
 * path and what is wrong (language.templates.timer.cancel.0: unknown slot {tmer} ...), never when
 * someone speaks.
 */
/** What hark says of its own when it kept words, or could not read a request: the pack's kept.noted and unclear, unless language.replies says otherwise. */
export interface OwnReplies {
  noted: string;
  unclear(thing: string): string;
}

const REPLY_KEYS = ['noted', 'unclear'] as const;
const sentence = z.string({ error: 'must be a sentence' }).trim().min(1, 'must not be empty');
const ownReplies = z.strictObject({ noted: sentence.optional(), unclear: sentence.optional() }, { error: 'must be replies, such as {noted: Anotado.}' });

const phrases = z.array(z.string({ error: 'must be a template, such as "nix [the] {timer}"' }).trim().min(1, 'must not be empty'), {
  error: 'must be a list of templates',
});

export const languageSection = z
  .strictObject({
    /**
     * The languages this device hears, each a pack in packs/<code>/: every utterance is read in
     * each in turn (the first that reads it is the one it was said in); the first is the one hark
     * speaks and the one templates and rules below add to.
     */
    languages: z
      .array(z.string({ error: 'must be a language code such as en or es' }).regex(/^[a-z]{2,3}(-[a-z0-9]+)?$/, 'must be a language code such as en or es'), {
        error: 'must be a list of language codes',
      })
      .min(1, 'must name at least one language')
      .default(['en']),
    /** Extra templates by intent (timer.start, timer.cancel, list.add, imperative.stop, ...). */
    templates: z.record(z.string(), phrases, { error: 'must map intent names to lists of templates' }).default({}),
    /** Extra alternatives for the expansion rules (<cancel>, <list_add>, <lead>, ...). */
    rules: z.record(z.string(), phrases, { error: 'must map rule names to lists of words or templates' }).default({}),
    /**
     * hark's own words in place of the pack's: `noted` (said when a query's words go to a file or
     * webhook target: they were kept) and `unclear` (a request that names something hark owns but
     * asks nothing it can read; {thing} is what it named). Written at the top they are the first
     * language's; under a language code, that language's (`es: {noted: …}`).
     */
    replies: z
      .record(z.string(), z.union([sentence, ownReplies], { error: "must be a sentence, or a language's replies such as {noted: Anotado.}" }))
      .default({}),
  })
  .prefault({})
  .superRefine((cfg, ctx) => {
    for (const [k, v] of Object.entries(cfg.replies)) {
      const own = (REPLY_KEYS as readonly string[]).includes(k);
      if (own && typeof v !== 'string') ctx.addIssue({ code: 'custom', path: ['replies', k], message: "must be a sentence (the first language's)" });
      else if (!own && !cfg.languages.includes(k))
        ctx.addIssue({
          code: 'custom',
          path: ['replies', k],
          message: `is neither a reply (${REPLY_KEYS.join(', ')}) nor one of language.languages (${cfg.languages.join(', ')}); another language's replies are written under its code: replies: {${cfg.languages[1] ?? 'es'}: {noted: …}}`,
        });
      else if (!own && typeof v === 'string')
        ctx.addIssue({ code: 'custom', path: ['replies', k], message: `must be the replies of "${k}", such as {noted: …}` });
    }
    const codes = new Set<string>();
    for (const [i, code] of cfg.languages.entries()) {
      if (codes.has(code)) ctx.addIssue({ code: 'custom', path: ['languages', i], message: `"${code}" is named twice` });
      codes.add(code);
      try {
        packLanguage(code);
      } catch (err) {
        // A pack's own problems name its file and the path inside it, one a line.
        ctx.addIssue({ code: 'custom', path: ['languages', i], message: `language pack "${code}": ${(err as Error).message}` });
        return;
      }
    }
    try {
      kitchenLanguage(cfg);
    } catch (err) {
      if (!(err instanceof GrammarError)) throw err;
      ctx.addIssue({ code: 'custom', path: err.path, message: err.message });
    }
  });

/** The device's kitchen language: its languages' packs, the first with the config's templates and rules. */
export function kitchenLanguage(cfg?: {
  languages?: readonly string[];
  templates?: Record<string, readonly string[]>;
  rules?: Record<string, readonly string[]>;
}): KitchenLanguage {
  const [first, ...others] = (cfg?.languages ?? ['en']).map(packLanguage);
  return new KitchenLanguage({ templates: cfg?.templates ?? {}, rules: cfg?.rules ?? {} }, first, others);
}

export type LanguageConfig = z.infer<typeof languageSection>;

/**
 * hark's own replies in a language: language.replies' for it (the top-level ones are the first
 * language's), else the pack's (kept.noted, unclear).
 */
export function ownRepliesIn(cfg?: {
  languages?: readonly string[];
  replies?: Readonly<Record<string, string | { noted?: string; unclear?: string }>>;
}): (lang: Language) => OwnReplies {
  const first = cfg?.languages?.[0] ?? 'en';
  const set = cfg?.replies ?? {};
  return (lang) => {
    const mine = set[lang.code];
    const over = { ...(lang.code === first ? set : {}), ...(typeof mine === 'object' ? mine : {}) };
    const noted = typeof over.noted === 'string' ? over.noted : undefined;
    const unclear = typeof over.unclear === 'string' ? over.unclear : undefined;
    return {
      noted: noted ?? lang.reply('kept.noted'),
      unclear: (thing) => (unclear !== undefined ? unclear.replace('{thing}', thing) : lang.reply('unclear', { thing })),
    };
  };
}
