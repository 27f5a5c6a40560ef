import { readNumber } from '../language/numbers.js';
import type { Said } from '../language/text.js';
import { detectIntent } from './rules.js';
import type { ImperativeName } from './types.js';

/**
 * Seed 000's imperatives said as a whole command: "can you repeat that", "say that again",
 * "repeat number 3", "please stop", "stop. actually continue", "repeat number 3. no, number 5".
 *
 * detectIntent classifies by the first words ("next ..." is continue, "stop ..." is stop), which is
 * right for a command but not for a kitchen: "next table wants the fish" and "stop the fryer" are
 * not hark's imperatives. So an utterance counts only when every clause of it is an imperative and
 * nothing but command words: each clause is classified by detectIntent, then the words it is made
 * of must all be words a bare command uses (the verbs, "that", "it", "again", "please", a number).
 *
 * Clauses are split where a person corrects themself ("stop. actually continue": "actually",
 * "no", "sorry", "I mean", "wait", "or"), or at sentence punctuation. A clause that is only a
 * number after a repeat is a corrected reference ("repeat number 3. no, number 5").
 *
 * The result is in the order said; the action router's last-wins decides which one stands. Pure.
 */
export interface Imperative {
  name: ImperativeName;
  /** "number 3", "last", "previous" (repeat). */
  reference?: string;
}

const CORRECTIONS = new Set(['actually', 'no', 'sorry', 'wait', 'or', 'rather', 'instead', 'nope']);
/** Words a bare imperative is made of (with numbers), besides the fillers. */
const COMMAND_WORDS = new Set(
  (
    'stop cancel nevermind never mind quit exit enough quiet be talking shut up ' +
    'repeat say that it again what did you last previous one number the ' +
    'continue go on next proceed keep going carry where were left off from there ' +
    'start over beginning reset top ' +
    'please can could would will hark computer now just i mean ok okay hey'
  ).split(' '),
);
/** Only these imperatives are wired in the default frames; generate has no meaning on a kitchen appliance. */
const WIRED: ReadonlySet<ImperativeName> = new Set(['stop', 'repeat', 'continue', 'start-over']);

function clauses(s: Said): string[][] {
  // Sentence punctuation in the original splits clauses; so do correction words.
  const out: string[][] = [];
  const parts = s.original.split(/[.!?;]+/);
  for (const part of parts) {
    const words = part.toLowerCase().replace(/[’']/g, '').split(/[^\p{L}\p{N}]+/u).filter(Boolean);
    let cur: string[] = [];
    for (let i = 0; i < words.length; i++) {
      const w = words[i]!;
      const mean = w === 'i' && words[i + 1] === 'mean';
      if (CORRECTIONS.has(w) || mean) {
        if (cur.length) out.push(cur);
        cur = [];
        if (mean) i++;
        continue;
      }
      cur.push(w);
    }
    if (cur.length) out.push(cur);
  }
  return out;
}

function onlyCommandWords(words: readonly string[], fillers: ReadonlySet<string>): boolean {
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (COMMAND_WORDS.has(w) || fillers.has(w)) continue;
    const n = readNumber(words, i);
    if (n) {
      i = n.next - 1;
      continue;
    }
    return false;
  }
  return true;
}

/** A clause that is only a number ("number 5", "5"), for correcting a repeat's reference. */
function numberOnly(words: readonly string[]): number | null {
  const at = words[0] === 'number' ? 1 : 0;
  const n = readNumber(words, at);
  return n && n.next === words.length ? n.value : null;
}

/** The imperatives the whole utterance is, in order; null when it is anything else. */
export function wholeImperatives(s: Said, fillers: ReadonlySet<string>): Imperative[] | null {
  if (!s.norm) return null;
  const out: Imperative[] = [];
  for (const words of clauses(s)) {
    const real = words.filter((w) => !fillers.has(w));
    if (!real.length) continue;
    const n = numberOnly(real);
    if (n !== null && out.at(-1)?.name === 'repeat') {
      out.push({ name: 'repeat', reference: `number ${n}` });
      continue;
    }
    if (!onlyCommandWords(real, fillers)) return null;
    const intent = detectIntent(real.join(' '));
    if (intent.kind !== 'imperative' || !WIRED.has(intent.name as ImperativeName)) return null;
    out.push({ name: intent.name as ImperativeName, ...(intent.slots.reference ? { reference: intent.slots.reference } : {}) });
  }
  return out.length ? out : null;
}
