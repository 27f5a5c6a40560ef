import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HARK_BIN, ROOT } from '../../support/paths.js';
import type { Entry, Setup } from './entries.js';

/**
 * The corpus through a real `hark simulate`, one window of virtual time per line, once per
 * listening mode. In wake-word mode a request is said after "computer"; talk is said half a second
 * after hark began reading a list aloud (so it is said over hark's voice and inside the follow-up
 * window: the two places a line between cooks can be mistaken for a command). In always-listen mode
 * everything is said plainly. Scored by what happens, not by hark's wording.
 */
export type Mode = 'wake-word' | 'always-listen';
type Ev = { type: string; atMs: number } & Record<string, unknown>;

const WINDOW_MS = 150_000;
const SAY_AT = 40_000;
/** What the line did is read from this long after it. */
const SCORE_MS = 30_000;
const CLEAN_AT = 100_000;
const LISTS = ['shopping', 'stores', 'prep', 'order'];

/** The situation each line is said in: three named timers and a line on two lists, or less. */
/** The same situations set up in Spanish and German, for their corpora (on a device that hears English too). */
const SETUPS_IN: Record<'es' | 'de', Record<Setup, string[]>> = {
  es: {
    standard: [
      'pon un temporizador de arroz de 10 minutos',
      'pon un temporizador de pollo de 20 minutos',
      'pon un temporizador de patatas de 6 minutos',
      'añade huevos a la lista de la compra',
      'añade harina a la lista del almacén',
    ],
    one: ['pon un temporizador de arroz de 10 minutos', 'añade huevos a la lista de la compra'],
    ring: ['pon un temporizador de arroz de 10 minutos', 'pon un temporizador de 30 segundos'],
    empty: [],
  },
  de: {
    standard: [
      'stell einen Reistimer auf 10 Minuten',
      'stell einen Hähnchentimer auf 20 Minuten',
      'stell einen Pommestimer auf 6 Minuten',
      'setz Eier auf die Einkaufsliste',
      'setz Mehl auf die Lagerliste',
    ],
    one: ['stell einen Reistimer auf 10 Minuten', 'setz Eier auf die Einkaufsliste'],
    ring: ['stell einen Reistimer auf 10 Minuten', 'stell einen Timer auf 30 Sekunden'],
    empty: [],
  },
};

/** Lines said before one that are hark's voice commands, said without the wake word. */
const PLAIN = /^(stop|continue|carry on|para|sigue|stopp|weiter)$/;

const SETUPS: Record<Setup, string[]> = {
  standard: [
    'set a rice timer for 10 minutes',
    'set a brisket timer for 20 minutes',
    'set a chips timer for 6 minutes',
    'add eggs to the shopping list',
    'add flour to the stores list',
  ],
  one: ['set a rice timer for 10 minutes', 'add eggs to the shopping list'],
  ring: ['set a rice timer for 10 minutes', 'set a timer for 30 seconds'],
  empty: [],
};

export type CorpusLanguage = 'en' | 'es' | 'de';

export function script(entries: readonly Entry[], mode: Mode, lang: CorpusLanguage = 'en'): string {
  const setups = lang === 'en' ? SETUPS : SETUPS_IN[lang];
  const w = mode === 'wake-word' ? 'computer ' : '';
  const lines: string[] = [];
  const at = (atMs: number, text?: string) => lines.push(JSON.stringify(text === undefined ? { atMs } : { text, atMs }));
  entries.forEach((e, i) => {
    const t0 = i * WINDOW_MS;
    setups[e.setup].forEach((l, k) => at(t0 + 1000 * (k + 1), w + l));
    e.before.forEach((l, k) => at(t0 + SAY_AT - 1000 * (e.before.length - k) - 600, PLAIN.test(l) ? l : w + l));
    if (e.expect.kind === 'talk' && mode === 'wake-word') at(t0 + SAY_AT - 500, "computer what's on the shopping list");
    at(t0 + SAY_AT, e.expect.kind === 'talk' ? e.text : w + e.text);
    at(t0 + CLEAN_AT, 'stop');
    at(t0 + CLEAN_AT + 5000, `${w}cancel all timers`);
    LISTS.forEach((l, k) => at(t0 + CLEAN_AT + 10_000 + 1000 * k, `${w}clear the ${l} list`));
  });
  at(entries.length * WINDOW_MS);
  return lines.join('\n') + '\n';
}

/** The arguments that say what an action does; others (utterance ids, the model's wording) are not compared. */
const MEANING = ['label', 'seconds', 'startSeconds', 'all', 'latest', 'room', 'here', 'command', 'list', 'item', 'items', 'quantity', 'unit', 'reference'];

function sameArgs(want: Record<string, unknown>, got: Record<string, unknown>): boolean {
  for (const k of new Set([...Object.keys(want), ...MEANING.filter((m) => m in got)])) {
    if (JSON.stringify(want[k]) !== JSON.stringify(got[k])) return false;
  }
  return true;
}

export interface Verdict {
  ok: boolean;
  why?: string;
}

export function score(e: Entry, events: readonly Ev[], i: number, mode: Mode): Verdict {
  const from = i * WINDOW_MS + SAY_AT;
  const win = events.filter((x) => x.atMs >= from && x.atMs < from + SCORE_MS);
  const actions = win.filter((x) => x.type === 'action' && x.name !== 'timer.done');
  const spoken = win.filter((x) => x.type === 'speak' && x.earcon !== 'timer');
  const fail = (why: string): Verdict => ({ ok: false, why });
  const did = () => actions.map((a) => `${String(a.name)} ${JSON.stringify(a.args)}`).join(', ') || 'nothing';
  const expect = e.expect.kind === 'unclear' && mode === 'always-listen' ? { kind: 'talk' as const } : e.expect;
  switch (expect.kind) {
    case 'talk': {
      if (actions.length) return fail(`acted: ${did()}`);
      if (win.some((x) => x.type === 'speak.stopped' && x.reason === 'barge-in')) return fail('cut hark off');
      if (spoken.length) return fail(`said ${JSON.stringify(spoken.map((s) => s.text))}`);
      return { ok: true };
    }
    case 'unclear': {
      if (actions.length) return fail(`acted: ${did()}`);
      if (win.some((x) => x.type === 'submit')) return fail('sent it to a file');
      return spoken.length ? { ok: true } : fail('said nothing');
    }
    case 'ring-stopped':
      return win.some((x) => x.type === 'timer' && x.event === 'stopped' && x.by === 'voice') ? { ok: true } : fail(`the ring was not stopped (did ${did()})`);
    case 'actions': {
      const want = expect.actions;
      if (
        actions.length !== want.length ||
        !want.every((w, k) => actions[k]!.name === w.name && sameArgs(w.args, actions[k]!.args as Record<string, unknown>))
      ) {
        const heard = spoken.map((s) => s.text).join(' / ');
        return fail(`did ${did()}${heard ? `; said ${JSON.stringify(heard)}` : ''}`);
      }
      return { ok: true };
    }
  }
}

/** Run every entry in one mode; the verdicts in entry order. */
/** `lang`: the corpus's language; es and de are run on a device that hears [en, lang]. */
export function runCorpus(entries: readonly Entry[], mode: Mode, lang: CorpusLanguage = 'en'): Verdict[] {
  const dir = mkdtempSync(join(tmpdir(), 'hark-corpus-'));
  const config = join(dir, 'hark.yaml');
  writeFileSync(config, `device:\n  area: kitchen\nrouter:\n  mode: ${mode}\n${lang === 'en' ? '' : `language:\n  languages: [en, ${lang}]\n`}`);
  const r = spawnSync(process.execPath, [process.env.HARK_CORPUS_BIN ?? HARK_BIN, 'simulate', '--config', config, '--out-dir', dir, '--drain-ms', '0'], {
    cwd: ROOT,
    input: script(entries, mode, lang),
    encoding: 'utf8',
    timeout: 240_000,
    maxBuffer: 512 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`hark simulate exited ${r.status}: ${r.stderr.slice(-2000)}`);
  const events = r.stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Ev);
  return entries.map((e, i) => score(e, events, i, mode));
}
