/**
 * A spoken reply as a template, in the spirit of ICU MessageFormat (a subset, written here):
 *
 *   Cancelled {count, plural, one {# timer} other {# timers}}.
 *   {name, select, none {Timer} other {{name} timer}} set for {duration}.
 *
 * - `{arg}` is the argument's text; `{arg:acc}` its words in a grammatical case (a number before
 *   its noun: "einen Kasten Milch"), where hark gives the words in cases (inCase), else its text;
 * - `{arg, plural, one {…} other {…}}` picks by the number (`=0 {…}` an exact one; `#` is the
 *   number itself); the forms a language has are the ones it writes, `other` always;
 * - `{arg, select, f {…} m {…} other {…}}` picks by a word (gender, or `none` when the argument is
 *   absent or empty), `other` always;
 * - `'{'` writes a brace.
 *
 * Parsed once when a pack is read, so a broken reply stops hark at start with its file and key;
 * formatting is pure and cannot fail on a parsed template (a missing argument is an empty text).
 */
export type Part =
  { t: 'text'; s: string } | { t: 'arg'; name: string; case?: string } | { t: 'count' } | { t: 'plural' | 'select'; name: string; forms: Map<string, Part[]> };

export class MessageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MessageError';
  }
}

const NAME = /^[a-z][a-z0-9_]*$/;
/** The plural categories a language may write (CLDR's), and exact numbers (`=0`). */
const PLURAL_FORMS = /^(zero|one|two|few|many|other|=\d+)$/;

export interface Message {
  source: string;
  parts: Part[];
  /** Every argument it reads, so a pack's check can hold it to the arguments hark gives. */
  args: Set<string>;
  /** Every case a slot asks for ("acc" of `{items:acc}`), so a pack's check can hold it to its numbers' cases. */
  cases: Map<string, string>;
}

export function parseMessage(source: string): Message {
  let p = 0;
  const args = new Set<string>();
  const cases = new Map<string, string>();
  const fail = (what: string): never => {
    throw new MessageError(`${what} at column ${p + 1}`);
  };
  const body = (inPlural: boolean, closer: boolean): Part[] => {
    const parts: Part[] = [];
    let text = '';
    const flush = () => {
      if (text) parts.push({ t: 'text', s: text });
      text = '';
    };
    while (p < source.length) {
      const c = source[p]!;
      if (c === "'" && source[p + 1] === '{') {
        text += '{';
        p += 2;
      } else if (c === "'" && source[p + 1] === '}') {
        text += '}';
        p += 2;
      } else if (c === '}') {
        if (!closer) fail('"}" closes nothing');
        break;
      } else if (c === '#' && inPlural) {
        flush();
        parts.push({ t: 'count' });
        p++;
      } else if (c === '{') {
        flush();
        p++;
        parts.push(placeholder());
      } else {
        text += c;
        p++;
      }
    }
    flush();
    return parts;
  };
  const word = (): string => {
    while (source[p] === ' ') p++;
    const m = /^[^\s,{}]+/.exec(source.slice(p));
    if (!m) fail('a name is missing');
    p += m![0].length;
    while (source[p] === ' ') p++;
    return m![0];
  };
  const placeholder = (): Part => {
    const at = p;
    const [name, inCaseOf, ...more] = word().split(':') as [string, string | undefined, ...string[]];
    if (inCaseOf !== undefined && (!NAME.test(inCaseOf) || more.length || source[p] !== '}')) {
      p = at;
      fail(`"{${name}:${[inCaseOf, ...more].join(':')}" is not a slot in a case, such as {items:acc}`);
    }
    if (!NAME.test(name)) {
      p = at;
      fail(`"{${name}" is not an argument name`);
    }
    args.add(name);
    if (source[p] === '}') {
      p++;
      if (inCaseOf === undefined) return { t: 'arg', name };
      cases.set(inCaseOf, `{${name}:${inCaseOf}}`);
      return { t: 'arg', name, case: inCaseOf };
    }
    if (source[p] !== ',') fail(`"{${name}" is never closed with "}"`);
    p++;
    const kind = word();
    if (kind !== 'plural' && kind !== 'select') fail(`"${kind}" is not plural or select`);
    if (source[p] !== ',') fail(`{${name}, ${kind}} needs its forms after a comma`);
    p++;
    const forms = new Map<string, Part[]>();
    for (;;) {
      while (source[p] === ' ') p++;
      if (source[p] === '}') {
        p++;
        break;
      }
      if (p >= source.length) fail(`{${name}, ${kind}, …} is never closed with "}"`);
      const key = word();
      if (kind === 'plural' && !PLURAL_FORMS.test(key)) fail(`"${key}" is not a plural form (zero, one, two, few, many, other, =N)`);
      if (kind === 'select' && !NAME.test(key)) fail(`"${key}" is not a select key`);
      if (forms.has(key)) fail(`the form "${key}" is given twice`);
      if (source[p] !== '{') fail(`the form "${key}" needs its text in braces`);
      p++;
      forms.set(key, body(kind === 'plural', true));
      if (source[p] !== '}') fail(`the form "${key}" is never closed with "}"`);
      p++;
    }
    if (!forms.has('other')) fail(`{${name}, ${kind}, …} needs an "other" form`);
    return { t: kind as 'plural' | 'select', name, forms };
  };
  const parts = body(false, false);
  if (p < source.length) fail('"}" closes nothing');
  return { source, parts, args, cases };
}

/**
 * A pack's message read and held to the slots hark gives it (`allowed`): the message, or what is
 * wrong with it, in words a technician reads beside the file and path ("unknown slot {minutes}: hark
 * gives this reply {name}, {duration}"). `what` names the message in that sentence.
 */
export function readMessage(source: string, allowed: readonly string[], what: string): Message | string {
  let m: Message;
  try {
    m = parseMessage(source);
  } catch (err) {
    if (!(err instanceof MessageError)) throw err;
    return `${err.message} in "${source}"`;
  }
  const stray = [...m.args].find((a) => !allowed.includes(a));
  if (stray !== undefined) return `unknown slot {${stray}}: hark gives ${what} ${allowed.length ? allowed.map((a) => `{${a}}`).join(', ') : 'none'}`;
  return m;
}

/** Words hark gives in every case a reply may ask for (`{items:acc}`); as plain text, the case a reply names none of. */
export interface InCase {
  inCase(grammaticalCase: string | undefined): string;
  toString(): string;
}

export function inCase(say: (grammaticalCase: string | undefined) => string): InCase {
  return { inCase: say, toString: () => say(undefined) };
}

export type MessageArgs = Readonly<Record<string, string | number | InCase | undefined>>;

/** Which plural form a number takes: the language's rule (see plural.ts), given to format. */
export type PluralRule = (n: number) => string;

export function formatMessage(m: Message, args: MessageArgs, plural: PluralRule, nouns: readonly string[] = []): string {
  const run = (parts: Part[], count: number | undefined): string => {
    let out = '';
    for (const part of parts) {
      switch (part.t) {
        case 'text':
          out += part.s;
          break;
        case 'count':
          out += count === undefined ? '' : String(count);
          break;
        case 'arg': {
          const v = args[part.name];
          const text = v === undefined ? '' : typeof v === 'object' ? v.inCase(part.case) : String(v);
          out += nouns.includes(part.name) ? text.charAt(0).toUpperCase() + text.slice(1) : text;
          break;
        }
        case 'plural': {
          const n = Number(args[part.name] ?? 0);
          const form = part.forms.get(`=${n}`) ?? part.forms.get(plural(n)) ?? part.forms.get('other')!;
          out += run(form, n);
          break;
        }
        case 'select': {
          const v = args[part.name];
          const key = v === undefined || v === '' ? 'none' : String(v);
          out += run(part.forms.get(key) ?? part.forms.get('other')!, count);
          break;
        }
      }
    }
    return out;
  };
  return run(m.parts, undefined);
}
