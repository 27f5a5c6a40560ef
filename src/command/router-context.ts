import { ownRepliesIn, type OwnReplies } from '../language/config.js';
import type { Language } from '../language/pack/language.js';
import { defaultLanguage } from '../language/default.js';
import type { KitchenLanguage } from '../language/kitchen.js';
import type { Imperative } from '../language/requests.js';
import { NOTHING_OWNED, type Situation } from '../language/situation.js';
import type { Said } from '../language/text.js';
import { ownedThing, readImperatives } from '../language/understand.js';
import { detectIntent } from '../language/intent-rules.js';
import type { Intent } from '../language/intent-types.js';
import type { CompiledRule, MatchInput } from './compile.js';
import type { Mode } from '../core/effects.js';
import type { Frame } from './frame.js';
import { parseKitchen, type KitchenRequest } from './kitchen-verb.js';

/**
 * What the router hears with: the kitchen language, what hark owns right now (the command core
 * fills it), and the few words it says of its own. One MatchInput per utterance reads the words
 * once (the kitchen request, the imperatives, the thing hark owns that they name) for every rule
 * that asks, and `firstTaker` runs the same rules without acting: "would hark take this?", the
 * question the interruption filter asks while hark speaks.
 */
export interface RouterContext {
  language: KitchenLanguage;
  situation: () => Situation;
  /** True for a target that keeps words without answering (a file, a webhook): hark says it kept them. */
  plainTarget: (target: string) => boolean;
  /** hark's own replies in a language (language.replies, else the pack's). */
  replies: (lang: Language) => OwnReplies;
}

export function defaultRouterContext(area: string | undefined): RouterContext {
  const situation = area ? { ...NOTHING_OWNED, area } : NOTHING_OWNED;
  return { language: defaultLanguage(), situation: () => situation, plainTarget: () => false, replies: ownRepliesIn() };
}

export function matchInput(
  said: Said,
  fillers: ReadonlySet<string>,
  hearing: RouterContext,
  top: Frame,
  vocab: (name: string) => ReadonlyMap<string, string>,
): MatchInput {
  let intent: Intent | undefined;
  let kitchen: KitchenRequest | null | undefined;
  let imperatives: Imperative[] | null | undefined;
  let unclear: string | null | undefined;
  let situation: Situation | undefined;
  const now = () => (situation ??= hearing.situation());
  return {
    said,
    fillers,
    intent: () => (intent ??= detectIntent(said, hearing.language)),
    // A list hark does not have is answered where the words would otherwise only be filed.
    kitchen: () => (kitchen === undefined ? (kitchen = parseKitchen(said, hearing.language, now(), hearing.plainTarget(top.spec.target ?? 'file'))) : kitchen),
    imperatives: () => (imperatives === undefined ? (imperatives = readImperatives(hearing.language, said, now())) : imperatives),
    // Only where someone woke hark to ask something: an empty query opened by the wake phrase, whose
    // words would go to a target that does not answer. Anything else is a kitchen's talk or a message.
    unclear: () => {
      if (unclear !== undefined) return unclear;
      const ok =
        top.spec.kind === 'query' &&
        top.woken &&
        !top.holds() &&
        hearing.plainTarget(top.spec.target ?? 'file') &&
        !opensAMessage(said, hearing.language.speaking(said.language));
      // Read in the words' language (named, else the query's), named in the query's: the reply is said in it.
      const words = hearing.language.speaking(said.language ?? top.lang);
      return (unclear = ok ? ownedThing(said, now(), words, hearing.language.speaking(top.lang ?? said.language)) : null);
    },
    vocab,
  };
}

/** The reply to a request hark cannot read but that names something of its own, in the language named (the device's first if none). */
export function unclearReply(hearing: RouterContext, thing: string, code?: string): string {
  const lang = hearing.language.speaking(code);
  const text = hearing.replies(lang).unclear(thing);
  // A ringing alarm: say how to silence it, the one thing the person surely wants.
  return thing === lang.phrase('owned.alarm') ? `${text} ${lang.reply('unclear.alarm')}` : text;
}

/**
 * The rule that would take this utterance now, walking the stack as dispatch does (top down, each
 * frame's rules in order, check-parent handing down) but doing nothing: null when no rule would.
 * A classifier rule counts as taking it (it asks the model about anything).
 */
export function firstTaker(frames: readonly Frame[], mode: Mode, input: MatchInput): { frame: string; rule: CompiledRule } | null {
  const walk = (index: number): { frame: string; rule: CompiledRule } | null => {
    const frame = frames[index]!;
    for (const rule of frame.rules) {
      if (rule.when !== undefined && rule.when !== mode) continue;
      if (rule.kind === 'check-parent') {
        const below = index > 0 ? walk(index - 1) : null;
        if (below) return below;
        continue;
      }
      if (rule.kind === 'button') continue;
      if (rule.classifier || rule.match(input)) return { frame: frame.name, rule };
    }
    return null;
  };
  return frames.length ? walk(frames.length - 1) : null;
}

/** The start of a message for someone else, not a request to hark ("tell the chef …"): the pack's message_openings. */
function opensAMessage(said: Said, lang: Language): boolean {
  return lang.list('words', 'message_openings').at(said.words, 0) > 0;
}
