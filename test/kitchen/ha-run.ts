import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HARK_BIN, ROOT } from '../support/paths.js';
import { layout, loadCases, score, script, type Ev, type Mode, type Verdict } from './ha-cases.js';
import { phrases } from './ha-phrases.js';

/**
 * One language's Home Assistant sentences through a real `hark simulate` in one listening mode, on
 * a device that hears only that language (`language.languages: [<lang>]`) in the room the cases
 * name. Prints the figure and every miss; returns them.
 */
export function runHa(lang: string, mode: Mode): { passed: number; total: number; misses: (Verdict & { sentence: string })[] } {
  const cases = loadCases(lang);
  const dir = mkdtempSync(join(tmpdir(), `hark-ha-${lang}-`));
  const config = join(dir, 'hark.yaml');
  const languages = lang === 'en' ? '' : `language:\n  languages: [${lang}]\n`;
  writeFileSync(config, `device:\n  area: ${phrases(lang).room}\nrouter:\n  mode: ${mode}\n${languages}`);
  const r = spawnSync(process.execPath, [HARK_BIN, 'simulate', '--config', config, '--out-dir', dir, '--drain-ms', '0'], {
    cwd: ROOT,
    input: script(cases, mode, lang),
    encoding: 'utf8',
    timeout: 240_000,
    maxBuffer: 256 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`hark simulate exited ${r.status}: ${r.stderr.slice(-2000)}`);
  const events = r.stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Ev);
  const windows = layout(cases);
  const verdicts = cases.map((c, i) => ({ ...score(c, events, windows[i]!, lang), sentence: c.sentence }));
  const misses = verdicts.filter((v) => !v.ok);
  const passed = verdicts.length - misses.length;
  console.log(`HA intents (${lang}), ${mode}: ${passed}/${verdicts.length}` + misses.map((m) => `\n  miss ${m.id} "${m.sentence}": ${m.why}`).join(''));
  return { passed, total: verdicts.length, misses };
}
