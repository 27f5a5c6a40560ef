import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ROOT } from '../support/paths.js';

/**
 * What the Home Assistant runner says to hark around each case, in the language of the cases
 * (the timers a case acts on are set up in that language, on a device that hears only it), and
 * how durations are read back out of hark's replies in that language: by the unit words its pack
 * says (`packs/<lang>/durations.yaml` `say`), so a reply is read as a cook would hear it.
 */
export interface Phrases {
  lang: string;
  /** The wake phrase put before each line in wake-word mode. */
  wake: string;
  /** The room the cases name; the device is set there. */
  room: string;
  setNamed(name: string, duration: string): string;
  set(duration: string): string;
  pauseNamed(name: string): string;
  pauseSized(duration: string): string;
  pause: string;
  /** Silences a ring. */
  stop: string;
  cancelAll: string;
}

const PHRASES: Record<string, Omit<Phrases, 'lang'>> = {
  en: {
    wake: 'computer',
    room: 'kitchen',
    setNamed: (n, d) => `set a ${n} timer for ${d}`,
    set: (d) => `set a timer for ${d}`,
    pauseNamed: (n) => `pause the ${n} timer`,
    pauseSized: (d) => `pause the ${d} timer`,
    pause: 'pause the timer',
    stop: 'stop',
    cancelAll: 'cancel all timers',
  },
  es: {
    wake: 'oye computadora',
    room: 'cocina',
    setNamed: (n, d) => `pon un temporizador de ${n} de ${d}`,
    set: (d) => `pon un temporizador de ${d}`,
    pauseNamed: (n) => `pausa el temporizador de ${n}`,
    pauseSized: (d) => `pausa el temporizador de ${d}`,
    pause: 'pausa el temporizador',
    stop: 'para',
    cancelAll: 'cancela todos los temporizadores',
  },
  de: {
    wake: 'hallo computer',
    room: 'wohnzimmer',
    setNamed: (n, d) => `stell einen ${n} Timer auf ${d}`,
    set: (d) => `stell einen Timer auf ${d}`,
    pauseNamed: (n) => `pausiere den ${n} Timer`,
    pauseSized: (d) => `pausiere den ${d} Timer`,
    pause: 'pausiere den Timer',
    stop: 'stopp',
    cancelAll: 'lösche alle Timer',
  },
};

interface SayForms {
  hour: { one: string; other: string };
  minute: { one: string; other: string };
  second: { one: string; other: string };
  and: string;
}

function sayForms(lang: string): SayForms {
  const file = join(ROOT, 'packs', lang, 'durations.yaml');
  const say = (parse(readFileSync(file, 'utf8')) as { say?: SayForms }).say;
  if (!say?.hour || !say.minute || !say.second || !say.and) throw new Error(`${file}: say: needs hour, minute, second and and`);
  return say;
}

export function phrases(lang: string): Phrases {
  const p = PHRASES[lang];
  if (!p) throw new Error(`no Home Assistant runner phrases for language ${JSON.stringify(lang)} (have: ${Object.keys(PHRASES).join(', ')})`);
  return { lang, ...p };
}

const UNITS = [
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
] as const;
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A duration as a setup line says it: 3660 → "1 hour 1 minute" ("1 hora 1 minuto", "1 Stunde 1 Minute"). */
export function spoken(seconds: number, lang: string): string {
  const say = sayForms(lang);
  let rest = seconds;
  const parts: string[] = [];
  for (const [unit, size] of UNITS) {
    const n = Math.floor(rest / size);
    rest -= n * size;
    if (n) parts.push(`${n} ${n === 1 ? say[unit].one : say[unit].other}`);
  }
  return parts.join(' ');
}

/** Durations (in seconds) as numbers in what hark said: "9 minutes and 50 seconds" → 590. */
export function durationsIn(text: string, lang: string): number[] {
  const say = sayForms(lang);
  const size = new Map<string, number>();
  for (const [unit, s] of UNITS) for (const w of [say[unit].one, say[unit].other]) size.set(w.toLowerCase(), s);
  const words = [...size.keys()]
    .sort((a, b) => b.length - a.length)
    .map(escape)
    .join('|');
  const re = new RegExp(`(\\d+) (${words})(?![\\p{L}])`, 'giu');
  const joiner = new RegExp(`^(,? ${escape(say.and)} |, | )$`, 'i');
  const out: number[] = [];
  let m: RegExpExecArray | null;
  let lastEnd = -1;
  while ((m = re.exec(text))) {
    const v = Number(m[1]) * size.get(m[2]!.toLowerCase())!;
    const gap = lastEnd >= 0 ? text.slice(lastEnd, m.index) : null;
    if (gap !== null && joiner.test(gap)) out[out.length - 1]! += v;
    else out.push(v);
    lastEnd = m.index + m[0].length;
  }
  return out;
}
