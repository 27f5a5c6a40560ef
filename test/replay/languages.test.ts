import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hark, writeConfig, writeLog, type Spoken } from './fixtures.js';

/**
 * `hark replay --config` with another language set, on a real segment log through the real CLI:
 * "had this kitchen had Spanish on, what would its Spanish requests have done?"
 */
const at = Date.now() - 3_600_000;
const kitchen: Spoken[] = [
  // Long words in one breath after the wake phrase (the query frame's 4 s would close on a second segment).
  { at, phrase: 'computer pon un temporizador de arroz de diez minutos', heard: 'Computer, pon un temporizador de arroz de diez minutos.' },
];

let dir: string;
let db: string;
let ids: number[];
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hark-replay-lang-'));
  db = join(dir, 'hark.db');
  ({ ids } = await writeLog(db, kitchen));
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('hark replay --config with other languages', () => {
  it('reads the stored words with the languages set: the Spanish request sets its timer', async () => {
    const spanish = writeConfig(dir, 'es.yaml', { language: { languages: ['en', 'es'] } });
    const r = await hark(['replay', '--db', db, '--text-only', '--config', spanish]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toMatch(new RegExp(`^#${ids[0]} .* differs .*actions: \\(none\\) → timer\\.set\\{seconds=600,label=arroz,lang=es\\}`));
  });

  it('hands each stored utterance\'s language back to the router: a stored es "pausa arroz" replays as Spanish', async () => {
    // English taught "pausa <timer>" as a cancel: the same words pause in Spanish and cancel in English,
    // so only the stored language decides (unnamed, the tie goes to the first language, English).
    const taught = writeConfig(dir, 'taught.yaml', {
      router: { mode: 'always-listen' },
      language: { languages: ['en', 'es'], templates: { 'timer.cancel': ['pausa {timer}'] } },
    });
    const spoken = (language?: string): Spoken[] => [
      { at, phrase: 'pon un temporizador de arroz de diez minutos', heard: 'Pon un temporizador de arroz de diez minutos.', ...(language ? { language } : {}) },
      { at: at + 6000, phrase: 'pausa arroz', heard: 'Pausa arroz.', ...(language ? { language } : {}) },
    ];
    const names = async (log: string) => {
      const r = await hark(['replay', '--db', log, '--text-only', '--config', taught, '--json']);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      const rows = r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { type: string; new?: { actions: { name: string; args: { lang?: string } }[] } });
      return rows.filter((x) => x.type === 'segment').flatMap((x) => x.new!.actions.map((a) => `${a.name}${a.args?.lang ? `/${a.args.lang}` : ''}`));
    };
    const es = join(dir, 'es.db');
    await writeLog(es, spoken('es'));
    expect(await names(es)).toEqual(['timer.set/es', 'timer.pause/es']);
    // Its line names the language it was heard in, as a simulate line does.
    const all = await hark(['replay', '--db', es, '--text-only', '--config', taught, '--all']);
    expect(all.stdout).toMatch(/ text: \[es\] "Pausa arroz\."  actions: \(none\) → timer\.pause\{label=arroz,lang=es\}/);
    const unnamed = join(dir, 'unnamed.db');
    await writeLog(unnamed, spoken());
    expect(await names(unnamed)).toEqual(['timer.set/es', 'timer.cancel']);
  }, 60_000);
});
