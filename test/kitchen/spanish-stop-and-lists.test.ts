import { describe, expect, it } from 'vitest';
import { script, simulate } from '../conversation/sim.js';

/**
 * Spanish "para" / "detener" said of one timer pauses it, said of several timers stops them all
 * (as Home Assistant's Spanish reads "para temporizadores", "detener temporizadores en cocina"), and
 * a list hark already keeps may be named without the word "lista" ("añade manzanas a Mercadona"),
 * while a name that is no list of hark's is not taken for one ("añade sal a la sopa").
 */
const yaml = `device:\n  area: cocina\nrouter:\n  mode: always-listen\nlanguage:\n  languages: [es]\n`;
const twoTimers = ['pon un temporizador de pizza de 10 minutos', 'pon un temporizador de 7 minutos'];

describe('Spanish stop verbs: one timer paused, several stopped', () => {
  it.each(['para temporizadores', 'detenga todos mis temporizadores', 'parar los temporizadores en la cocina', 'detener temporizadores en cocina'])(
    '"%s" cancels every timer',
    async (line) => {
      const r = await simulate(script(...twoTimers, line), { yaml, drainMs: 0 });
      const t = r.of('timer');
      expect(
        t
          .filter((e) => e.event === 'cancelled')
          .map((e) => e.id)
          .sort(),
      ).toEqual([1, 2]);
      expect(t.filter((e) => e.event === 'paused')).toEqual([]);
    },
  );

  it.each(['para temporizador pizza', 'detener temporizador con nombre pizza', 'parar el temporizador de pizza'])(
    '"%s" pauses the pizza timer only',
    async (line) => {
      const r = await simulate(script(...twoTimers, line), { yaml, drainMs: 0 });
      const t = r.of('timer');
      expect(t.filter((e) => e.event === 'paused').map((e) => e.id)).toEqual([1]);
      expect(t.filter((e) => e.event === 'cancelled')).toEqual([]);
    },
  );
});

describe('Spanish lists named without "lista"', () => {
  it('"añadir manzanas a Mercadona" adds to the Mercadona list hark keeps', async () => {
    const r = await simulate(script('añade leche a la lista de Mercadona', 'añadir manzanas a Mercadona'), { yaml, drainMs: 0 });
    expect(r.of('list').map((e) => [e.op, e.list, e.item])).toEqual([
      ['add', 'mercadona', 'leche'],
      ['add', 'mercadona', 'manzanas'],
    ]);
  });

  it('a name that is no list is not one: "añade sal a la sopa" and "añadir manzanas a Mercadona" with no such list add nothing', async () => {
    const r = await simulate(script('añade leche a la lista de la compra', 'añade sal a la sopa', 'añadir manzanas a Mercadona'), { yaml, drainMs: 0 });
    expect(r.of('list').map((e) => [e.op, e.list, e.item])).toEqual([['add', 'shopping', 'leche']]);
  });
});
