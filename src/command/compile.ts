import { HarkError } from '../core/errors.js';
import type { Intent } from '../language/intent-types.js';
import type { Imperative } from '../language/requests.js';
import type { KitchenRequest } from './kitchen-verb.js';
import type { Classifier } from './classifier.js';
import type { Mode } from '../core/effects.js';
import { DEFAULT_NEAR_MAX_EDITS, DEFAULT_NEAR_SKIP, nearPhrase } from '../language/near.js';
import type { ButtonGesture, FrameSpec, RuleSpec, VerbSpec } from './spec.js';
import { hasRealWords, restAfter, type Said } from '../language/text.js';

/**
 * Rules and verbs turned from their YAML shape into something fast to run: exact sets become Sets,
 * patterns become RegExps, verbs become tagged objects. Compiled once per frame name, shared by
 * every instance of that frame.
 */
export type Slots = Record<string, string>;

export type Verb =
  | { v: 'push'; frame: string }
  | { v: 'pop' }
  | { v: 'say-mode' }
  | { v: 'ignore' }
  | { v: 'mode'; mode: Mode }
  | { v: 'say'; text: string }
  | { v: 'reply'; key: string }
  | { v: 'earcon'; name: string }
  | { v: 'timer'; op: 'set' | 'cancel' | 'status' }
  /** Carry out the kitchen request a kitchen rule matched. */
  | { v: 'kitchen' }
  /** Request an action per imperative said (stop, repeat, continue, start-over), in order. */
  | { v: 'imperative' }
  | { v: 'action'; name: string; args: Record<string, string | number | boolean> }
  /** A verb acting on the frame's own state (append, submit, undo, yes ...). */
  | { v: 'op'; op: string };

/** What a rule sees of an utterance. `intent` is computed at most once, and only if a rule asks. */
export interface MatchInput {
  said: Said;
  fillers: ReadonlySet<string>;
  intent(): Intent;
  /** The utterance in the kitchen language (timers, lists), computed at most once. */
  kitchen(): KitchenRequest | null;
  /** The imperatives, when they are the whole utterance (the kitchen language's reading). */
  imperatives(): Imperative[] | null;
  /**
   * Something hark owns that the words name ("the chips timer") when they ask nothing it can read,
   * and only where a reply is due (an empty query someone woke hark for); null otherwise.
   */
  unclear(): string | null;
  /** Vocabulary by name: normalised phrase → id. */
  vocab(name: string): ReadonlyMap<string, string>;
}

export type RuleKind = 'exact' | 'prefix' | 'pattern' | 'intent' | 'kitchen' | 'near' | 'catch-all' | 'check-parent' | 'classifier' | 'button';

export interface CompiledRule {
  index: number;
  kind: RuleKind;
  when: Mode | undefined;
  verbs: readonly Verb[];
  /** Slots when the rule matches, null when not. Not used for check-parent and classifier rules. */
  match: (input: MatchInput) => Slots | null;
  /**
   * Cheap pre-checks the dispatch loop runs inline before calling match(): an exact rule's phrase
   * set (absent when it uses a vocabulary), and a pattern's literal start ("^eighty six " →
   * "eighty six "). With 200 rules on the stack, skipping the calls is most of the cost.
   */
  phrases: ReadonlySet<string> | undefined;
  literalStart: string | undefined;
  classifier: { name: string; impl: Classifier; timeoutMs: number; labels?: ReadonlyMap<string, readonly Verb[]> } | undefined;
  /** A button rule's gesture (its match() never matches an utterance). */
  button: ButtonGesture | undefined;
  /** The language its words are in (RuleSpec.lang), or undefined: the device's first. */
  lang?: string | undefined;
}

const NO_MATCH = (): null => null;

/** Every rule object has the same shape, so the dispatch loop's property reads stay monomorphic. */
function rule(
  index: number,
  kind: RuleKind,
  when: Mode | undefined,
  verbs: readonly Verb[],
  match: CompiledRule['match'],
  extra: { classifier?: CompiledRule['classifier']; phrases?: ReadonlySet<string>; literalStart?: string; button?: ButtonGesture } = {},
): CompiledRule {
  return {
    index,
    kind,
    when,
    verbs,
    match,
    phrases: extra.phrases,
    literalStart: extra.literalStart,
    classifier: extra.classifier,
    button: extra.button,
    lang: undefined,
  };
}

/**
 * The literal text an anchored pattern must start with, or undefined when that is not certain
 * (no ^, a top-level alternation, a group or class first). "^eighty six (?<item>.+)$" → "eighty six ".
 */
export function literalStart(source: string): string | undefined {
  if (!source.startsWith('^')) return undefined;
  // A top-level | would let another alternative start differently.
  let depth = 0;
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') i++;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '|' && depth === 0) return undefined;
  }
  let out = '';
  for (let i = 1; i < source.length; i++) {
    const c = source[i]!;
    if ('\\^$.|?*+()[]{}'.includes(c)) {
      // A quantifier applies to the char before it, which is then not certain.
      if ('?*+{'.includes(c)) out = out.slice(0, -1);
      break;
    }
    out += c;
  }
  return out || undefined;
}

export function compileVerb(spec: VerbSpec): Verb {
  if (typeof spec === 'string') {
    if (spec === 'pop' || spec === 'say-mode' || spec === 'ignore' || spec === 'kitchen' || spec === 'imperative') return { v: spec };
    return { v: 'op', op: spec };
  }
  if ('push' in spec) return { v: 'push', frame: spec.push };
  if ('mode' in spec) return { v: 'mode', mode: spec.mode };
  if ('say' in spec) return { v: 'say', text: spec.say };
  if ('reply' in spec) return { v: 'reply', key: spec.reply };
  if ('earcon' in spec) return { v: 'earcon', name: spec.earcon };
  if ('timer' in spec) return { v: 'timer', op: spec.timer };
  return { v: 'action', name: spec.action, args: spec.args ?? {} };
}

function compileRule(spec: RuleSpec, index: number, path: string, classifiers: Record<string, Classifier>): CompiledRule {
  const r = compileMatcher(spec, index, path, classifiers);
  return spec !== 'check-parent' && 'lang' in spec && spec.lang ? { ...r, lang: spec.lang } : r;
}

function compileMatcher(spec: RuleSpec, index: number, path: string, classifiers: Record<string, Classifier>): CompiledRule {
  if (spec === 'check-parent') return rule(index, 'check-parent', undefined, [], NO_MATCH);
  const when = spec.when;
  if ('classifier' in spec) {
    const impl = classifiers[spec.classifier];
    if (!impl) {
      const known = Object.keys(classifiers);
      throw new HarkError(
        `${path}.classifier: no classifier named "${spec.classifier}" is available (available: ${known.length ? known.join(', ') : 'none'})`,
        { exitCode: 2 },
      );
    }
    const labels = spec.labels ? new Map(Object.entries(spec.labels).map(([k, v]) => [k, v.map(compileVerb)] as const)) : undefined;
    return rule(index, 'classifier', when, (spec.do ?? []).map(compileVerb), NO_MATCH, {
      classifier: { name: spec.classifier, impl, timeoutMs: spec.timeoutMs, ...(labels ? { labels } : {}) },
    });
  }
  const verbs = spec.do.map(compileVerb);
  if ('button' in spec) return rule(index, 'button', when, verbs, NO_MATCH, { button: spec.button });
  if ('near' in spec) {
    const phrases = spec.near.map((p) => p.split(' '));
    const maxEdits = spec.maxEdits ?? DEFAULT_NEAR_MAX_EDITS;
    const own = new Set(spec.skip ?? DEFAULT_NEAR_SKIP);
    return rule(index, 'near', when, verbs, (input) => {
      // Anchored on the whole utterance: a long dictated sentence costs one pass to drop skip
      // words, then is rejected on its length before any word is compared.
      const m = nearPhrase(input.said.words, phrases, { maxEdits, skip: { has: (w) => own.has(w) || input.fillers.has(w) } });
      return m ? { match: m.phrase, edits: String(m.edits) } : null;
    });
  }
  if ('exact' in spec) {
    const phrases = new Set(spec.exact.filter((p) => !p.startsWith('@')));
    const vocabs = spec.exact.filter((p) => p.startsWith('@')).map((p) => p.slice(1));
    return rule(
      index,
      'exact',
      when,
      verbs,
      (input): Slots | null => {
        const norm = input.said.norm;
        if (phrases.has(norm)) return { match: norm };
        for (const name of vocabs) {
          const id = input.vocab(name).get(norm);
          if (id !== undefined) return { match: norm, value: id };
        }
        return null;
      },
      vocabs.length ? {} : { phrases },
    );
  }
  if ('prefix' in spec) {
    // Longest first, so "hey computer" wins over a shorter phrase it starts with.
    const phrases = [...spec.prefix].sort((a, b) => b.length - a.length).map((p) => ({ p, words: p.split(' ').length }));
    return rule(index, 'prefix', when, verbs, (input) => {
      const norm = input.said.norm;
      for (const { p, words } of phrases) {
        if (norm === p || (norm.startsWith(p) && norm.charCodeAt(p.length) === 32)) {
          return { match: p, rest: restAfter(input.said, words) };
        }
      }
      return null;
    });
  }
  if ('pattern' in spec) {
    const re = new RegExp(spec.pattern, 'u');
    return rule(
      index,
      'pattern',
      when,
      verbs,
      (input) => {
        const m = re.exec(input.said.norm);
        if (!m) return null;
        const slots: Slots = { match: m[0] };
        if (m.groups) for (const [k, v] of Object.entries(m.groups)) if (v !== undefined) slots[k] = v;
        return slots;
      },
      { literalStart: literalStart(spec.pattern) },
    );
  }
  if ('kitchen' in spec) {
    const families = new Set(spec.kitchen);
    return rule(index, 'kitchen', when, verbs, (input): Slots | null => {
      const k = input.kitchen();
      if (k && families.has(k.family)) return { kitchen: k.family, op: k.command.op };
      // Names a timer, a list or the alarm, asks nothing readable: the kitchen verb says so.
      const about = k ? null : input.unclear();
      return about ? { kitchen: 'unclear', about } : null;
    });
  }
  if ('intent' in spec) {
    const names = new Set(spec.intent);
    if (spec.whole) {
      return rule(index, 'intent', when, verbs, (input) => {
        const list = input.imperatives();
        if (!list || !list.every((i) => names.has(i.name) || names.has('imperative'))) return null;
        const last = list[list.length - 1]!;
        return { intent: list.map((i) => i.name).join(' '), ...(last.reference ? { reference: last.reference } : {}) };
      });
    }
    return rule(index, 'intent', when, verbs, (input) => {
      const intent = input.intent();
      if (!names.has(intent.name) && !names.has(intent.kind)) return null;
      const slots: Slots = { intent: intent.name };
      for (const [k, v] of Object.entries(intent.slots)) if (v !== undefined) slots[k] = String(v);
      return slots;
    });
  }
  return rule(index, 'catch-all', when, verbs, (input) => (hasRealWords(input.said, input.fillers) ? { rest: input.said.original } : null));
}

export function compileFrame(name: string, spec: FrameSpec, classifiers: Record<string, Classifier>): CompiledRule[] {
  return spec.rules.map((r, i) => compileRule(r, i, `router.frames.${name}.rules.${i}`, classifiers));
}

/** Replace {slot} in a template; unknown slots become empty. */
export function fill(template: string, slots: Slots): string {
  return template.includes('{') ? template.replace(/\{([a-zA-Z_][\w-]*)\}/g, (_m, k: string) => slots[k] ?? '') : template;
}
