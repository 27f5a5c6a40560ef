import { Grammar, type GrammarExtras, type Parse } from './grammar.js';
import type { ItemList } from './items.js';
import { english } from './pack/english.js';
import type { Language } from './pack/language.js';
import { listId, READERS, type DurationValue, type KnownItem, type ReadContext } from './readers.js';
import type { FollowUp, ImperativeName, ListCommand, Reading, TimerCommand, TimerPick } from './requests.js';
import { NOTHING_OWNED, type Situation } from './situation.js';
import type { TimerRef } from './timer-ref.js';

/**
 * The kitchen language in one language: its pack's sentences (timers, lists, hark's voice,
 * follow-ups; packs/<lang>/sentences.yaml) plus what the config adds, compiled once, and the step from a template's slots to a request hark can carry
 * out. `read` is the one reading of an utterance that the router, the follow-up window and the
 * interruption filter share. Pure.
 */
export type Family = 'timer' | 'list' | 'imperative' | 'follow';

/** What was heard besides the words: pauses after them, and their spelling (both aligned to the words). */
export interface Heard {
  breaks?: readonly boolean[];
  spelled?: readonly string[];
}

const family = (intent: string): Family => intent.slice(0, intent.indexOf('.')) as Family;
/** Questions: answered when asked, never taken from talk in the follow-up window. */
const QUESTIONS = new Set(['timer.status', 'timer.list', 'list.read']);

export class KitchenLanguage {
  readonly grammar: Grammar<ReadContext>;
  /** The device's other languages, tried after this one (language.languages). */
  private readonly others: KitchenLanguage[];

  constructor(
    extras: GrammarExtras = {},
    readonly lang: Language = english(),
    others: readonly Language[] = [],
  ) {
    this.grammar = new Grammar<ReadContext>({ ...lang.pack.grammar, readers: READERS, lead: 'lead', tail: 'tail' }, extras);
    this.others = others.map((l) => new KitchenLanguage({}, l));
  }

  /** Every language of the device, the first (whose replies hark says) first. */
  each(): readonly KitchenLanguage[] {
    return [this, ...this.others];
  }

  /** The language a reply is said in: the device's language of this code, the first for none (or one it lacks). */
  speaking(code?: string): Language {
    return (code !== undefined ? this.in(code)?.lang : undefined) ?? this.lang;
  }

  /** The device's language of this code, if it has it. */
  in(code: string): KitchenLanguage | undefined {
    return this.each().find((k) => k.lang.code === code);
  }

  /**
   * The request the words make, among the given families, or null. Follow-ups are read only when
   * the situation says what was last done (the follow-up window is open) and they fit it.
   */
  read(words: readonly string[], situation: Situation, families: readonly Family[], heard: Heard = {}, goOn = true): Reading | null {
    return this.readScored(words, situation, families, heard, goOn)?.reading ?? null;
  }

  /**
   * The reading and what the template that made it explains of the words (its score), so a
   * device with several languages can keep the language that explains the most: "wohnzimmer timer
   * status" is a room's timer in German, not an unknown timer's name in English. A reading made of
   * parts (several timers, a request before "and ...") scores 0.
   */
  readScored(
    words: readonly string[],
    situation: Situation,
    families: readonly Family[],
    heard: Heard = {},
    goOn = true,
  ): { reading: Reading; score: number } | null {
    const ctx: ReadContext = { situation, breaks: heard.breaks ?? [], lang: this.lang, ...(heard.spelled ? { spelled: heard.spelled } : {}) };
    const want = new Set(families);
    for (const p of this.grammar.read(words, ctx, (i) => want.has(family(i)))) {
      const r = toReading(p, situation, words, this.lang);
      if (r) return { reading: r, score: p.score };
    }
    const many = want.has('timer') ? this.startMany(words, ctx) : null;
    const r = many ?? (goOn ? this.beforeAnd(words, situation, families, ctx) : null);
    return r ? { reading: r, score: 0 } : null;
  }

  /**
   * "set a timer for ten minutes and then tell me when it's done", "cancel the chips, they're done":
   * a timer or list request that is whole up to an "and" / "then" / "so" or a comma, with more said
   * after it, is that request (the rest is how people talk on). Not for hark's voice commands:
   * "stop, that's the wrong pan" is not a whole "stop", and not for questions.
   */
  private beforeAnd(words: readonly string[], situation: Situation, families: readonly Family[], { breaks, spelled }: ReadContext): Reading | null {
    const want = families.filter((f) => f === 'timer' || f === 'list');
    if (!want.length) return null;
    for (let i = words.length - 1; i >= 3; i--) {
      // "... and then ...", or a pause speech-to-text wrote as a comma: "cancel the chips, they're done".
      if (!this.lang.list('words', 'go_on').has(words[i]) && !breaks[i - 1]) continue;
      const r = this.read(words.slice(0, i), situation, want, { breaks: breaks.slice(0, i), ...(spelled ? { spelled: spelled.slice(0, i) } : {}) }, false);
      if (r && (r.kind === 'timer' || r.kind === 'list') && !r.question) return r;
    }
    return null;
  }

  /** Could these words (a clipped opening) be the start of one of the imperatives? */
  mayBeginImperative(words: readonly string[]): boolean {
    return this.each().some((k) => k.grammar.mayBegin(words, { situation: NOTHING_OWNED, breaks: [], lang: k.lang }, (i) => i.startsWith('imperative.')));
  }

  /**
   * "set a 10 minute pasta timer and a 5 minute sauce timer", "timer for 10 minutes and another
   * for 5 minutes": split at an "and" that starts another timer, each part a timer of its own.
   */
  private startMany(words: readonly string[], ctx: ReadContext): Reading | null {
    const sm = this.lang.pack.timers.start_many;
    if (!sm) return null;
    const and = this.lang.list('timers', 'start_another');
    const cuts: number[] = [];
    for (let i = 1; i < words.length - 1; i++) if (sm.and.includes(words[i]!) && and.has(words[i + 1])) cuts.push(i);
    if (!cuts.length || cuts.length > 3) return null;
    const timers: { seconds: number; name?: string }[] = [];
    let from = 0;
    for (const end of [...cuts, words.length]) {
      let part = words.slice(from, end);
      from = end + 1;
      // "and another for 5 minutes" / "and a 5 minute one": the second timer's words, made a sentence of their own.
      if (timers.length) {
        const rest = part.slice(1).filter((w) => !sm.drop.includes(w));
        part = part.includes(sm.timer) ? [sm.verb, ...part] : [sm.verb, sm.article, ...(part[1] === sm.for ? [sm.timer, ...rest] : [...rest, sm.timer])];
      }
      // (its words are rebuilt, so the spelling no longer lines up with them: a timer keeps none)
      const c = this.grammar
        .read(part, { situation: ctx.situation, breaks: ctx.breaks, lang: this.lang }, (i) => i === 'timer.start')
        .map((p) => toReading(p, ctx.situation, part, this.lang))
        .find((r) => r !== null);
      if (!c || c.kind !== 'timer' || c.command.op !== 'start' || c.command.seconds === null) return null;
      timers.push(c.command.name ? { seconds: c.command.seconds, name: c.command.name } : { seconds: c.command.seconds });
    }
    return { kind: 'timer', command: { op: 'start-many', timers }, question: false };
  }
}

function last<T>(slots: Record<string, unknown[]>, key: string): T | undefined {
  const v = slots[key];
  return v && v.length ? (v[v.length - 1] as T) : undefined;
}

/** A new timer's name: a room word that is this device's room names the place, not the timer. */
function newName(name: string | undefined, s: Situation, lang: Language): string | undefined {
  if (!name) return undefined;
  if (lang.pack.timers.rooms.includes(name) && (s.area === undefined || s.area === name)) return undefined;
  return name;
}

function listOf(slots: Record<string, unknown[]>, lang: Language): string {
  return last<string>(slots, 'list') ?? last<string>(slots, 'known_list') ?? listId(lang, lang.pack.lists.default);
}

/** A template's slots → the request, or null when they do not make one (the next reading is tried). */
export function toReading(p: Parse, s: Situation, words: readonly string[], lang: Language = english()): Reading | null {
  const { slots } = p;
  const question = QUESTIONS.has(p.intent);
  const durations = (slots.duration ?? slots.more ?? []) as DurationValue[];
  const seconds = durations.length ? durations[durations.length - 1]!.seconds : undefined;
  const ref = last<TimerRef>(slots, 'timer') ?? last<TimerRef>(slots, 'timers');
  const timer = (command: TimerCommand): Reading => ({ kind: 'timer', command, question });
  const list = (command: ListCommand): Reading => ({ kind: 'list', command, question });
  switch (p.intent) {
    case 'timer.start': {
      // "give the pizza timer 2 more minutes": more time is for a timer that runs, never a new one.
      if (durations.some((d) => d.more)) return null;
      const name = newName(last<string>(slots, 'name') ?? last<string>(slots, 'reminder'), s, lang);
      return timer(name ? { op: 'start', seconds: seconds ?? null, name } : { op: 'start', seconds: seconds ?? null });
    }
    case 'timer.delay': {
      const command = last<string>(slots, 'command');
      return command && seconds ? timer({ op: 'delay', seconds, command }) : null;
    }
    case 'timer.cancel':
    case 'timer.pause':
    case 'timer.resume':
      return ref ? timer({ op: p.intent.slice(6) as 'cancel' | 'pause' | 'resume', pick: ref.pick, all: ref.all }) : null;
    case 'timer.status':
      return ref ? timer({ op: 'status', pick: ref.all ? areaOnly(ref.pick) : ref.pick, all: false }) : null;
    case 'timer.list':
      return timer({ op: 'status', pick: {}, all: false });
    case 'timer.add':
    case 'timer.remove': {
      const more = (slots.more ?? []) as DurationValue[];
      const by = more.length ? more[more.length - 1]!.seconds : seconds;
      return ref && by ? timer({ op: p.intent === 'timer.add' ? 'add' : 'remove', seconds: by, pick: ref.pick }) : null;
    }
    case 'list.add':
    case 'list.remove': {
      const known = last<KnownItem>(slots, 'known_item');
      const said = known ? { items: [known.item], unread: [] } : last<ItemList>(slots, 'items');
      if (!said?.items.length) return null;
      return list({ op: p.intent === 'list.add' ? 'add' : 'remove', list: known ? known.list : listOf(slots, lang), items: said.items, ...unread(said) });
    }
    case 'list.read':
    case 'list.clear':
      return list({ op: p.intent === 'list.read' ? 'read' : 'clear', list: listOf(slots, lang) });
    case 'follow.more': {
      const said = last<ItemList>(slots, 'items');
      return s.last?.kind === 'list' && said?.items.length ? follow({ kind: 'more', items: said.items, ...unread(said) }) : null;
    }
    case 'follow.length': {
      const len = last<DurationValue>(slots, 'length');
      return s.last?.kind === 'timer' && len ? follow({ kind: 'length', seconds: len.seconds }) : null;
    }
    default: {
      if (!p.intent.startsWith('imperative.')) return null;
      const n = last<number>(slots, 'number');
      const name = p.intent.slice('imperative.'.length) as ImperativeName;
      // "repeat the last one": the reference is kept as said, in the language's own word.
      const said = name === 'repeat' ? words.find((w) => lang.list('words', 'last').has(w)) : undefined;
      const ref = n !== undefined ? `number ${n}` : said;
      return { kind: 'imperative', imperatives: [{ name, ...(ref ? { reference: ref } : {}) }] };
    }
  }
}

/** The parts of a list that were not items, when there are any. */
function unread(l: ItemList): { unread?: string[] } {
  return l.unread.length ? { unread: l.unread } : {};
}

function follow(f: FollowUp): Reading {
  return { kind: 'follow-up', follow: f };
}

/** "status of all the kitchen timers": every timer, but still only the room's. */
function areaOnly(p: TimerPick): TimerPick {
  return p.area ? { area: p.area } : {};
}
