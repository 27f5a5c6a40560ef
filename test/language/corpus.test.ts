import { describe, expect, it } from 'vitest';
import { loadCorpusFile, type Entry } from './corpus/entries.js';
import { generatedEntries } from './corpus/generated.js';
import { runCorpus, score, type Mode } from './corpus/run.js';

/**
 * Phrasing corpus through a real `hark simulate`, in both listening modes: generated
 * requests, hand-written requests, and hand-written talk between people that must not be taken as
 * a command. The accuracy and every miss are printed; the floor below is what the language holds.
 *
 * To measure another build (the "before"): HARK_CORPUS_BIN=/path/to/bin/hark.js.
 */
const entries: Entry[] = [...generatedEntries(), ...loadCorpusFile('requests.txt'), ...loadCorpusFile('talk.txt')];
/** Written after the language and not tuned to it: reported apart, with no floor but its own. */
const fresh: Entry[] = [...loadCorpusFile('fresh.txt'), ...loadCorpusFile('fresh2.txt')];

function report(mode: Mode, entries: Entry[], name: string): number {
  const verdicts = runCorpus(entries, mode);
  const misses = verdicts.map((v, i) => ({ ...v, e: entries[i]! })).filter((v) => !v.ok);
  const bySource = (s: string) => {
    const idx = entries.map((e, i) => (e.source.startsWith(s) ? i : -1)).filter((i) => i >= 0);
    return `${idx.filter((i) => verdicts[i]!.ok).length}/${idx.length}`;
  };
  console.log(
    `${name}, ${mode}: ${entries.length - misses.length}/${entries.length} (generated ${bySource('generated')}, requests ${bySource('corpus/requests')}, talk ${bySource('corpus/talk')}, held out ${bySource('corpus/fresh.txt')} and ${bySource('corpus/fresh2.txt')})` +
      misses.map((m) => `\n  miss [${m.e.source}] "${m.e.text}": ${m.why}`).join(''),
  );
  return (entries.length - misses.length) / entries.length;
}

describe('the phrasing corpus', () => {
  it('has several hundred lines, requests and talk', () => {
    expect(entries.length).toBeGreaterThanOrEqual(400);
    expect(entries.filter((e) => e.expect.kind === 'talk').length).toBeGreaterThanOrEqual(150);
  });

  it('the scoring is not vacuous: with nothing happening only talk passes, and a wrong action fails', () => {
    const passed = entries.filter((e, i) => score(e, [], i, 'wake-word').ok);
    expect(passed.every((e) => e.expect.kind === 'talk')).toBe(true);
    const i = entries.findIndex((e) => e.expect.kind === 'actions');
    const at = i * 150_000 + 40_000;
    expect(score(entries[i]!, [{ type: 'action', name: 'timer.status', args: { label: 'we' }, atMs: at }], i, 'wake-word').ok).toBe(false);
  });

  for (const mode of ['wake-word', 'always-listen'] as const) {
    it(`reads at least 95% of it in ${mode} mode`, () => {
      expect(report(mode, entries, 'corpus')).toBeGreaterThanOrEqual(0.95);
    }, 300_000);
    it(`the held-out set, in ${mode} mode: reported, and at least 70%`, () => {
      expect(report(mode, fresh, 'held out')).toBeGreaterThanOrEqual(0.7);
    }, 300_000);
  }
});
