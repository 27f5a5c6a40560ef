import { describe, expect, it } from 'vitest';
import { loadCorpusFile, type CorpusFile } from './corpus/entries.js';
import { runCorpus, type CorpusLanguage } from './corpus/run.js';

/**
 * hark's own Spanish and German phrasing corpora (requests, and kitchen talk that must not be
 * taken as a command) through a real `hark simulate` on a device that hears English and that
 * language, in both listening modes, set up in the language itself. The accuracy and every miss
 * are printed.
 */
for (const lang of ['es', 'de'] as const satisfies readonly CorpusLanguage[]) {
  describe(`the ${lang} phrasing corpus`, () => {
    const entries = [...loadCorpusFile(`requests-${lang}.txt` as CorpusFile), ...loadCorpusFile(`talk-${lang}.txt` as CorpusFile)];
    it('has requests and talk', () => {
      expect(entries.filter((e) => e.expect.kind === 'talk').length).toBeGreaterThanOrEqual(40);
      expect(entries.filter((e) => e.expect.kind !== 'talk').length).toBeGreaterThanOrEqual(50);
    });
    for (const mode of ['wake-word', 'always-listen'] as const) {
      it(`reads at least 95% of it in ${mode} mode`, () => {
        const v = runCorpus(entries, mode, lang);
        const miss = v.map((x, i) => ({ ...x, e: entries[i]! })).filter((x) => !x.ok);
        const n = (k: string) => `${entries.filter((e, i) => e.source.includes(k) && v[i]!.ok).length}/${entries.filter((e) => e.source.includes(k)).length}`;
        console.log(
          `corpus ${lang}, ${mode}: ${entries.length - miss.length}/${entries.length} (requests ${n('requests')}, talk ${n('talk')})` +
            miss.map((m) => `\n  miss [${m.e.source}] "${m.e.text}": ${m.why}`).join(''),
        );
        expect((entries.length - miss.length) / entries.length).toBeGreaterThanOrEqual(0.95);
      }, 300_000);
    }
  });
}
