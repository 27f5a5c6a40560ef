import { describe, expect, it } from 'vitest';
import { script, simulate, type SimResult } from '../conversation/sim.js';

/**
 * Items put on a list named without the word for a list ("añadir manzanas a Mercadona", "add
 * apples to costco", "füge Äpfel zu Aldi hinzu"). A list hark has takes them; one it does not have
 * is answered in the language spoken, naming the list it does not know, the lists it has and how
 * to start this one, and nothing is kept. Said with the word ("the costco list"), a list is started
 * as it always was.
 */
const yaml = 'router:\n  mode: always-listen\nlanguage:\n  languages: [en, es, de]\n';
const run = (...lines: string[]) => simulate(script(...lines), { yaml, drainMs: 0 });
const said = (h: SimResult) => h.of('speak').map((e) => (e.lang ? `[${String(e.lang)}] ${String(e.text)}` : String(e.text)));
/** Through `hark simulate`: the query's words go to the submissions file, which keeps them without answering. */

describe('a list named without the word for a list', () => {
  it('one hark does not have: it says so in the language spoken, and keeps nothing', async () => {
    const h = await run('añadir manzanas a mercadona', 'add apples to costco', 'füge einen kasten milch zu aldi hinzu');
    expect(said(h)).toEqual([
      '[es] No tengo una lista mercadona. Mis listas son compra y almacén. Para empezarla, di: añade manzanas a la lista mercadona.',
      'I have no costco list. My list is shopping. To start one, say: add apples to the costco list.',
      '[de] Eine Aldi-Liste habe ich nicht. Meine Listen: einkaufs und lager. Um sie anzulegen, sag: füge einen Kasten Milch zur Aldi-Liste hinzu.',
    ]);
    expect(h.of('list')).toEqual([]);
  }, 30_000);

  it('what hark says to do starts the list, and then the short way reaches it', async () => {
    const h = await run('añade manzanas a la lista mercadona', 'añadir peras a mercadona', 'add milk to shopping');
    expect(h.actions()).toEqual([
      { name: 'list.add', args: { list: 'mercadona', item: 'manzanas', lang: 'es' } },
      { name: 'list.add', args: { list: 'mercadona', item: 'peras', lang: 'es' } },
      { name: 'list.add', args: { list: 'shopping', item: 'milk' } },
    ]);
  });

  it('words with no word for adding are not read again: kitchen talk stays talk', async () => {
    const h = await run('we went to costco', 'fuimos a mercadona');
    expect(h.of('action')).toEqual([]);
    expect(h.spoken()).toEqual([]);
  });
});
