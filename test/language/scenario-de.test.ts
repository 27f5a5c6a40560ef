import { describe, expect, it } from 'vitest';
import { script, simulate } from '../conversation/sim.js';

/**
 * A German kitchen through a real `hark simulate` (language.languages: [de]): timers set, cancelled
 * and stopped, a list, never mind, dictation in and out, and a confirmation answered "nein" and
 * "ja", every word hark says in German.
 */
const yaml = 'router:\n  mode: always-listen\nlanguage:\n  languages: [de]\n';

describe('a German kitchen', () => {
  it('timers, a list, never mind, dictation and a confirmation, all said in German', async () => {
    const r = await simulate(
      script(
        'stell einen Reistimer auf zehn Minuten',
        'stell einen Nudeltimer auf fünf Minuten',
        'lösche den Nudeltimer',
        'setz zwei Kilo Zwiebeln auf die Einkaufsliste',
        'was steht auf der Einkaufsliste',
        'vergiss es',
        'diktat starten',
        'tisch fünf möchte den fisch ohne salz',
        'diktat beenden',
        'start inventory',
        'apples',
        'cancel',
        'nein',
        'cancel',
        'ja',
        { text: 'stopp', atMs: 602_000 },
      ),
      { yaml, drainMs: 0 },
    );
    expect(r.spoken()).toEqual([
      'Reis-Timer auf 10 Minuten gestellt.',
      'Nudel-Timer auf 5 Minuten gestellt.',
      'Den Nudel-Timer abgebrochen. 1 Timer läuft noch.',
      'Zwei Kilo Zwiebeln auf die Einkaufs-Liste gesetzt.',
      'Die Einkaufs-Liste: zwei Kilo Zwiebeln.',
      'Diktat. Sag Diktat beenden, wenn du fertig bist.',
      'Inventur. Sag jeden Artikel, dann speichern.',
      '1 Artikel verwerfen? Sag ja oder nein.',
      '1 Artikel behalten.',
      '1 Artikel verwerfen? Sag ja oder nein.',
      '1 Artikel verworfen.',
      'Reis-Timer ist abgelaufen.',
    ]);
    expect(r.actions().map((a) => a.name)).toEqual(['timer.set', 'timer.set', 'timer.cancel', 'list.add', 'list.read', 'stop', 'timer.done']);
    expect(r.submissions().map((s) => s.text)).toEqual(['tisch fünf möchte den fisch ohne salz']);
    expect(r.of('timer').find((t) => t.event === 'stopped')).toMatchObject({ label: 'reis', by: 'voice', atMs: 602_000 });
  });
});
