import { english } from './pack/english.js';
import type { Language } from './pack/language.js';

/**
 * The small pieces every reply is built from, in a language's words (its replies.yaml): a list
 * said as a list ("a, b and c", "a, b o c") and a timer named inside another reply ("the rice
 * timer", "el temporizador de arroz", "den Reis-Timer"). Pure.
 */

/** "a, b and c" / "a, b or c", with the pack's join.and, join.or and join.comma. */
export function joinAll(parts: readonly string[], how: 'and' | 'or', lang: Language = english()): string {
  if (parts.length <= 1) return parts[0] ?? '';
  let first = parts[0]!;
  for (const p of parts.slice(1, -1)) first = lang.phrase('join.comma', { first, last: p });
  return lang.phrase(`join.${how}`, { first, last: parts[parts.length - 1] });
}

/** "pizza timer", "5 minute timer": a timer by its name, or by the duration it was set for. */
export function timerName(t: { label?: string; seconds: number }, lang: Language = english()): string {
  return t.label ? lang.phrase('timer.named', { name: t.label }) : lang.phrase('timer.sized', { size: lang.durations.measure(t.seconds) });
}

/** What hark says each time a timer rings: its name, or how long ago it went off when that was a while. */
export function ringText(label: string | undefined, lateMs = 0, lang: Language = english()): string {
  if (lateMs >= 60_000) return lang.reply('timer.late', { name: label, ago: lang.durations.say(Math.round(lateMs / 60_000) * 60) });
  return lang.reply('timer.done', { name: label });
}

/** A shared list as this language says it: the first name its pack maps to it ("shopping" → compra), else its own name. */
export function listName(id: string, lang: Language = english()): string {
  return Object.entries(lang.pack.lists.names).find(([, to]) => to === id)?.[0] ?? id;
}
