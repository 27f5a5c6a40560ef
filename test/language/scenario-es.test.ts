import { describe, expect, it } from 'vitest';
import { script, simulate } from '../conversation/sim.js';

/**
 * A Spanish kitchen through a real `hark simulate` (language.languages: [es]): timers set, cancelled
 * and stopped, a list, never mind, dictation in and out, and a confirmation answered "sí" and "no",
 * every word hark says in Spanish.
 */
const yaml = 'router:\n  mode: always-listen\nlanguage:\n  languages: [es]\n';

describe('a Spanish kitchen', () => {
  it('timers, a list, never mind, dictation and a confirmation, all said in Spanish', async () => {
    const r = await simulate(
      script(
        'pon un temporizador de arroz de diez minutos',
        'pon un temporizador de pasta de cinco minutos',
        'cancela el temporizador de pasta',
        'añade dos kilos de cebollas a la lista de la compra',
        '¿qué hay en la lista de la compra?',
        'olvídalo',
        'empezar dictado',
        'la mesa cinco quiere el pescado sin sal',
        'fin del dictado',
        'start inventory',
        'apples',
        'cancel',
        'no',
        'cancel',
        'sí',
        { text: 'para', atMs: 602_000 },
      ),
      { yaml, drainMs: 0 },
    );
    expect(r.spoken()).toEqual([
      'Temporizador de arroz puesto para 10 minutos.',
      'Temporizador de pasta puesto para 5 minutos.',
      'Cancelado el temporizador de pasta. Sigue en marcha 1 temporizador.',
      'He añadido dos kilos de cebollas a la lista de compra.',
      'La lista de compra: dos kilos de cebollas.',
      'Dictando. Di fin del dictado cuando termines.',
      'Inventario. Di cada artículo y luego guardar.',
      '¿Descartar 1 artículo? Di sí o no.',
      'Conservo 1 artículo.',
      '¿Descartar 1 artículo? Di sí o no.',
      'Descartado 1 artículo.',
      'Temporizador de arroz terminado.',
    ]);
    expect(r.actions().map((a) => a.name)).toEqual(['timer.set', 'timer.set', 'timer.cancel', 'list.add', 'list.read', 'stop', 'timer.done']);
    expect(r.submissions().map((s) => s.text)).toEqual(['la mesa cinco quiere el pescado sin sal']);
    expect(r.of('timer').find((t) => t.event === 'stopped')).toMatchObject({ label: 'arroz', by: 'voice', atMs: 602_000 });
  });
});
