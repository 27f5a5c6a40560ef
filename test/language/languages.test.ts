import { describe, expect, it } from 'vitest';
import { script, simulate } from '../conversation/sim.js';

/**
 * One device, several languages (language.languages), through a real `hark simulate`: each line is
 * read in the language that explains it, and what hark keeps is shared — a timer set in Spanish is
 * changed and stopped in English, one list holds items said in English, Spanish and German.
 */
const yaml = (languages: string) => `device:\n  area: kitchen\nrouter:\n  mode: always-listen\nlanguage:\n  languages: ${languages}\n`;

describe('a bilingual kitchen', () => {
  it('sets a timer in Spanish, changes it in English, asks in Spanish, and "stop" silences its ring', async () => {
    const r = await simulate(
      script(
        'pon un temporizador de arroz de diez minutos',
        'add five minutes to the arroz timer',
        '¿cuánto le queda al temporizador del arroz?',
        { atMs: 905_000 },
        { text: 'stop', atMs: 906_000 },
      ),
      { yaml: yaml('[en, es]'), drainMs: 0 },
    );
    // A request said in the device's second language carries it; one in the first needs none.
    expect(r.actions().filter((a) => a.name !== 'timer.done')).toEqual([
      { name: 'timer.set', args: { seconds: 600, label: 'arroz', lang: 'es' } },
      { name: 'timer.add', args: { seconds: 300, label: 'arroz' } },
      { name: 'timer.status', args: { label: 'arroz', lang: 'es' } },
    ]);
    // Each reply in the language of its request; the ring in the timer's own (it was set in Spanish).
    expect(r.of('speak').map((e) => [e.text, e.lang])).toEqual([
      ['Temporizador de arroz puesto para 10 minutos.', 'es'],
      ['Added 5 minutes to the arroz timer: 14 minutes and 59 seconds left.', undefined],
      ['Tiempo restante del temporizador de arroz: 14 minutos y 58 segundos.', 'es'],
      ['Temporizador de arroz terminado.', 'es'],
    ]);
    expect(r.of('timer').find((t) => t.event === 'done')?.atMs).toBe(1000 + 900_000);
    expect(r.of('timer').find((t) => t.event === 'stopped')).toMatchObject({ by: 'voice', atMs: 906_000 });
  });

  it('answers list requests in the language they were said in, the same list either way', async () => {
    const r = await simulate(
      script(
        'añade tres limones a la lista de la compra',
        'add eggs to the shopping list',
        '¿qué hay en la lista de la compra?',
        'setz Milch auf die Einkaufsliste',
      ),
      { yaml: yaml('[en, es, de]'), drainMs: 0 },
    );
    expect(r.spoken()).toEqual([
      'He añadido tres limones a la lista de compra.',
      'Added eggs to the shopping list.',
      'La lista de compra: tres limones y eggs.',
      'Milch auf die Einkaufs-Liste gesetzt.',
    ]);
  });

  it('a Spanish timer is cancelled in English and asked about in Spanish: each answer in the language of its request', async () => {
    const r = await simulate(
      script(
        'pon un temporizador de arroz de diez minutos',
        'set a pasta timer for 5 minutes',
        'cancela el temporizador',
        'cancel the arroz timer',
        'cancela el temporizador de pasta',
      ),
      { yaml: yaml('[en, es]'), drainMs: 0 },
    );
    expect(r.spoken()).toEqual([
      'Temporizador de arroz puesto para 10 minutos.',
      'Pasta timer set for 5 minutes.',
      '¿Qué temporizador: el temporizador de arroz o el temporizador de pasta?',
      'Cancelled the arroz timer. 1 timer still running.',
      'Cancelado el temporizador de pasta.',
    ]);
  });

  it("a Spanish kitchen hears hark's own words in Spanish, and its timers' too", async () => {
    const r = await simulate(script('sigue', 'pon un temporizador', 'pon un temporizador de diez minutos', 'cancela el temporizador'), {
      yaml: yaml('[es]'),
      drainMs: 0,
    });
    expect(r.spoken()).toEqual([
      'No hay nada que continuar.',
      '¿Para cuánto tiempo? Por ejemplo: pon un temporizador de diez minutos.',
      'Temporizador puesto para 10 minutos.',
      'Cancelado el temporizador de 10 minutos.',
    ]);
  });

  it('one list holds what is added in each language; a Spanish or German request names the same list', async () => {
    const r = await simulate(
      script(
        'add eggs to the shopping list',
        'añade tres limones a la lista de la compra',
        'setz Milch auf die Einkaufsliste',
        'put flour on the stores list',
        'pon dos kilos de cebollas en la lista del almacén',
      ),
      { yaml: yaml('[en, es, de]'), drainMs: 0 },
    );
    expect(r.of('list').map((l) => [l.list, l.item])).toEqual([
      ['shopping', 'eggs'],
      ['shopping', 'limones'],
      ['shopping', 'milch'],
      ['stores', 'flour'],
      ['stores', 'cebollas'],
    ]);
  });

  it('English alone (the default) does not read Spanish: the same words are a query, not a timer', async () => {
    const r = await simulate(script('pon un temporizador de arroz de diez minutos'), { yaml: yaml('[en]'), drainMs: 0 });
    expect(r.actions()).toEqual([]);
  });
});
