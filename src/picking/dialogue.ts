import type { Said } from '../language/text.js';
import { unitWord, type Assignment, type Pick } from './assignment.js';
import type { Progress } from './ledger.js';
import type { DialogueOptions, Step, StepName } from './dialogue-io.js';
import { read, type Reading } from './reading.js';
import type { PickWords } from './words.js';

export type { DialogueOptions, DialogueOutput, PickEvent, StepName } from './dialogue-io.js';

/** Commands heard at every pick step. */
const AT_PICK = new Set(['sayAgain', 'skipSlot', 'short', 'howMuchMore', 'description', 'undo', 'repeatLastPick', 'takeBreak', 'signOff', 'faster', 'slower']);
/** Heard while signed on between picks (no assignment, or on a question of sign-on). */
const BETWEEN = new Set(['sayAgain', 'howMuchMore', 'repeatLastPick', 'takeBreak', 'signOff', 'faster', 'slower', 'undo']);

/**
 * The picking dialogue (the industry's: the location, the picker reads the check digits printed at
 * the slot — which hark never says —, the quantity, the quantity picked; then the next location).
 * Pure but for the ledger it is handed, which keeps each change before the dialogue speaks again.
 * `takes` answers "would this be heard now?" without acting, for the router's walk and the
 * interruption filter; `hear` acts.
 */
export class PickDialogue {
  private step: Step = { k: 'signed-off' };
  private prompt = '';
  private operator: string | null = null;
  private progress: Progress | null = null;
  private last: { assignment: Assignment; pick: Pick; picked: number } | null = null;
  private wpm: number;
  private readonly operators: ReadonlyMap<string, { pin?: string | undefined }>;
  /** The utterance that gave a short quantity: the pick is confirmed by the "yes" after it, and made by it. */
  private shortUtterance = '';
  /** The language hark speaks now: the last one a picker was heard in. */
  private words: PickWords;
  private promptIn: string;

  constructor(private readonly o: DialogueOptions) {
    this.words = o.words;
    this.promptIn = o.words.language;
    this.wpm = o.rate.start;
    this.operators = new Map(o.operators.map((op) => [op.id, op]));
  }

  get stepName(): StepName {
    return this.step.k;
  }
  get rate(): number {
    return this.wpm;
  }
  get current(): Pick | null {
    return this.progress?.todo[0] ?? null;
  }
  get assignmentId(): string | null {
    return this.progress?.assignment.id ?? null;
  }
  /** Picks not yet confirmed in the assignment under way. */
  get left(): number {
    return this.progress?.todo.length ?? 0;
  }

  /** At start: an operator signed on before a restart goes on at the first unconfirmed pick. */
  start(): void {
    this.operator = this.o.ledger.operator();
    if (!this.operator) return;
    this.wpm = this.rateOf(this.operator);
    this.progress = this.o.ledger.current(this.operator!);
    if (this.progress) {
      this.step = { k: 'location' };
      this.o.out.event({ event: 'resumed', operator: this.operator });
      this.ask(this.words.say('resuming') + ' ' + this.locationText(this.progress.todo[0]!));
    } else this.step = { k: 'idle' };
  }

  /**
   * The outbox has passed its bound (the warehouse system is not taking results): the picker is
   * told, at their rate, and the step and its prompt stay as they were ("say again" repeats the step).
   */
  outboxOver(pending: number, max: number): void {
    this.o.out.event({ event: 'outbox-over', pending, max });
    if (this.operator) this.say(this.words.say('outboxOver', { picks: this.words.plural('picks', pending) }));
  }

  /** A new assignment was kept: announced at once if the picker is signed on and free. */
  assignmentArrived(): void {
    if (this.step.k !== 'idle') return;
    this.begin();
  }

  takes(said: Said): boolean {
    return this.heardIn(said) !== null;
  }

  hear(said: Said, utteranceId: string): void {
    const heard = this.heardIn(said);
    if (!heard) return;
    const r = heard.reading;
    this.words = heard.words;
    const s = this.step;
    // The prompt as it was said, in its own language's voice (its words were built in that language).
    if (r.command === 'sayAgain') return this.o.out.say(this.prompt, this.wpm, this.promptIn);
    switch (s.k) {
      case 'signed-off':
        return this.ask(this.words.say('askOperator'), { k: 'operator' });
      case 'operator':
        return this.signOnNumber(r);
      case 'pin':
        return this.signOnPin(s.operator, r.code!);
      case 'break':
        this.step = s.back;
        this.o.out.event({ event: 'resumed', operator: this.operator! });
        return this.ask(this.backPrompt());
      case 'confirm-short':
        if (r.command === 'yes' || r.command === 'no') return this.shortAnswer(r.command);
        return this.command(r.command!, utteranceId);
      default:
        if (r.command) return this.command(r.command, utteranceId);
        if (s.k === 'location') return this.checkDigits(r.code!, utteranceId);
        if (s.k === 'quantity' || s.k === 'picked') return this.quantity(r.number!, utteranceId);
    }
  }

  /** Would this step take these words? What it does not take is ignored (and logged) by the frame. */
  private accepts(r: Reading): boolean {
    const c = r.command;
    if (c === 'sayAgain' && this.prompt) return true;
    switch (this.step.k) {
      case 'signed-off':
        return c === 'signOn';
      case 'operator':
      case 'pin':
        return r.code !== null && /^\d+$/.test(r.code);
      case 'break':
        return c === 'ready' || c === 'signOn';
      case 'idle':
        return c !== null && BETWEEN.has(c);
      case 'location':
        return (c !== null && AT_PICK.has(c)) || (c === null && r.code !== null);
      case 'quantity':
      case 'picked':
        return (c !== null && AT_PICK.has(c)) || (c === null && r.number !== null);
      case 'confirm-short':
        return c === 'yes' || c === 'no' || (c !== null && AT_PICK.has(c) && c !== 'skipSlot' && c !== 'short');
    }
  }

  private signOnNumber(r: Reading): void {
    const id = r.code!;
    const known = this.operators;
    if (known.size && !known.has(id)) return this.ask(this.words.say('unknownOperator', { operator: spaced(id) }));
    if (known.get(id)?.pin) return this.ask(this.words.say('askPin'), { k: 'pin', operator: id });
    this.signedOn(id);
  }

  private signOnPin(operator: string, pin: string): void {
    if (this.operators.get(operator)?.pin !== pin) return this.ask(this.words.say('wrongPin'), { k: 'operator' });
    this.signedOn(operator);
  }

  private signedOn(operator: string): void {
    this.operator = operator;
    this.wpm = this.rateOf(operator);
    this.o.ledger.signOn(operator);
    this.o.ledger.note('sign-on', {});
    this.o.out.event({ event: 'signed-on', operator });
    this.step = { k: 'idle' };
    this.prompt = this.words.say('signedOn', { operator: spaced(operator) });
    this.promptIn = this.words.language;
    this.begin(this.prompt);
  }

  /** Start the current (or next waiting) assignment, or say there is none. */
  private begin(lead?: string): void {
    this.progress = this.o.ledger.current(this.operator!);
    const lines = lead ? [lead] : [];
    if (!this.progress) {
      lines.push(this.words.say('noAssignment'));
      return this.ask(lines.join(' '), { k: 'idle' });
    }
    const a = this.progress.assignment;
    this.o.out.event({ event: 'assignment-started', assignment: a.id, picks: this.progress.todo.length });
    // One begun before a sign-off (or a restart) goes on where it stopped.
    const opening = this.progress.done.length
      ? this.words.say('resuming')
      : this.words.say('newAssignment', { picks: this.words.plural('picks', this.progress.todo.length) });
    lines.push(opening, this.locationText(this.progress.todo[0]!));
    this.ask(lines.join(' '), { k: 'location' });
  }

  private command(c: NonNullable<Reading['command']>, utteranceId: string): void {
    const w = this.words;
    const pick = this.current;
    switch (c) {
      case 'skipSlot': {
        if (!pick || !this.progress) return;
        if (this.progress.todo.length === 1) return this.say(w.say('lastSlot'));
        this.o.ledger.skip(this.progress.assignment.id, pick.id);
        this.o.ledger.note('skip', { assignment: this.progress.assignment.id, pick: pick.id, utteranceId });
        this.progress.todo.push(this.progress.todo.shift()!);
        this.o.out.event({ event: 'skipped', assignment: this.progress.assignment.id, pick: pick.id });
        return this.ask(`${w.say('skipped')} ${this.locationText(this.current!)}`, { k: 'location' });
      }
      case 'short':
        return this.ask(w.say('askPicked'), { k: 'picked' });
      case 'howMuchMore': {
        const todo = this.progress?.todo ?? [];
        if (!todo.length) return this.say(w.say('nothingLeft'));
        const units = todo.reduce((n, p) => n + p.quantity, 0);
        return this.say(w.say('howMuchMore', { picks: w.plural('picks', todo.length), units: w.plural('units', units) }));
      }
      case 'description':
        return this.say(pick?.description ? w.say('description', { description: pick.description }) : w.say('noDescription'));
      case 'undo':
        return this.undo(utteranceId);
      case 'repeatLastPick': {
        const l = this.last;
        if (!l) return this.say(w.say('noLastPick'));
        return this.say(w.say('lastPick', { aisle: l.pick.aisle, slot: l.pick.slot, picked: `${l.picked} ${unitWord(l.pick, l.picked)}` }));
      }
      case 'takeBreak':
        this.o.ledger.note('break', {});
        this.o.out.event({ event: 'break', operator: this.operator! });
        return this.ask(w.say('onBreak'), { k: 'break', back: this.step });
      case 'signOff':
        this.o.ledger.signOff();
        this.o.ledger.note('sign-off', {});
        this.o.out.event({ event: 'signed-off', operator: this.operator! });
        this.operator = null;
        this.last = null;
        this.prompt = '';
        this.step = { k: 'signed-off' };
        this.say(w.say('signedOff'));
        // The next to sign on starts at their own rate; until then, the site's.
        this.wpm = this.o.rate.start;
        return;
      case 'faster':
      case 'slower': {
        const r = this.o.rate;
        const to = c === 'faster' ? Math.min(r.max, this.wpm + r.step) : Math.max(r.min, this.wpm - r.step);
        if (to === this.wpm) return this.say(w.say(c === 'faster' ? 'fastest' : 'slowest'));
        this.wpm = to;
        this.o.ledger.setRate(this.operator!, to);
        this.o.out.event({ event: 'rate', operator: this.operator!, wpm: to });
        return this.say(w.say(c));
      }
      default:
        return;
    }
  }

  private checkDigits(code: string, utteranceId: string): void {
    const pick = this.current!;
    if (code !== pick.checkDigits) {
      this.o.ledger.note('wrong-check', { assignment: this.progress!.assignment.id, pick: pick.id, utteranceId });
      this.o.out.event({ event: 'wrong-check', assignment: this.progress!.assignment.id, pick: pick.id });
      // Never the digits: a picker at the wrong slot must not be able to just repeat them.
      return this.ask(`${this.words.say('wrong')} ${this.locationText(pick)}`);
    }
    this.ask(this.quantityText(pick), { k: 'quantity' });
  }

  private quantity(n: number, utteranceId: string): void {
    const pick = this.current!;
    if (n > pick.quantity)
      return this.ask(`${this.words.say('tooMany', { quantity: `${pick.quantity} ${unitWord(pick, pick.quantity)}` })} ${this.quantityText(pick)}`, {
        k: 'quantity',
      });
    if (n === pick.quantity) return this.confirm(n, utteranceId);
    this.shortUtterance = utteranceId;
    this.ask(this.words.say('shortConfirm', { missing: pick.quantity - n }), { k: 'confirm-short', picked: n });
  }

  private shortAnswer(c: Reading['command']): void {
    const s = this.step as Extract<Step, { k: 'confirm-short' }>;
    if (c === 'yes') return this.confirm(s.picked, this.shortUtterance);
    this.ask(this.quantityText(this.current!), { k: 'quantity' });
  }

  /** Keep the pick (on disk, with its result queued for the warehouse), then say what comes next. */
  private confirm(picked: number, utteranceId: string): void {
    const p = this.progress!;
    const pick = p.todo[0]!;
    const result = this.o.ledger.confirm({ assignment: p.assignment, pick, operator: this.operator!, picked, utteranceId });
    p.todo.shift();
    p.done.push({ pick, picked });
    this.last = { assignment: p.assignment, pick, picked };
    const short = picked < pick.quantity;
    if (short) this.o.ledger.note('short', { assignment: p.assignment.id, pick: pick.id, utteranceId });
    this.o.out.event({ event: 'confirmed', assignment: p.assignment.id, pick: pick.id, quantity: pick.quantity, picked, short, seq: result.seq, utteranceId });
    if (p.todo.length) return this.ask(this.locationText(p.todo[0]!), { k: 'location' });
    this.o.ledger.finish(p.assignment.id);
    this.o.out.event({ event: 'assignment-done', assignment: p.assignment.id, picks: p.done.length });
    this.progress = null;
    this.begin(this.words.say('assignmentDone'));
  }

  private undo(utteranceId: string): void {
    const w = this.words;
    const l = this.last;
    if (!l) return this.say(w.say('nothingToUndo'));
    const r = this.o.ledger.undo(l.assignment.id, l.pick.id);
    if (r === 'sent') return this.say(w.say('alreadySent'));
    if (r === 'none') return this.say(w.say('nothingToUndo'));
    this.o.ledger.note('undo', { assignment: l.assignment.id, pick: l.pick.id, utteranceId });
    this.o.out.event({ event: 'undone', assignment: l.assignment.id, pick: l.pick.id });
    this.last = null;
    // The assignment may have been finished by that pick: it is under way again.
    this.progress = this.o.ledger.current(this.operator!);
    this.ask(`${w.say('undone')} ${this.locationText(this.current!)}`, { k: 'location' });
  }

  private backPrompt(): string {
    if (this.step.k === 'location' && this.current) return this.locationText(this.current);
    if ((this.step.k === 'quantity' || this.step.k === 'picked') && this.current) return this.quantityText(this.current);
    return this.prompt;
  }

  private locationText(p: Pick): string {
    return p.say ?? this.words.say('location', { aisle: p.aisle, slot: p.slot });
  }
  private quantityText(p: Pick): string {
    return this.words.say('pick', { quantity: `${p.quantity} ${unitWord(p, p.quantity)}` });
  }

  /** Say a prompt (kept for "say again") and move to the step that waits for its answer. */
  private ask(text: string, next?: Step): void {
    if (next) this.step = next;
    this.prompt = text;
    this.promptIn = this.words.language;
    this.say(text);
  }

  /** Every line at the operator's rate. */
  /**
   * The words read in the first language that takes them: the one speech-to-text named, then the
   * one hark speaks now, then the device's others in order (as the kitchen reads each language).
   */
  private heardIn(said: Said): { reading: Reading; words: PickWords } | null {
    const all = [this.o.words, ...(this.o.others ?? [])];
    const order = [...all.filter((w) => w.language === said.language), this.words, ...all];
    for (const words of new Set(order)) {
      const reading = read(said, words);
      if (this.accepts(reading)) return { reading, words };
    }
    return null;
  }

  private say(text: string): void {
    this.o.out.say(text, this.wpm, this.words.language);
  }

  /** The rate the operator last chose, held within today's bounds (picking.rate may have changed since). */
  private rateOf(operator: string): number {
    const r = this.o.rate;
    const kept = this.o.ledger.rate(operator);
    return kept === null ? r.start : Math.min(r.max, Math.max(r.min, kept));
  }
}

/** An operator number said back digit by digit ("1 2"), as it was read. */
function spaced(id: string): string {
  return id.split('').join(' ');
}
