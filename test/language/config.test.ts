import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { validateConfig } from '../../src/config/load.js';
import { HARK_BIN } from '../support/paths.js';
import { script, simulate } from '../conversation/sim.js';

const run = promisify(execFile);

/**
 * A technician adds a phrasing as a line of data (language.templates, language.rules), and hark
 * hears it at once; a bad line is refused at start with its path, never when someone speaks.
 */
describe('language: phrasings from the config', () => {
  const yaml = `language:
  templates:
    timer.cancel: ['zap [the] {timer}']
    list.add: ['bung {items} in the basket for <the_list>']
  rules:
    cancel: [belay]
  replies:
    noted: Noted for the chef.
`;

  it('a new template and a new word for a rule are heard like the built-in ones, through hark simulate', async () => {
    const r = await simulate(
      script(
        'computer set a rice timer for ten minutes',
        'computer set a chips timer for six minutes',
        { text: 'computer zap the rice timer', atMs: 20_000 },
        { text: 'computer belay the chips timer', atMs: 30_000 },
        { text: 'computer bung three lemons in the basket for the stores list', atMs: 40_000 },
        { text: 'computer tell the chef we are out of capers', atMs: 50_000 },
      ),
      { yaml, drainMs: 10_000 },
    );
    expect(r.actions().slice(2)).toEqual([
      { name: 'timer.cancel', args: { label: 'rice' } },
      { name: 'timer.cancel', args: { label: 'chips' } },
      { name: 'list.add', args: { list: 'stores', item: 'lemons', quantity: 3 } },
    ]);
    expect(r.spoken().at(-1)).toBe('Noted for the chef.');
  });

  it('without them, the same words are not a request', async () => {
    const r = await simulate(script('computer set a rice timer for ten minutes', { text: 'computer zap the rice timer', atMs: 20_000 }), { drainMs: 0 });
    expect(r.actions().map((a) => a.name)).toEqual(['timer.set']);
    expect(r.spoken().at(-1)).toBe("I didn't get what to do with the rice timer.");
  });

  it.each([
    ['templates:\n    timer.cancel: ["zap [the] {tmer}"]', 'language.templates.timer.cancel.0: unknown slot {tmer}'],
    ['templates:\n    timer.nix: ["nix {timer}"]', 'language.templates.timer.nix: unknown intent "timer.nix"'],
    ['templates:\n    timer.cancel: ["zap (the {timer}"]', 'language.templates.timer.cancel.0: "(" at column 5 is never closed with ")"'],
    ['rules:\n    cancle: [nix]', 'language.rules.cancle: unknown rule <cancle>'],
    ['templates:\n    timer.cancel: "nix {timer}"', 'language.templates.timer.cancel: must be a list of templates'],
  ])('refuses a bad line with its path: %j', async (section, message) => {
    const dir = mkdtempSync(join(tmpdir(), 'hark-lang-'));
    const file = join(dir, 'hark.yaml');
    writeFileSync(file, `language:\n  ${section}\n`);
    const err = (await run(process.execPath, [HARK_BIN, 'config', '--config', file]).catch((e: unknown) => e)) as { code: number; stderr: string };
    expect(err.code).toBe(2);
    expect(err.stderr).toContain(message);
  });

  it('the defaults: no extra phrasings, and the replies hark says', () => {
    expect(validateConfig({}, 'test').language).toEqual({ languages: ['en'], templates: {}, rules: {}, replies: {} });
  });

  it('language.languages names packs that ship; one that does not, or a bad code, is refused with its path', () => {
    expect(validateConfig({ language: { languages: ['en', 'es', 'de'] } }, 'test').language.languages).toEqual(['en', 'es', 'de']);
    const refused = (languages: unknown) => {
      try {
        validateConfig({ language: { languages } }, 'test');
      } catch (err) {
        return (err as Error).message;
      }
      return 'accepted';
    };
    expect(refused(['en', 'xx'])).toMatch(/language\.languages\.1: language pack "xx": no language pack "xx" in .*packs.* \(packs: de, en, es\)/);
    expect(refused(['EN'])).toMatch(/language\.languages\.0: must be a language code such as en or es/);
    expect(refused(['es', 'es'])).toMatch(/language\.languages\.1: "es" is named twice/);
    expect(refused([])).toMatch(/language\.languages: must name at least one language/);
  });
});
