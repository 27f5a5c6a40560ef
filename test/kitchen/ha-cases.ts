import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, SHARED } from '../support/paths.js';
import { durationsIn, phrases, spoken } from './ha-phrases.js';

/**
 * Home Assistant's timer / never mind / list sentences (English: ../shared/ha-intents; Spanish and
 * German: test/fixtures/ha-intents/<lang>, made by scripts/ha-intents/convert.mjs; test data
 * only), turned into `hark simulate` sessions and scored by what happens: which timer is set,
 * cancelled, paused, changed, what time left is said, when timers ring, what lands on a list. Not
 * by hark's wording: only durations are read out of what it says.
 */
export interface HaCase {
  id: string;
  intent: string;
  sentence: string;
  expect: { seconds?: number; target_seconds?: number; name?: string; area?: string; command?: string; item?: string; list?: string };
}

export function casesFile(lang: string): string {
  return lang === 'en' ? join(SHARED, 'ha-intents', 'cases.json') : join(ROOT, 'test', 'fixtures', 'ha-intents', lang, 'cases.json');
}

export function loadCases(lang = 'en'): HaCase[] {
  return (JSON.parse(readFileSync(casesFile(lang), 'utf8')) as { cases: HaCase[] }).cases;
}

export type Mode = 'wake-word' | 'always-listen';
export type Ev = { type: string; atMs: number } & Record<string, unknown>;

/**
 * Each case gets a window of virtual time: set up, say the sentence, watch timers ring, clean up.
 * Two hours, or longer when a timer of the case is due later (a 2-hour timer set 70 s in, a
 * 5-hour extension), so every ring a case is scored by falls inside its own window.
 */
export const WINDOW_MS = 2 * 3600_000;
const SAY_AT = 70_000;
const CLEAN_BEFORE_END = 20_000;
const DISTRACTOR = 420; // a 7 minute timer that must be left alone
const BASE = 600; // the 10 minute timer a case acts on when it names none

export interface Window {
  t0: number;
  lengthMs: number;
}

const NEEDS_TIMER = new Set([
  'HassCancelTimer',
  'HassCancelAllTimers',
  'HassTimerStatus',
  'HassPauseTimer',
  'HassUnpauseTimer',
  'HassIncreaseTimer',
  'HassDecreaseTimer',
]);

/** The timer a case acts on when it names neither a name nor a size: one that has the time the case takes off. */
function baseSeconds(c: HaCase): number {
  return c.intent === 'HassDecreaseTimer' && (c.expect.seconds ?? 0) >= BASE ? c.expect.seconds! + BASE : BASE;
}

function latestDueMs(c: HaCase): number {
  const e = c.expect;
  const setupLongest = Math.max(baseSeconds(c), DISTRACTOR, e.target_seconds ?? 0) * 1000;
  if (c.intent === 'HassStartTimer') return SAY_AT + (e.seconds ?? 0) * 1000;
  if (c.intent === 'HassIncreaseTimer') return setupLongest + (e.seconds ?? 0) * 1000;
  if (c.intent === 'HassUnpauseTimer') return SAY_AT + setupLongest;
  return setupLongest;
}

/** Where each case's window starts and how long it is: back to back, whole hours, at least two. */
export function layout(cases: readonly HaCase[]): Window[] {
  let t0 = 0;
  return cases.map((c) => {
    const lengthMs = Math.max(WINDOW_MS, Math.ceil((latestDueMs(c) + 30 * 60_000) / 3600_000) * 3600_000);
    const w = { t0, lengthMs };
    t0 += lengthMs;
    return w;
  });
}

/** The setup lines (said to hark in the cases' language) for a case, before the sentence. */
function setup(c: HaCase, lang: string): { lines: string[]; pause?: string } {
  if (!NEEDS_TIMER.has(c.intent)) return { lines: [] };
  const p = phrases(lang);
  const say = (s: number) => spoken(s, lang);
  const e = c.expect;
  const plural = c.intent === 'HassCancelAllTimers' || (c.intent === 'HassTimerStatus' && !e.name && e.target_seconds === undefined);
  if (e.name) return { lines: [p.setNamed(e.name, say(BASE)), p.set(say(DISTRACTOR))], pause: p.pauseNamed(e.name) };
  if (e.target_seconds !== undefined) return { lines: [p.set(say(e.target_seconds)), p.set(say(DISTRACTOR))], pause: p.pauseSized(say(e.target_seconds)) };
  return { lines: plural ? [p.set(say(BASE)), p.set(say(DISTRACTOR))] : [p.set(say(baseSeconds(c)))], pause: p.pause };
}

/** simulate input lines for every case, one window each. */
export function script(cases: readonly HaCase[], mode: Mode, lang = 'en'): string {
  const p = phrases(lang);
  const w = mode === 'wake-word' ? `${p.wake} ` : '';
  const lines: string[] = [];
  const at = (atMs: number, text?: string) => lines.push(JSON.stringify(text === undefined ? { atMs } : { text, atMs }));
  const windows = layout(cases);
  cases.forEach((c, i) => {
    const { t0, lengthMs } = windows[i]!;
    const cleanAt = t0 + lengthMs - CLEAN_BEFORE_END;
    const s = setup(c, lang);
    s.lines.forEach((l, k) => at(t0 + 1000 * (k + 1), w + l));
    if (c.intent === 'HassUnpauseTimer') at(t0 + 5000, w + s.pause!);
    at(t0 + SAY_AT, w + c.sentence);
    at(cleanAt, p.stop);
    at(cleanAt + 5000, w + p.cancelAll);
  });
  const last = windows[windows.length - 1];
  at(last ? last.t0 + last.lengthMs : 0);
  return lines.join('\n') + '\n';
}

export interface Verdict {
  id: string;
  ok: boolean;
  why?: string;
}

function listName(s: string): string {
  return s.toLowerCase().replace(/\s+list$/, '');
}

/** Score one case from the events of its window. */
export function score(c: HaCase, events: readonly Ev[], win: Window, lang = 'en'): Verdict {
  const t0 = win.t0;
  const sayAt = t0 + SAY_AT;
  const inWin = events.filter((e) => e.atMs >= t0 && e.atMs < t0 + win.lengthMs - CLEAN_BEFORE_END);
  const before = inWin.filter((e) => e.atMs < sayAt);
  const after = inWin.filter((e) => e.atMs >= sayAt);
  const timers = (evs: readonly Ev[], event: string) => evs.filter((e) => e.type === 'timer' && e.event === event);
  const setups = timers(before, 'set');
  const e = c.expect;
  const target = setups.find((t) => (e.name ? t.label === e.name.toLowerCase() : e.target_seconds !== undefined ? t.seconds === e.target_seconds : true));
  const others = setups.filter((t) => t !== target);
  const fail = (why: string): Verdict => ({ id: c.id, ok: false, why });
  const pass: Verdict = { id: c.id, ok: true };
  const doneAt = (id: unknown) => timers(after, 'done').find((d) => d.id === id)?.atMs;
  const idsOf = (evs: Ev[]) => evs.map((x) => x.id).sort();
  if (NEEDS_TIMER.has(c.intent) && (!target || setups.length < setup(c, lang).lines.length)) return fail('setup: the timers to act on were not set');
  switch (c.intent) {
    case 'HassStartTimer': {
      const set = timers(after, 'set');
      if (set.length !== 1) return fail(`${set.length} timers set`);
      const t = set[0]!;
      if (t.seconds !== e.seconds) return fail(`set for ${String(t.seconds)} s, not ${e.seconds}`);
      if (e.command) {
        if (t.command !== e.command) return fail(`command ${JSON.stringify(t.command)}`);
        const due = t.atMs + e.seconds! * 1000;
        const handled = after.find((x) => x.type === 'submit' && x.text === e.command && x.atMs >= due && x.atMs <= due + 10_000);
        return handled ? pass : fail('the command was not handled when due');
      }
      if ((t.label ?? undefined) !== (e.name?.toLowerCase() ?? undefined)) return fail(`named ${JSON.stringify(t.label)}`);
      return doneAt(t.id) === t.atMs + e.seconds! * 1000 ? pass : fail(`rang at ${String(doneAt(t.id))}, set at ${t.atMs}`);
    }
    case 'HassCancelTimer':
    case 'HassCancelAllTimers': {
      const want = c.intent === 'HassCancelAllTimers' ? idsOf(setups) : [target?.id];
      const got = idsOf(timers(after, 'cancelled'));
      return JSON.stringify(got) === JSON.stringify(want) ? pass : fail(`cancelled ${JSON.stringify(got)}, wanted ${JSON.stringify(want)}`);
    }
    case 'HassTimerStatus': {
      const said = after
        .filter((x) => x.type === 'speak' && x.atMs === sayAt)
        .map((x) => String(x.text))
        .join(' ');
      const heard = durationsIn(said, lang);
      const left = (t: Ev) => Math.round(((t.dueAtMs as number) - sayAt) / 1000);
      const has = (t: Ev) => heard.some((d) => Math.abs(d - left(t)) <= 1);
      const plural = !e.name && e.target_seconds === undefined && setups.length > 1;
      const wanted = plural ? setups : [target!];
      if (!wanted.every(has)) return fail(`said ${JSON.stringify(said)}`);
      if (!plural && others.some(has)) return fail(`also told another timer: ${JSON.stringify(said)}`);
      return pass;
    }
    case 'HassPauseTimer': {
      const got = idsOf(timers(after, 'paused'));
      if (JSON.stringify(got) !== JSON.stringify([target?.id])) return fail(`paused ${JSON.stringify(got)}`);
      if (doneAt(target!.id) !== undefined) return fail('the paused timer rang');
      return others.every((o) => doneAt(o.id) === o.dueAtMs) ? pass : fail('another timer did not ring on time');
    }
    case 'HassUnpauseTimer': {
      const paused = timers(before, 'paused').find((p) => p.id === target?.id);
      if (!paused) return fail('setup: the timer was not paused');
      const got = idsOf(timers(after, 'resumed'));
      if (JSON.stringify(got) !== JSON.stringify([target?.id])) return fail(`resumed ${JSON.stringify(got)}`);
      const leftAtPause = (target!.dueAtMs as number) - paused.atMs;
      return doneAt(target!.id) === sayAt + leftAtPause ? pass : fail(`rang at ${String(doneAt(target!.id))}, wanted ${sayAt + leftAtPause}`);
    }
    case 'HassIncreaseTimer':
    case 'HassDecreaseTimer': {
      const sign = c.intent === 'HassIncreaseTimer' ? 1 : -1;
      const changed = timers(after, 'changed');
      if (JSON.stringify(idsOf(changed)) !== JSON.stringify([target?.id])) return fail(`changed ${JSON.stringify(idsOf(changed))}`);
      if (changed[0]!.bySeconds !== sign * e.seconds!) return fail(`by ${String(changed[0]!.bySeconds)}`);
      const want = (target!.dueAtMs as number) + sign * e.seconds! * 1000;
      return doneAt(target!.id) === want ? pass : fail(`rang at ${String(doneAt(target!.id))}, wanted ${want}`);
    }
    case 'HassNevermind': {
      const acted = after.filter((x) => x.type === 'timer' || x.type === 'submit' || x.type === 'ignored' || x.type === 'list');
      return acted.length ? fail(`did ${acted.map((x) => x.type).join(', ')}`) : pass;
    }
    case 'HassShoppingListAddItem':
    case 'HassListAddItem': {
      const added = after.filter((x) => x.type === 'list' && x.op === 'add');
      // Items are compared as words, not letters: HA writes a German noun capitalised ("Milch"), hark keeps items in lower case.
      const ok = added.length === 1 && String(added[0]!.item) === e.item!.toLowerCase() && added[0]!.list === listName(e.list!);
      return ok ? pass : fail(`list events ${JSON.stringify(added)}`);
    }
    default:
      return fail(`no scorer for ${c.intent}`);
  }
}
