import { said as toSaid, type Said } from './text.js';
import { readNumber } from './numbers.js';
import type { ImperativeName, Intent, IntentSlots, QuestionName } from './intent-types.js';

/**
 * The rule-based intent detector, on normalised text (lower case, no punctuation, so
 * "what's" is "whats"). Pure and stateless; the router uses it as a pattern source for `intent:`
 * rules and the daemon may emit its result as a UI hint.
 */
const STOP = /^(stop|cancel|nevermind|never mind|quit|exit)\b/;
const REPEAT = [/^(repeat|say (that|it) again|what did you say)\b/, /\b(repeat|say) (the )?(last|previous)\b/, /\brepeat (number )?(\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)\b/,
];
const CONTINUE = /^(continue|go on|next|proceed|keep going)\b/;
const START_OVER = /\b(start over|from the (beginning|start)|reset)\b/;
const GENERATE = /\b(generate|give me|create|make)\b.*\bquestions?\b/;
const POLITE = /^(please|can you|could you|would you|will you)\s+/;

const WH = /^(what|whats|why|how|when|where|who|which|whose)\b/;
const AUX = /^(is|are|was|were|do|does|did|can|could|would|should|have|has|will)\b/;
const KNOW = /\b(do you know|can you tell me|whats|what is)\b/;

const COMPARE = /\b(difference between|compare|vs|versus)\b/;
const TROUBLESHOOT = /\b(why (isnt|doesnt|wont|cant|is not|does not|will not)|not working|error)\b/;
const HOW_TO = /\b(how (do|can|should|would) (i|we|you)|how to)\b/;
const DEFINITION = /^(what is|whats|what are|what does .+ mean|define)\b/;

function imperative(norm: string): { name: ImperativeName; slots: IntentSlots } | null {
  if (STOP.test(norm)) return { name: 'stop', slots: {} };
  for (const re of REPEAT) {
    if (re.test(norm)) return { name: 'repeat', slots: repeatSlots(norm) };
  }
  if (CONTINUE.test(norm)) return { name: 'continue', slots: {} };
  if (START_OVER.test(norm)) return { name: 'start-over', slots: {} };
  if (GENERATE.test(norm)) return { name: 'generate', slots: generateSlots(norm) };
  return null;
}

function repeatSlots(norm: string): IntentSlots {
  const last = /\b(last|previous)\b/.exec(norm);
  if (last) return { reference: last[1] };
  const words = norm.split(' ');
  const at = words.indexOf('repeat');
  if (at >= 0) {
    const from = words[at + 1] === 'number' ? at + 2 : at + 1;
    const n = readNumber(words, from);
    if (n) return { reference: `number ${n.value}` };
  }
  return {};
}

function generateSlots(norm: string): IntentSlots {
  const slots: IntentSlots = {};
  const words = norm.split(' ');
  const q = words.findIndex((w) => w === 'questions' || w === 'question');
  // The count is the number closest before "questions" ("generate 20 questions", "give me twenty questions").
  for (let i = 0; i < q; i++) {
    const n = readNumber(words, i);
    if (n && n.next === q) {
      slots.count = n.value;
      break;
    }
  }
  const about = /\bquestions? (?:about|on|for) (.+)$/.exec(norm);
  if (about) slots.topic = stripArticle(about[1]!);
  return slots;
}

function stripArticle(s: string): string {
  return s.replace(/^(a|an|the)\s+/, '').trim();
}

function questionName(norm: string): { name: QuestionName | 'question'; slots: IntentSlots } {
  let m: RegExpExecArray | null;
  if ((m = /\bdifference between (.+)$/.exec(norm))) return { name: 'compare', slots: { topic: m[1] } };
  if (COMPARE.test(norm)) return { name: 'compare', slots: {} };
  if ((m = /\bwhy (?:isnt|doesnt|wont|cant|is not|does not|will not) (.+)$/.exec(norm))) return { name: 'troubleshoot', slots: { topic: stripArticle(m[1]!) } };
  if (TROUBLESHOOT.test(norm)) return { name: 'troubleshoot', slots: {} };
  if ((m = /\b(?:how (?:do|can|should|would) (?:i|we|you)|how to) (.+)$/.exec(norm))) return { name: 'how-to', slots: { topic: m[1] } };
  if (HOW_TO.test(norm)) return { name: 'how-to', slots: {} };
  if ((m = /^what does (.+) mean\b/.exec(norm))) return { name: 'definition', slots: { topic: stripArticle(m[1]!) } };
  if ((m = /^(?:what is|whats|what are|define) (.+)$/.exec(norm))) return { name: 'definition', slots: { topic: stripArticle(m[1]!) } };
  if (DEFINITION.test(norm)) return { name: 'definition', slots: {} };
  return { name: 'question', slots: {} };
}

/** Classify one utterance. `text` may be raw ("What's a roux?") or an already normalised Said. */
export function detectIntent(text: string | Said): Intent {
  const s = typeof text === 'string' ? toSaid(text) : text;
  const norm = s.norm;
  if (!norm) return { kind: 'other', name: 'other', slots: {} };

  // 1. Imperatives first (command verbs win), then 2. the same after a polite prefix.
  const direct = imperative(norm);
  if (direct) return { kind: 'imperative', ...direct };
  const polite = POLITE.exec(norm);
  if (polite) {
    const stripped = norm.slice(polite[0].length).replace(/\s+please$/, '');
    const again = imperative(stripped);
    if (again) return { kind: 'imperative', ...again };
  }

  // 3. Questions: a wh-word, an auxiliary verb first, a question mark, or "do you know ...".
  // "define X" and "X versus Y" ask without a question word; the seed's subtypes name them.
  const isQuestion = WH.test(norm) || AUX.test(norm) || s.original.endsWith('?') || KNOW.test(norm) || /^define\b/.test(norm) || COMPARE.test(norm);
  if (isQuestion) return { kind: 'question', ...questionName(norm) };
  return { kind: 'statement', name: 'statement', slots: {} };
}
