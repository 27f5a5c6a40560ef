import { said as toSaid, type Said } from './text.js';
import { english } from './pack/english.js';
import type { Language } from './pack/language.js';
import { INTENT_TEMPLATE_SLOTS, type IntentTemplateSlot } from './pack/intents.js';
import { matchTemplate, type SlotReader } from './match.js';
import { parseTemplate, type Node } from './template.js';
import type { ImperativeName, Intent, IntentSlots, QuestionName } from './intent-types.js';

/**
 * The rule-based intent detector, on normalised words (lower case, no punctuation, so "what's" is
 * whats). Its words are each language's pack (packs/<lang>/intents.yaml); this code knows no
 * language. Pure and stateless; the router uses it as a pattern source for `intent:` rules and the
 * daemon emits its result as a UI hint.
 */

/** The device's languages, as the router holds them (KitchenLanguage), or plain pack languages. */
export type IntentLanguages = Language | readonly Language[] | { each(): readonly { lang: Language }[] };

interface Place {
  whole: Node[];
  start: Node[];
  any: Node[];
}

interface Compiled {
  polite: Node[];
  politeEnd: Set<string>;
  imperatives: [ImperativeName, Place][];
  question: Place;
  questions: [QuestionName, Place][];
  readers: Map<string, SlotReader<null>>;
}

const compiled = new WeakMap<Language, Compiled>();

function compile(lang: Language): Compiled {
  let c = compiled.get(lang);
  if (c) return c;
  const d = lang.pack.intents;
  // intents.ts checked every template when the pack was read.
  const nodes = (list: readonly string[]) => list.map((t) => parseTemplate(t));
  const place = (p: { whole: readonly string[]; start: readonly string[]; any: readonly string[] }): Place => ({
    whole: nodes(p.whole),
    start: nodes(p.start),
    any: nodes(p.any),
  });
  const articles = new Set(lang.pack.intents.articles.flatMap((a) => toSaid(a).words));
  const rest =
    (drop: boolean): SlotReader<null> =>
    (words, at) => {
      const out = [];
      for (let end = at + 1; end <= words.length; end++) {
        const span = words.slice(at, end);
        if (drop && span.length > 1 && articles.has(span[0]!)) span.shift();
        out.push({ end, value: span.join(' '), weight: 0 });
      }
      return out;
    };
  const num: SlotReader<null> = (words, at) => {
    const n = lang.readNumber(words, at);
    return n ? [{ end: n.next, value: n.value, weight: n.next - at }] : [];
  };
  const last = lang.list('words', 'last');
  const readers = new Map<IntentTemplateSlot, SlotReader<null>>([
    ['number', num],
    ['count', num],
    [
      'last',
      (words, at) => {
        const n = last.at(words, at);
        return n ? [{ end: at + n, value: words.slice(at, at + n).join(' '), weight: n }] : [];
      },
    ],
    ['topic', rest(false)],
    ['thing', rest(true)],
    ['gap', rest(false)],
  ]);
  c = {
    polite: nodes(d.polite.start),
    politeEnd: new Set(d.polite.end.map((w) => toSaid(w).norm)),
    imperatives: Object.entries(d.imperatives).map(([name, p]) => [name as ImperativeName, place(p!)]),
    question: place(d.question),
    questions: Object.entries(d.questions).map(([name, p]) => [name as QuestionName, place(p!)]),
    readers: readers as Map<string, SlotReader<null>>,
  };
  compiled.set(lang, c);
  return c;
}

interface Found {
  end: number;
  slots: Record<string, unknown[]>;
}

type Where = 'whole' | 'start' | 'any';

/** The best way one template matches the words: all of them, from the first word, or from the leftmost word it can. */
function find(node: Node, words: readonly string[], where: Where, c: Compiled): Found | null {
  for (let i = 0; i < (where === 'any' ? words.length : 1); i++) {
    const ms = matchTemplate(node, words, i, null, c.readers).filter((m) => where !== 'whole' || m.end === words.length);
    if (!ms.length) continue;
    // The longest reading, then the one that reads the most (a count rather than words passed over).
    ms.sort((a, b) => b.end - a.end || b.score - a.score);
    return ms[0]!;
  }
  return null;
}

/** Does the place match, and what do its templates read? Every template that matches adds the slots it fills first. */
function matchPlace(p: Place, words: readonly string[], c: Compiled): IntentSlots | null {
  let slots: IntentSlots | null = null;
  const tries = (['whole', 'start', 'any'] as const).flatMap((where) => p[where].map((n): [Node, Where] => [n, where]));
  for (const [node, where] of tries) {
    const f = find(node, words, where, c);
    if (!f) continue;
    slots ??= {};
    for (const [type, values] of Object.entries(f.slots)) {
      const key = INTENT_TEMPLATE_SLOTS[type as IntentTemplateSlot];
      const v = values[0];
      if (!key || v === undefined || slots[key] !== undefined) continue;
      if (key === 'count') slots.count = v as number;
      else if (key === 'reference') slots.reference = type === 'number' ? `number ${v as number}` : (v as string);
      else slots.topic = v as string;
    }
  }
  return slots;
}

function imperative(words: readonly string[], c: Compiled): { name: ImperativeName; slots: IntentSlots } | null {
  for (const [name, p] of c.imperatives) {
    const slots = matchPlace(p, words, c);
    if (slots) return { name, slots };
  }
  return null;
}

/** Classify one utterance in one language. */
function detectIn(s: Said, lang: Language): Intent {
  const words = s.words;
  if (!words.length) return { kind: 'other', name: 'other', slots: {} };
  const c = compile(lang);

  // 1. Imperatives first (command verbs win), then 2. the same after a polite opening (and ending).
  const direct = imperative(words, c);
  if (direct) return { kind: 'imperative', ...direct };
  for (const node of c.polite) {
    const m = matchTemplate(node, words, 0, null, c.readers).filter((x) => x.end < words.length);
    if (!m.length) continue;
    let stripped = words.slice(Math.max(...m.map((x) => x.end)));
    const end = stripped.length > 1 && [...c.politeEnd].find((e) => stripped.slice(-e.split(' ').length).join(' ') === e);
    if (end) stripped = stripped.slice(0, -end.split(' ').length);
    const again = imperative(stripped, c);
    if (again) return { kind: 'imperative', ...again };
  }

  // 3. Questions: the pack's question words, or a question mark; then their kind.
  const isQuestion = s.original.trim().endsWith('?') || matchPlace(c.question, words, c) !== null;
  if (!isQuestion) return { kind: 'statement', name: 'statement', slots: {} };
  for (const [name, p] of c.questions) {
    const slots = matchPlace(p, words, c);
    if (slots) return { kind: 'question', name, slots };
  }
  return { kind: 'question', name: 'question', slots: {} };
}

const RANK: Record<Intent['kind'], number> = { imperative: 3, question: 1, statement: 0, other: -1 };
const rank = (i: Intent) => RANK[i.kind] + (i.kind === 'question' && i.name !== 'question' ? 1 : 0);

function languagesOf(langs: IntentLanguages): readonly Language[] {
  if (Array.isArray(langs)) return langs as readonly Language[];
  if ('each' in langs) return langs.each().map((k) => k.lang);
  return [langs as Language];
}

/**
 * Classify one utterance. `text` may be raw ("What's a roux?") or an already normalised Said. It
 * is read in each of the device's languages, the one the words were heard in first: the reading
 * that says the most wins (an imperative, then a question of a kind, then a question), a tie going
 * to the language read first ("para" is a Spanish stop; "was" asks in English and in German alike).
 */
export function detectIntent(text: string | Said, langs: IntentLanguages = english()): Intent {
  return detectWithLanguage(text, langs).intent;
}

/**
 * The language whose words make the utterance a question of a kind or an imperative, and more so
 * than in the first language read ("¿qué es un roux?" is Spanish on an [en, es] device); undefined
 * when no language says more than the first (a plain statement, or a question every language asks).
 */
export function intentLanguage(text: string | Said, langs: IntentLanguages): string | undefined {
  const s = typeof text === 'string' ? toSaid(text) : text;
  const r = detectWithLanguage(s, langs);
  if (r.lang !== undefined && r.lang !== r.firstRead) return r.lang;
  // A question every language reads only by its question mark is the one whose own question
  // words it has ("¿dónde está el azafrán?": "dónde").
  if (r.intent.kind !== 'question' || r.intent.name !== 'question') return undefined;
  const own = languagesOf(langs).find((l) => matchPlace(compile(l).question, s.words, compile(l)) !== null);
  return own && own.code !== r.firstRead ? own.code : undefined;
}

function detectWithLanguage(text: string | Said, langs: IntentLanguages): { intent: Intent; lang?: string; firstRead?: string } {
  const s = typeof text === 'string' ? toSaid(text) : text;
  const all = languagesOf(langs);
  const heard = s.language ? all.find((l) => l.code === s.language) : undefined;
  const order = heard ? [heard, ...all.filter((l) => l !== heard)] : all;
  let best: Intent | null = null;
  let lang: string | undefined;
  for (const l of order) {
    const r = detectIn(s, l);
    if (!best || rank(r) > rank(best)) {
      best = r;
      lang = l.code;
    }
    if (rank(best) >= RANK.imperative) break;
  }
  return best ? { intent: best, lang, firstRead: order[0]?.code } : { intent: { kind: 'other', name: 'other', slots: {} } };
}
