import { matchTemplate, type SlotReader } from './match.js';
import { expand, firstWords, parseTemplate, TemplateError, type Node } from './template.js';

/**
 * A set of sentences (intent → templates) with their expansion rules and slot readers, compiled
 * once. `read` finds every intent whose template covers the whole utterance, give or take the
 * lead-ins and tails people put around a request ("ok so could you just ... please"), best first.
 * Technicians add templates and rule alternatives from the config (language.templates,
 * language.rules); they are compiled here like the built-in ones, so a bad one is refused with a
 * message that names it. Pure.
 */
export interface SentenceSpec {
  intent: string;
  templates: readonly string[];
}

export interface GrammarSpec<C> {
  /** Expansion rules by name: `<cancel>` → "(cancel|stop|scrap|...)". */
  rules: Readonly<Record<string, string>>;
  sentences: readonly SentenceSpec[];
  readers: ReadonlyMap<string, SlotReader<C>>;
  /** Rule names of a lead-in and a tail: each may come any number of times around a sentence. */
  lead: string;
  tail: string;
}

/** Additions from the config: templates by intent, alternatives by rule name. */
export interface GrammarExtras {
  templates?: Readonly<Record<string, readonly string[]>>;
  rules?: Readonly<Record<string, readonly string[]>>;
}

export interface Parse {
  intent: string;
  slots: Record<string, unknown[]>;
  score: number;
  /** The template as written, for tracing. */
  template: string;
}

interface Compiled {
  intent: string;
  source: string;
  node: Node;
  /** Words it can start with; null when a slot may come first (then it is always tried). */
  first: ReadonlySet<string> | null;
}

/** Where a bad template is in the config, so the error can name it. */
export class GrammarError extends Error {
  constructor(
    readonly path: (string | number)[],
    message: string,
  ) {
    super(message);
    this.name = 'GrammarError';
  }
}

export class Grammar<C> {
  private readonly compiled: Compiled[] = [];
  private readonly rules = new Map<string, Node>();
  private readonly lead: Node;
  private readonly tail: Node;
  private readonly intents = new Set<string>();

  constructor(
    private readonly spec: GrammarSpec<C>,
    extras: GrammarExtras = {},
  ) {
    const types = new Set(spec.readers.keys());
    for (const [name, src] of Object.entries(spec.rules)) this.rules.set(name, parseTemplate(src));
    for (const [name, alts] of Object.entries(extras.rules ?? {})) {
      const base = this.rules.get(name);
      if (!base) throw new GrammarError(['rules', name], `unknown rule <${name}> (rules: ${[...this.rules.keys()].sort().join(', ')})`);
      const more = alts.map((a, i) => this.parse(a, ['rules', name, i]));
      this.rules.set(name, { t: 'alt', options: [base, ...more] });
    }
    // Check every rule once, so a bad built-in or added alternative fails at start, not when heard.
    for (const [name, node] of this.rules) {
      try {
        expand(node, this.rules, types, [name]);
      } catch (err) {
        throw new GrammarError(['rules', name], (err as Error).message);
      }
    }
    for (const s of spec.sentences) {
      this.intents.add(s.intent);
      s.templates.forEach((t) => this.add(s.intent, t, ['sentences', s.intent]));
    }
    for (const [intent, list] of Object.entries(extras.templates ?? {})) {
      if (!this.intents.has(intent))
        throw new GrammarError(['templates', intent], `unknown intent "${intent}" (intents: ${[...this.intents].sort().join(', ')})`);
      list.forEach((t, i) => this.add(intent, t, ['templates', intent, i]));
    }
    this.lead = expand({ t: 'rule', name: spec.lead }, this.rules, types);
    this.tail = expand({ t: 'rule', name: spec.tail }, this.rules, types);
  }

  /** The intents it knows. */
  get intentNames(): string[] {
    return [...this.intents];
  }

  private parse(src: string, path: (string | number)[]): Node {
    try {
      return parseTemplate(src);
    } catch (err) {
      throw new GrammarError(path, `${(err as Error).message} in "${src}"`);
    }
  }

  private add(intent: string, source: string, path: (string | number)[]): void {
    let node: Node;
    try {
      node = expand(parseTemplate(source), this.rules, new Set(this.spec.readers.keys()));
    } catch (err) {
      throw new GrammarError(path, `${err instanceof TemplateError ? err.message : String(err)} in "${source}"`);
    }
    const f = firstWords(node);
    this.compiled.push({ intent, source, node, first: f.slot || f.empty ? null : f.words });
  }

  /** Positions reachable from `from` by zero or more lead-ins (or, backwards, tails). */
  private leads(words: readonly string[], ctx: C): number[] {
    const seen = new Set([0]);
    const queue = [0];
    while (queue.length) {
      const at = queue.shift()!;
      for (const m of matchTemplate(this.lead, words, at, ctx, this.spec.readers)) {
        if (m.end < words.length && !seen.has(m.end)) {
          seen.add(m.end);
          queue.push(m.end);
        }
      }
    }
    return [...seen];
  }

  private tails(words: readonly string[], ctx: C): boolean[] {
    const ends = new Array<boolean>(words.length + 1).fill(false);
    ends[words.length] = true;
    for (let at = words.length - 1; at > 0; at--) {
      ends[at] = matchTemplate(this.tail, words, at, ctx, this.spec.readers).some((m) => ends[m.end]);
    }
    return ends;
  }

  /**
   * Every reading of the whole utterance, best first (by score; ties keep the template order).
   * `only`: the intents to try (the rest are not matched at all).
   */
  read(words: readonly string[], ctx: C, only?: (intent: string) => boolean): Parse[] {
    if (!words.length) return [];
    const starts = this.leads(words, ctx);
    const ends = this.tails(words, ctx);
    const out: Parse[] = [];
    for (const c of this.compiled) {
      if (only && !only(c.intent)) continue;
      for (const s of starts) {
        if (c.first && !c.first.has(words[s]!)) continue;
        for (const m of matchTemplate(c.node, words, s, ctx, this.spec.readers)) {
          if (ends[m.end]) out.push({ intent: c.intent, slots: m.slots, score: m.score, template: c.source });
        }
      }
    }
    return out.sort((a, b) => b.score - a.score);
  }

  /**
   * Could these words be the start of one of the given intents' sentences (after lead-ins)? Exact
   * words, as read: the opening check asks it of a clipped opening ("stop", "can you say", "alright
   * carry"), which must not take "the old man" for "hold on".
   */
  mayBegin(words: readonly string[], ctx: C, intents: (intent: string) => boolean): boolean {
    if (!words.length) return false;
    const starts = this.leads(words, ctx);
    for (const c of this.compiled) {
      if (!intents(c.intent)) continue;
      for (const s of starts) {
        if (c.first && !c.first.has(words[s]!)) continue;
        if (matchTemplate(c.node, words, s, ctx, this.spec.readers, true).some((m) => m.end >= words.length)) return true;
      }
    }
    return false;
  }

  /** The words the given intents' sentences can open with (lead-ins aside). */
  openers(intents: (intent: string) => boolean): string[] {
    const words = new Set<string>();
    for (const c of this.compiled) if (intents(c.intent)) for (const w of firstWords(c.node).words) words.add(w);
    return [...words].sort();
  }
}
