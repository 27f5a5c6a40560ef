import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPack, PACKS_DIR } from '../../src/language/pack/files.js';
import { PackError, readPack } from '../../src/language/pack/load.js';
import { defaultFrames } from '../../src/command/defaults.js';
import { languageOf } from '../../src/language/pack/language.js';
import { english, packLanguage } from '../../src/language/pack/english.js';

/** A pack's frame words (frames.yaml) are held to their shape when it is read, each problem named by file and path. */
function files(lang: string): Map<string, string> {
  const dir = join(PACKS_DIR, lang);
  return new Map(readdirSync(dir).map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
}

function problems(f: Map<string, string>, lang = 'es'): string[] {
  try {
    readPack(f, `packs/${lang}`, lang);
  } catch (err) {
    if (err instanceof PackError) return err.message.split('\n');
    throw err;
  }
  return [];
}

describe("a pack's frame words", () => {
  it('a broken or unknown entry stops the pack with the file and the path', () => {
    const f = files('es');
    f.set(
      'frames.yaml',
      f
        .get('frames.yaml')!
        .replace(/switch_voice: .*/, 'switch_voice: {a: 1}')
        .replace('\nvoice:\n', '\nvoz:\n'),
    );
    expect(problems(f)).toEqual([
      'packs/es/frames.yaml: base.switch_voice: must be a list of words or phrases',
      "packs/es/frames.yaml: voice: is missing: every pack writes each frame's words",
      'packs/es/frames.yaml: Unrecognized key: "voz"',
    ]);
  });

  it("a whole pack without frames.yaml is refused; one with a fallback takes the fallback's", () => {
    const f = files('es');
    f.delete('frames.yaml');
    expect(problems(f)).toEqual(['packs/es/frames.yaml: is missing: every pack has this file (or names a fallback in pack.yaml)']);
    f.set('pack.yaml', `${f.get('pack.yaml')!}\nfallback: en\n`);
    expect(readPack(f, 'packs/es', 'es', (l) => loadPack(l)).frames.base.switch_voice).toEqual(['switch voice', 'change voice', 'change the voice']);
  });

  it("written as said: '¿qué modo?' is heard as 'qué modo'; English's words stay on a Spanish-only device", () => {
    const base = defaultFrames([packLanguage('es')]).base!.rules;
    const exact = base.flatMap((r) => (typeof r === 'object' && 'exact' in r ? [r] : []));
    expect(exact.find((r) => r.exact.includes('qué modo'))).toMatchObject({ do: ['say-mode'] });
    expect(exact.find((r) => r.exact.includes('start inventory'))).toMatchObject({ lang: 'en', do: [{ push: 'inventory' }] });
    expect(languageOf(english().pack).pack.frames.base.start_inventory).toEqual(['start inventory']);
  });
});
