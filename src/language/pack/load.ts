import { LineCounter, parseDocument } from 'yaml';
import type { z } from 'zod';
import type { SentenceSpec } from '../grammar.js';
import { checkParts, type PackProblem } from './check.js';
import { formatMessage, type Message, type MessageArgs } from './message.js';
import { PACK_FILES, type PackData, type PackFile } from './schema.js';

/**
 * Reading a language pack from the text of its files: YAML parsed, each file held to its shape
 * (schema.ts), the parts checked together (check.ts). Pure: the files' text comes in (files.ts
 * reads them from disk at the edge), a Pack or a PackError comes out. A pack with a problem is
 * never half-used: every problem is listed, each with its file and the path inside it, and hark
 * stops at start as it does for a bad config.
 */
export class PackError extends Error {
  constructor(
    readonly where: string,
    readonly problems: readonly PackProblem[],
  ) {
    super(problems.map((p) => `${where}/${p.file}: ${p.path.length ? `${p.path.join('.')}: ` : ''}${p.message}`).join('\n'));
    this.name = 'PackError';
  }
}

export interface Pack extends PackData {
  /** Where it was read from, for messages ("packs/es"). */
  where: string;
  /** The expansion rules as one template each, and the sentences by intent: what the grammar compiles. */
  grammar: { rules: Readonly<Record<string, string>>; sentences: readonly SentenceSpec[] };
  /** Every reply, parsed. */
  messages: ReadonlyMap<string, Message>;
}

/** The files a pack always writes itself, fallback or not. */
const OWN: readonly PackFile[] = ['pack.yaml', 'sentences.yaml', 'rules.yaml'];

/**
 * `fallback`: how to get the pack a pack.yaml names as its fallback (files.ts reads it from disk);
 * without it, a pack that names one is refused.
 */
export function readPack(files: ReadonlyMap<string, string>, where: string, expect?: string, fallback?: (language: string) => Pack): Pack {
  const problems: PackProblem[] = [];
  const parts: Partial<Record<PackFile, unknown>> = {};
  const missing: PackFile[] = [];
  for (const name of Object.keys(PACK_FILES) as PackFile[]) {
    const text = files.get(name);
    if (text === undefined) {
      missing.push(name);
      continue;
    }
    const lines = new LineCounter();
    const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: true, lineCounter: lines });
    // The first error is the one to fix: the rest of a broken file often follows from it.
    const e = doc.errors[0];
    if (e) {
      problems.push({ file: name, path: [], message: `line ${lines.linePos(e.pos[0]).line}: ${e.message.split('\n')[0]}` });
      continue;
    }
    const schema: z.ZodType = PACK_FILES[name];
    const r = schema.safeParse(doc.toJS() ?? {});
    if (!r.success) {
      for (const i of r.error.issues) problems.push({ file: name, path: i.path as (string | number)[], message: i.message });
      continue;
    }
    parts[name] = r.data;
  }
  for (const name of files.keys())
    if (!(name in PACK_FILES))
      problems.push({ file: name as PackFile, path: [], message: `is not a part of a pack (files: ${Object.keys(PACK_FILES).join(', ')})` });
  const base = fallbackOf(parts['pack.yaml'] as PackData['meta'] | undefined, fallback, problems);
  for (const name of missing) {
    if (base && !OWN.includes(name)) parts[name] = base[SECTION[name]];
    else
      problems.push({
        file: name,
        path: [],
        message: `is missing: every pack has this file${OWN.includes(name) ? '' : ' (or names a fallback in pack.yaml)'}`,
      });
  }
  if (problems.length) throw new PackError(where, problems);

  const data: PackData = {
    meta: parts['pack.yaml'] as PackData['meta'],
    sentences: parts['sentences.yaml'] as PackData['sentences'],
    rules: parts['rules.yaml'] as PackData['rules'],
    numbers: parts['numbers.yaml'] as PackData['numbers'],
    durations: parts['durations.yaml'] as PackData['durations'],
    lists: parts['lists.yaml'] as PackData['lists'],
    timers: parts['timers.yaml'] as PackData['timers'],
    words: parts['words.yaml'] as PackData['words'],
    frames: parts['frames.yaml'] as PackData['frames'],
    replies: { ...base?.replies, ...(parts['replies.yaml'] as PackData['replies']) },
    picking: parts['picking.yaml'] as PackData['picking'],
    intents: parts['intents.yaml'] as PackData['intents'],
    proposals: parts['proposals.yaml'] as PackData['proposals'],
  };
  if (expect !== undefined && data.meta.language !== expect)
    problems.push({ file: 'pack.yaml', path: ['language'], message: `is "${data.meta.language}", but the pack is read as "${expect}"` });
  const checked = checkParts(data, problems, base !== undefined);
  if (problems.length) throw new PackError(where, problems);
  return { ...data, where, grammar: { rules: checked.rules, sentences: checked.sentences }, messages: checked.replies };
}

const SECTION: Record<PackFile, keyof PackData> = {
  'pack.yaml': 'meta',
  'sentences.yaml': 'sentences',
  'rules.yaml': 'rules',
  'numbers.yaml': 'numbers',
  'durations.yaml': 'durations',
  'lists.yaml': 'lists',
  'timers.yaml': 'timers',
  'words.yaml': 'words',
  'frames.yaml': 'frames',
  'replies.yaml': 'replies',
  'picking.yaml': 'picking',
  'intents.yaml': 'intents',
  'proposals.yaml': 'proposals',
};

function fallbackOf(meta: PackData['meta'] | undefined, get: ((language: string) => Pack) | undefined, problems: PackProblem[]): Pack | undefined {
  if (!meta?.fallback) return undefined;
  if (!get) {
    problems.push({ file: 'pack.yaml', path: ['fallback'], message: `names "${meta.fallback}", but no fallback pack can be read here` });
    return undefined;
  }
  try {
    return get(meta.fallback);
  } catch (err) {
    problems.push({ file: 'pack.yaml', path: ['fallback'], message: `"${meta.fallback}" cannot be read: ${(err as Error).message.split('\n')[0]}` });
    return undefined;
  }
}

/** A reply's words in the pack's language, as they go inside another reply ("rice timer"). */
export function phrase(pack: Pack, key: string, args: MessageArgs = {}): string {
  const m = pack.messages.get(key);
  // check.ts holds every pack to the catalog, so only a key outside it can be missing.
  if (!m) throw new Error(`${pack.where}: no reply "${key}"`);
  return formatIn(pack, m, args);
}

/** Any of the pack's messages (a reply, a proposals.yaml line) in its language: its plural forms and nouns. */
export function formatIn(pack: Pack, m: Message, args: MessageArgs = {}): string {
  return formatMessage(m, args, pluralRule(pack.meta.language), pack.meta.noun_slots);
}

/** Text as hark says it: the first letter made capital, as a sentence starts. */
export function sentence(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A reply as hark says it (sentence()). */
export function reply(pack: Pack, key: string, args: MessageArgs = {}): string {
  return sentence(phrase(pack, key, args));
}

const rules = new Map<string, (n: number) => string>();

/** The language's plural forms, from the ICU data Node carries (CLDR): "one" and "other" for en, es, de. */
export function pluralRule(language: string): (n: number) => string {
  let r = rules.get(language);
  if (!r) {
    const pr = new Intl.PluralRules(language);
    r = (n: number) => pr.select(n);
    rules.set(language, r);
  }
  return r;
}
