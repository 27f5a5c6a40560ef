import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SHARED } from '../support/paths.js';

/**
 * Home Assistant's English timer / never mind / list sentences (../shared/ha-intents, test data
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

export function loadCases(): HaCase[] {
  return (JSON.parse(readFileSync(join(SHARED, 'ha-intents', 'cases.json'), 'utf8')) as { cases: HaCase[] }).cases;
}

export type Mode = 'wake-word' | 'always-listen';
export type Ev = { type: string; atMs: number } & Record<string, unknown>;

/** Each case gets two virtual hours: set up, say the sentence, watch timers ring, clean up. */
export const WINDOW_MS = 2 * 3600_000;
const SAY_AT = 70_000;
const CLEAN_AT = WINDOW_MS - 20_000;
const DISTRACTOR = 420; // a 7 minute timer that must be left alone

function spoken(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return [h && `${h} hour${h > 1 ? 's' : ''}`, m && `${m} minute${m > 1 ? 's' : ''}`, s && `${s} second${s > 1 ? 's' : ''}`].filter(Boolean).join(' ');
}

const NEEDS_TIMER = new Set(['HassCancelTimer', 'HassCancelAllTimers', 'HassTimerStatus', 'HassPauseTimer', 'HassUnpauseTimer', 'HassIncreaseTimer', 'HassDecreaseTimer']);

/** The setup lines (said to hark in its own words) for a case, before the sentence. */
function setup(c: HaCase): { lines: string[]; pause?: string } {
  if (!NEEDS_TIMER.has(c.intent)) return { lines: [] };
  const e = c.expect;
  const plural = c.intent === 'HassCancelAllTimers' || (c.intent === 'HassTimerStatus' && !e.name && e.target_seconds === undefined);
  if (e.name) return { lines: [`set a ${e.name} timer for 10 minutes`, `set a timer for ${spoken(DISTRACTOR)}`], pause: `pause the ${e.name} timer` };
  if (e.target_seconds !== undefined) return { lines: [`set a timer for ${spoken(e.target_seconds)}`, `set a timer for ${spoken(DISTRACTOR)}`], pause: `pause the ${spoken(e.target_seconds)} timer` };
  return { lines: plural ? ['set a timer for 10 minutes', `set a timer for ${spoken(DISTRACTOR)}`] : ['set a timer for 10 minutes'], pause: 'pause the timer' };
}

/** simulate input lines for every case, one window each. */
export function script(cases: readonly HaCase[], mode: Mode): string {
  const w = mode === 'wake-word' ? 'computer ' : '';
  const lines: string[] = [];
  const at = (atMs: number, text?: string) => lines.push(JSON.stringify(text === undefined ? { atMs } : { text, atMs }));
  cases.forEach((c, i) => {
    const t0 = i * WINDOW_MS;
    const s = setup(c);
    s.lines.forEach((l, k) => at(t0 + 1000 * (k + 1), w + l));
    if (c.intent === 'HassUnpauseTimer') at(t0 + 5000, w + s.pause!);
    at(t0 + SAY_AT, w + c.sentence);
    at(t0 + CLEAN_AT, 'stop');
    at(t0 + CLEAN_AT + 5000, `${w}cancel all timers`);
  });
  at(cases.length * WINDOW_MS);
  return lines.join('\n') + '\n';
}

/** Durations (in seconds) as numbers in what hark said: "9 minutes and 50 seconds" → 590. */
export function durationsIn(text: string): number[] {
  const out: number[] = [];
  const re = /(\d+) (hour|minute|second)s?/g;
  let m: RegExpExecArray | null;
  let lastEnd = -1;
  while ((m = re.exec(text))) {
    const v = Number(m[1]) * (m[2] === 'hour' ? 3600 : m[2] === 'minute' ? 60 : 1);
    const gap = lastEnd >= 0 ? text.slice(lastEnd, m.index) : null;
    if (gap !== null && /^(,? and |, | )$/.test(gap)) out[out.length - 1]! += v;
    else out.push(v);
    lastEnd = m.index + m[0].length;
  }
  return out;
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
export function score(c: HaCase, events: readonly Ev[], caseIndex: number): Verdict {
  const t0 = caseIndex * WINDOW_MS;
  const sayAt = t0 + SAY_AT;
  const inWin = events.filter((e) => e.atMs >= t0 && e.atMs < t0 + CLEAN_AT);
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
  if (NEEDS_TIMER.has(c.intent) && (!target || setups.length < setup(c).lines.length)) return fail('setup: the timers to act on were not set');
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
      const said = after.filter((x) => x.type === 'speak' && x.atMs === sayAt).map((x) => String(x.text)).join(' ');
      const heard = durationsIn(said);
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
      const ok = added.length === 1 && added[0]!.item === e.item && added[0]!.list === listName(e.list!);
      return ok ? pass : fail(`list events ${JSON.stringify(added)}`);
    }
    default:
      return fail(`no scorer for ${c.intent}`);
  }
}
