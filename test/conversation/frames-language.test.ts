import { describe, expect, it } from 'vitest';
import { script, simulate } from './sim.js';

/**
 * Through a real `hark simulate` on a device that hears English, Spanish and German: a frame opened
 * in Spanish or German answers in it, its lines carrying the language (the speaker's voice for it),
 * and a frame opened in English answers in English, on the same device in one conversation.
 */
const yaml = 'router:\n  mode: wake-word\nlanguage:\n  languages: [en, es, de]\n';

describe('frames answer in the language that opened them', () => {
  it('Spanish dictation, a German inventory and its confirmation, and an English inventory, in one conversation', async () => {
    const r = await simulate(
      script(
        '[es] empezar dictado',
        'la mesa cinco quiere el pescado sin sal',
        'fin del dictado',
        'Inventur starten',
        'Äpfel',
        'abbrechen',
        'ja',
        'start inventory',
        'apples',
        'cancel',
        'no',
        'save',
        '[es] ¿qué modo?',
      ),
      { yaml, drainMs: 0 },
    );
    expect(r.status).toBe(0);
    expect(r.of('speak').map((l) => [l.lang ?? 'en', l.text])).toEqual([
      ['es', 'Dictando. Di fin del dictado cuando termines.'],
      ['de', 'Inventur. Sag jeden Artikel, dann speichern.'],
      ['de', '1 Artikel verwerfen? Sag ja oder nein.'],
      ['de', '1 Artikel verworfen.'],
      ['en', 'Inventory. Say each item, then save.'],
      ['en', 'Discard 1 item? Say yes or no.'],
      ['en', 'Kept 1 item.'],
      ['en', 'Saved 1 item.'],
      ['es', 'Modo palabra de activación. Di computadora primero.'],
    ]);
    expect(r.submissions().map((s) => s.text)).toEqual(['la mesa cinco quiere el pescado sin sal']);
  });

  it('a query opened by "oye computadora" reads back in Spanish; one opened by "computer" in English', async () => {
    const r = await simulate(script('oye computadora', 'léelo', 'olvídalo', 'computer', 'read back', 'cancel'), { yaml, drainMs: 0 });
    expect(r.of('speak').map((l) => [l.lang ?? 'en', l.text])).toEqual([
      ['es', 'Todavía nada.'],
      ['en', 'Nothing yet.'],
    ]);
  });
});
