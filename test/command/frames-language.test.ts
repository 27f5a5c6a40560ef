import { describe, expect, it } from 'vitest';
import { harness } from './harness.js';

/**
 * Each frame answers in the language of the words that opened it, on a device that hears English,
 * Spanish and German: its prompts, its replies and a confirmation it asks, each `speak` carrying
 * the language (so the speaker picks that language's voice) when it is not the device's first.
 * Opened in English, a frame answers in English as it always has.
 */
const config = { language: { languages: ['en', 'es', 'de'] } };
const said = (h: ReturnType<typeof harness>) => h.of('speak').map((e) => (e.lang ? `[${e.lang}] ${e.text}` : e.text));

describe('a frame answers in the language that opened it', () => {
  it('confirm: a question asked in Spanish is said, answered and timed out in Spanish', async () => {
    const h = harness({ config });
    await h.script('empezar inventario', 'manzanas', 'cancelar', 'la mesa cinco', 'sí');
    await h.script('empezar inventario', 'peras', 'cancelar');
    h.clock.advanceBy(10_000);
    expect(said(h)).toEqual([
      '[es] Inventario. Di cada artículo y luego guardar.',
      '[es] ¿Descartar 1 artículo? Di sí o no.',
      '[es] ¿Sí o no?',
      '[es] Descartado 1 artículo.',
      '[es] Inventario. Di cada artículo y luego guardar.',
      '[es] ¿Descartar 1 artículo? Di sí o no.',
      '[es] Sin respuesta, así que no he hecho nada.',
    ]);
  });

  it("confirm: a Spanish question is answered with another of the device's languages' yes", async () => {
    const h = harness({ config });
    await h.script('empezar inventario', 'manzanas', 'cancelar', 'yes');
    expect(said(h).at(-1)).toBe('[es] Descartado 1 artículo.');
  });

  it('dictation: opened in Spanish (named by speech-to-text), its prompt and hint are Spanish; opened in English, English', async () => {
    const h = harness({ config });
    h.sayIn('es', 'empezar dictado');
    await h.script('la mesa cinco', 'para', 'fin del dictado', 'start dictation', 'stop', 'end dictation');
    expect(said(h)).toEqual([
      '[es] Dictando. Di fin del dictado cuando termines.',
      '[es] Sigo dictando. Di fin del dictado, o pulsa el botón.',
      'Dictating. Say end dictation when you are done.',
      'Still dictating. Say end dictation, or tap the button.',
    ]);
    expect(h.submits().map((s) => s.text)).toEqual(['la mesa cinco para', 'stop']);
  });

  it('inventory: opened in German, every reply is German', async () => {
    const h = harness({ config });
    await h.script('Inventur starten', 'Äpfel', 'Milch', 'rückgängig', 'vorlesen', 'speichern');
    expect(said(h)).toEqual([
      '[de] Inventur. Sag jeden Artikel, dann speichern.',
      '[de] Milch entfernt.',
      '[de] 1 Artikel: Äpfel.',
      '[de] 1 Artikel gespeichert.',
    ]);
    expect(h.of('speak')[2]).toMatchObject({ answer: true, lang: 'de' });
  });

  it('query: opened by a Spanish wake phrase, its read-back and "nothing to send" are Spanish', async () => {
    const h = harness({ config });
    await h.script('oye computadora', 'léelo', 'envía');
    expect(said(h)).toEqual(['[es] Todavía nada.', '[es] No hay nada que enviar.']);
  });

  it('voice: the picker opened in Spanish asks, and is cancelled, in Spanish; with no voices it says so in Spanish', async () => {
    const h = harness({ config });
    h.sayIn('es', 'cambiar voz');
    await h.script('cancelar', 'cambia la voz');
    h.clock.advanceBy(15_000);
    expect(said(h)).toEqual([
      '[es] ¿Qué voz? american, british, scottish, caribbean. O di cancelar.',
      '[es] La voz no cambia.',
      '[es] ¿Qué voz? american, british, scottish, caribbean. O di cancelar.',
      '[es] La voz no cambia.',
    ]);
    const none = harness({ config, voices: [] });
    await none.script('Stimme wechseln');
    expect(said(none)).toEqual(['[de] Es gibt keine Stimmen zur Auswahl.']);
  });

  it("the mode words are each language's, and the mode is said in the language asked in", async () => {
    const h = harness({ config });
    await h.script('escucha siempre', '¿qué modo?', 'welcher Modus', 'what mode', 'Aktivierungswort Modus', 'wake word mode');
    expect(h.of('mode').map((e) => e.mode)).toEqual(['always-listen', 'wake-word', 'wake-word']);
    expect(said(h)).toEqual([
      '[es] Siempre escuchando.',
      '[es] Siempre escuchando.',
      '[de] Ich höre immer zu.',
      'Always listening.',
      '[de] Aktivierungswort-Modus. Sag zuerst Computer.',
      'Wake word mode. Say computer first.',
    ]);
  });

  it('the language speech-to-text names wins over the words: "start inventory" heard as German answers in German', async () => {
    const h = harness({ config });
    h.sayIn('de', 'start inventory');
    await h.settle();
    expect(said(h)).toEqual(['[de] Inventur. Sag jeden Artikel, dann speichern.']);
  });

  it('opened in English, every frame answers in English with no language on its lines', async () => {
    const h = harness({ config });
    await h.script('start inventory', 'apples', 'cancel', 'no', 'save', 'switch voice', 'cancel', 'computer', 'read back', 'go');
    expect(h.of('speak').map((e) => e.text)).toEqual([
      'Inventory. Say each item, then save.',
      'Discard 1 item? Say yes or no.',
      'Kept 1 item.',
      'Saved 1 item.',
      'Which voice? american, british, scottish, caribbean. Or say cancel.',
      'Voice unchanged.',
      'Nothing yet.',
      'Nothing to send.',
    ]);
    expect(h.of('speak').filter((e) => e.lang !== undefined)).toEqual([]);
  });
});
