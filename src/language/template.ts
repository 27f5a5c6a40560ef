import { said } from './text.js';

/**
 * Sentence templates, in the spirit of Home Assistant's hassil (written here, not taken from it):
 *
 *   set [a|an] {duration} (timer|countdown) [(named|called) {name}]
 *
 * - words match themselves, after the same normalisation as what is heard ("what's" → whats);
 * - `(a|b c)` is one of the alternatives, `[x]` is optional (the same as `(x|)`);
 * - `{type}` is a slot read by the slot reader of that type; `{type:key}` stores it under `key`
 *   (two durations in one sentence need two keys);
 * - `<rule>` is a named expansion rule, itself a template ("<cancel>" → "(cancel|stop|scrap|...)").
 *
 * Parsing and compiling are pure. A bad template is refused with a message that names what is
 * wrong and where, because technicians write them in the config.
 */
export type Node =
  | { t: 'word'; w: string }
  | { t: 'seq'; items: Node[] }
  | { t: 'alt'; options: Node[] }
  | { t: 'slot'; type: string; key: string }
  | { t: 'rule'; name: string };

export class TemplateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TemplateError';
  }
}

type Tok = { k: 'sym'; s: string; at: number } | { k: 'word'; s: string; at: number };

function tokens(src: string): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if ('()[]|'.includes(c)) {
      out.push({ k: 'sym', s: c, at: i });
      i++;
      continue;
    }
    if (c === '{' || c === '<') {
      const close = c === '{' ? '}' : '>';
      const end = src.indexOf(close, i);
      if (end < 0) throw new TemplateError(`"${c}" at column ${i + 1} is never closed with "${close}"`);
      out.push({ k: 'sym', s: c + src.slice(i + 1, end).trim(), at: i });
      i = end + 1;
      continue;
    }
    if ('}>'.includes(c)) throw new TemplateError(`"${c}" at column ${i + 1} closes nothing`);
    let j = i;
    while (j < src.length && !/\s/.test(src[j]!) && !'()[]|{}<>'.includes(src[j]!)) j++;
    out.push({ k: 'word', s: src.slice(i, j), at: i });
    i = j;
  }
  return out;
}

const NAME = /^[a-z][a-z0-9_-]*$/;

/** Parse one template into its tree. */
export function parseTemplate(src: string): Node {
  const toks = tokens(src);
  let p = 0;
  const seq = (closers: string): Node => {
    const items: Node[] = [];
    while (p < toks.length) {
      const tok = toks[p]!;
      if (tok.k === 'sym' && closers.includes(tok.s)) break;
      p++;
      if (tok.k === 'word') {
        // The same normalisation as speech: "what's" is whats, "twenty-five" is two words.
        for (const w of said(tok.s).words) items.push({ t: 'word', w });
        continue;
      }
      const s = tok.s;
      if (s === '(' || s === '[') {
        const close = s === '(' ? ')' : ']';
        const options: Node[] = [seq(`|${close}`)];
        while (toks[p]?.s === '|') {
          p++;
          options.push(seq(`|${close}`));
        }
        if (toks[p]?.s !== close) throw new TemplateError(`"${s}" at column ${tok.at + 1} is never closed with "${close}"`);
        p++;
        if (s === '[') options.push({ t: 'seq', items: [] });
        items.push(options.length === 1 ? options[0]! : { t: 'alt', options });
      } else if (s.startsWith('{')) {
        const [type, key] = s
          .slice(1)
          .split(':')
          .map((x) => x.trim());
        if (!type || !NAME.test(type) || (key !== undefined && !NAME.test(key)))
          throw new TemplateError(`"{${s.slice(1)}}" at column ${tok.at + 1} is not a slot: write {type} or {type:key}`);
        items.push({ t: 'slot', type, key: key ?? type });
      } else if (s.startsWith('<')) {
        const name = s.slice(1);
        if (!NAME.test(name)) throw new TemplateError(`"<${name}>" at column ${tok.at + 1} is not a rule name`);
        items.push({ t: 'rule', name });
      } else {
        throw new TemplateError(`"${s}" at column ${tok.at + 1} is out of place`);
      }
    }
    return items.length === 1 ? items[0]! : { t: 'seq', items };
  };
  // "a b | c d" at the top is two alternatives, as inside brackets.
  const options: Node[] = [seq('|)]')];
  while (toks[p]?.s === '|') {
    p++;
    options.push(seq('|)]'));
  }
  if (p < toks.length) throw new TemplateError(`"${toks[p]!.s}" at column ${toks[p]!.at + 1} closes nothing`);
  const node: Node = options.length === 1 ? options[0]! : { t: 'alt', options };
  // A template that can match no words at all would take silence, or anything around a lead-in.
  if (canBeEmpty(node)) throw new TemplateError('the template matches nothing said: give it a word that must be there');
  return node;
}

function canBeEmpty(n: Node): boolean {
  switch (n.t) {
    case 'word':
    case 'slot':
    case 'rule':
      return false;
    case 'seq':
      return n.items.every(canBeEmpty);
    case 'alt':
      return n.options.some(canBeEmpty);
  }
}

/**
 * Replace every `<rule>` by its tree, checking that each rule exists, no rule includes itself,
 * and every slot type is one `slotTypes` knows.
 */
export function expand(node: Node, rules: ReadonlyMap<string, Node>, slotTypes: ReadonlySet<string>, seen: readonly string[] = []): Node {
  switch (node.t) {
    case 'word':
      return node;
    case 'slot':
      if (!slotTypes.has(node.type)) throw new TemplateError(`unknown slot {${node.type}} (slots: ${[...slotTypes].sort().join(', ')})`);
      return node;
    case 'rule': {
      const r = rules.get(node.name);
      if (!r) throw new TemplateError(`unknown rule <${node.name}> (rules: ${[...rules.keys()].sort().join(', ')})`);
      if (seen.includes(node.name)) throw new TemplateError(`rule <${node.name}> includes itself (${[...seen, node.name].join(' → ')})`);
      return expand(r, rules, slotTypes, [...seen, node.name]);
    }
    case 'seq':
      return { t: 'seq', items: node.items.map((n) => expand(n, rules, slotTypes, seen)) };
    case 'alt':
      return { t: 'alt', options: node.options.map((n) => expand(n, rules, slotTypes, seen)) };
  }
}

/** The words a template can begin with (for the opening check: what a clipped segment must start with). */
export function firstWords(node: Node, rules: ReadonlyMap<string, Node> = new Map()): { words: Set<string>; slot: boolean; empty: boolean } {
  switch (node.t) {
    case 'word':
      return { words: new Set([node.w]), slot: false, empty: false };
    case 'slot':
      return { words: new Set(), slot: true, empty: false };
    case 'rule':
      return firstWords(rules.get(node.name) ?? { t: 'seq', items: [] }, rules);
    case 'alt': {
      const out = { words: new Set<string>(), slot: false, empty: false };
      for (const o of node.options) {
        const f = firstWords(o, rules);
        for (const w of f.words) out.words.add(w);
        out.slot ||= f.slot;
        out.empty ||= f.empty;
      }
      return out;
    }
    case 'seq': {
      const out = { words: new Set<string>(), slot: false, empty: true };
      for (const item of node.items) {
        const f = firstWords(item, rules);
        for (const w of f.words) out.words.add(w);
        out.slot ||= f.slot;
        if (!f.empty) {
          out.empty = false;
          break;
        }
      }
      return out;
    }
  }
}
