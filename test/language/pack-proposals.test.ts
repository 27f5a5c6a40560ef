import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKS_DIR } from '../../src/language/pack/files.js';
import { readPack } from '../../src/language/pack/load.js';
import { languageOf } from '../../src/language/pack/language.js';
import { PROPOSAL_INTENTS } from '../../src/language/pack/proposals.js';
import { DEFAULT_INTENTS } from '../../src/intent/intent-spec.js';

/**
 * proposals.yaml, the intent pass's questions in a language: every shipped pack asks every
 * built-in intent, and a pack that leaves one out, names a slot hark does not fill or writes a
 * broken timer phrase is refused when it is read (at start), with its file and path.
 */
const packFiles = (code: string) => new Map(readdirSync(join(PACKS_DIR, code)).map((f) => [f, readFileSync(join(PACKS_DIR, code, f), 'utf8')]));
const problems = (code: string, edit: (t: string) => string): string[] => {
  const files = packFiles(code);
  files.set('proposals.yaml', edit(files.get('proposals.yaml')!));
  try {
    readPack(files, `packs/${code}`, code);
    return [];
  } catch (err) {
    return (err as Error).message.split('\n');
  }
};

describe('proposals.yaml', () => {
  it('names the intents the pass ships with', () => {
    expect(DEFAULT_INTENTS.map((i) => i.name)).toEqual([...PROPOSAL_INTENTS]);
  });

  it.each(['en', 'es', 'de'])('%s asks and clarifies every built-in intent, and names a timer with and without a name', (code) => {
    const lang = languageOf(readPack(packFiles(code), `packs/${code}`, code));
    for (const name of PROPOSAL_INTENTS) {
      expect(lang.pack.proposals.ask[name]).toBeTruthy();
      expect(lang.pack.proposals.clarify[name]).toBeTruthy();
    }
    expect(lang.timerPhrase('a_timer', 'pasta')).not.toBe(lang.timerPhrase('a_timer', undefined));
    expect(lang.timerPhrase('the_timer', 'pasta')).toMatch(/pasta/i);
  });

  it('a missing question stops the pack with its file and path', () => {
    expect(problems('es', (t) => t.replace(/^ {2}set_timer: '¿Pongo.*\n/m, ''))).toEqual([
      'packs/es/proposals.yaml: ask.set_timer: is missing: every pack writes the questions of each built-in intent',
    ]);
    expect(problems('de', (t) => t.replace(/^unclear: .*\n/m, ''))).toEqual(['packs/de/proposals.yaml: unclear: is missing: every pack says it']);
    expect(problems('es', (t) => t.replace(/^ {2}reported: .*\n/m, ''))).toEqual(['packs/es/proposals.yaml: said.reported: is missing: every pack says it']);
    expect(problems('en', (t) => t.replace("'Counted {what}.'", "'Counted {item}.'"))).toEqual([
      'packs/en/proposals.yaml: said.counted: unknown slot {item}: hark gives this {what}',
    ]);
  });

  it('an unknown slot, or a timer phrase that reads another argument or does not parse, is named', () => {
    expect(problems('es', (t) => t.replace('{duration}?', '{duracion}?'))).toEqual([
      'packs/es/proposals.yaml: ask.set_timer: unknown slot {duracion} (slots: {object}, {item}, {quantity}, {unit}, {list}, {duration}, {timer}, {theTimer})',
    ]);
    expect(problems('en', (t) => t.replace("other {a {name} timer}}'", "other {a {label} timer}}'"))).toEqual([
      'packs/en/proposals.yaml: a_timer: unknown slot {label}: hark gives this {name}',
    ]);
    expect(problems('en', (t) => t.replace("other {the {name} timer}}'", "other {the {name} timer}'"))).toEqual([
      expect.stringMatching(/^packs\/en\/proposals\.yaml: the_timer: .* in "\{name, select/),
    ]);
  });
});
