import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bench, describe } from 'vitest';
import { readElsewhereList } from '../../src/command/list-elsewhere.js';
import { kitchenLanguage } from '../../src/language/config.js';
import { readRequest } from '../../src/language/understand.js';
import { NOTHING_OWNED } from '../../src/language/situation.js';
import { said } from '../../src/language/text.js';
import { HARK_BIN, ROOT } from '../support/paths.js';

/**
 * What languages cost at start and on the words no sentence reads. `hark simulate` start-up: the
 * built CLI from spawn to exit on an empty script, with one language and with three (each pack is
 * read and checked whole at start, and each language's frames are built). And the re-reading that
 * finds a list named without the word for a list ("add apples to costco"), paid only by words that
 * hold a word for adding and that no sentence read. Run `npm run build` first (the CLI is dist/).
 */
const dir = mkdtempSync(join(tmpdir(), 'hark-bench-lang-'));
const config = (langs: string) => {
  const file = join(dir, `${langs.replace(/\W+/g, '-')}.yaml`);
  writeFileSync(file, `language:\n  languages: [${langs}]\n`);
  return file;
};
const one = config('en');
const three = config('en, es, de');
const start = (cfg: string) => {
  const r = spawnSync(process.execPath, [HARK_BIN, 'simulate', '--drain-ms', '0', '--out-dir', dir, '--config', cfg], {
    cwd: ROOT,
    input: '',
    env: { ...process.env, HARK_CONFIG: '' },
  });
  if (r.status !== 0) throw new Error(`hark simulate exited ${r.status}: ${r.stderr.toString()}`);
};

describe('hark simulate start-up (spawn to exit, empty script)', () => {
  bench('1 language [en]', () => start(one), { iterations: 5, time: 0, warmupIterations: 1 });
  bench('3 languages [en, es, de]', () => start(three), { iterations: 5, time: 0, warmupIterations: 1 });
});

const k3 = kitchenLanguage({ languages: ['en', 'es', 'de'] });
const unknown = said('añadir manzanas a mercadona');
describe('a list named without the word for a list, on [en, es, de]', () => {
  bench('read as said (no sentence reads it)', () => void readRequest(k3, unknown, NOTHING_OWNED));
  bench('read again with the word put in (list-elsewhere)', () => void readElsewhereList(unknown, k3, NOTHING_OWNED));
});
