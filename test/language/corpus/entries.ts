import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The phrasing corpus: lines as a cook or a picker says them, each with what hark should
 * do. Hand-written lines live in requests.txt (said to hark) and talk.txt (said between people,
 * never to be taken as a command); generated.ts adds the generated ones. Written from how people
 * talk, not from hark's own templates, so it measures the language rather than restating it.
 *
 * A line of a .txt file:
 *   [before one; before two] utterance => expectation
 * The bracketed lines (optional) are said to hark just before. Expectations:
 *   -                    not addressed to hark: no action, no reply, hark not cut off
 *   unclear              a spoken reply, no action, nothing sent to a file (wake-word mode; plain talk in always-listen)
 *   ring stopped         the ringing timer is silenced by voice
 *   name k=v k=v         one fired action and its arguments (`+` between several, in order);
 *   name {json}          the arguments as JSON.
 * `@setup NAME` switches the situation for the lines after it (see SETUPS in run.ts).
 */
export type Setup = 'standard' | 'one' | 'ring' | 'empty';

export type Expect =
  { kind: 'talk' } | { kind: 'unclear' } | { kind: 'ring-stopped' } | { kind: 'actions'; actions: { name: string; args: Record<string, unknown> }[] };

export interface Entry {
  text: string;
  expect: Expect;
  setup: Setup;
  before: string[];
  /** Where it came from: file:line, or generated:template. */
  source: string;
}

const SETUP_NAMES: readonly Setup[] = ['standard', 'one', 'ring', 'empty'];

function value(raw: string): unknown {
  const v = raw.trim();
  if (/^-?\d+(\.\d+)?$/.test(v)) return Number(v);
  if (v === 'true' || v === 'false') return v === 'true';
  return v.replace(/^"(.*)"$/, '$1');
}

/** "timer.add seconds=300 label=brisket" → one action; "stop + continue" → two. */
export function parseExpect(text: string, where: string): Expect {
  const t = text.trim();
  if (t === '-') return { kind: 'talk' };
  if (t === 'unclear') return { kind: 'unclear' };
  if (t === 'ring stopped') return { kind: 'ring-stopped' };
  const actions = t.split(/\s\+\s/).map((part) => {
    const m = /^([a-z][a-z0-9.-]*)(?:\s+(.*))?$/.exec(part.trim());
    if (!m) throw new Error(`${where}: cannot read the expectation "${part}"`);
    const rest = (m[2] ?? '').trim();
    if (rest.startsWith('{')) return { name: m[1]!, args: JSON.parse(rest) as Record<string, unknown> };
    const args: Record<string, unknown> = {};
    // k=v pairs; a value runs up to the next " key=".
    const re = /([a-zA-Z]+)=(.*?)(?=\s+[a-zA-Z]+=|$)/g;
    let kv: RegExpExecArray | null;
    while ((kv = re.exec(rest))) args[kv[1]!] = value(kv[2]!);
    return { name: m[1]!, args };
  });
  return { kind: 'actions', actions };
}

export function parseCorpusText(text: string, file: string): Entry[] {
  const out: Entry[] = [];
  let setup: Setup = 'standard';
  text.split('\n').forEach((raw, i) => {
    const where = `${file}:${i + 1}`;
    const line = raw.trim();
    if (!line || line.startsWith('#')) return;
    if (line.startsWith('@setup')) {
      const name = line.slice('@setup'.length).trim() as Setup;
      if (!SETUP_NAMES.includes(name)) throw new Error(`${where}: unknown setup "${name}"`);
      setup = name;
      return;
    }
    let body = line;
    let before: string[] = [];
    const b = /^\[([^\]]*)\]\s*(.*)$/.exec(line);
    if (b) {
      before = b[1]!
        .split(';')
        .map((s) => s.trim())
        .filter(Boolean);
      body = b[2]!;
    }
    const at = body.lastIndexOf('=>');
    if (at < 0) throw new Error(`${where}: no "=>" in "${line}"`);
    out.push({ text: body.slice(0, at).trim(), expect: parseExpect(body.slice(at + 2), where), setup, before, source: where });
  });
  return out;
}

export type CorpusFile = 'requests.txt' | 'talk.txt' | 'fresh.txt' | 'fresh2.txt' | 'requests-es.txt' | 'talk-es.txt' | 'requests-de.txt' | 'talk-de.txt';

export function loadCorpusFile(name: CorpusFile): Entry[] {
  const path = fileURLToPath(new URL(name, import.meta.url));
  return parseCorpusText(readFileSync(path, 'utf8'), `corpus/${name}`);
}
