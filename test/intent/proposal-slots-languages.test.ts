import { describe, expect, it } from 'vitest';
import { DEFAULT_INTENTS, type IntentSpec } from '../../src/intent/intent-spec.js';
import { fillSlots, missingSlot, proposalSlots } from '../../src/intent/proposal-slots.js';
import { askOf } from '../../src/intent/questions.js';
import { packLanguage } from '../../src/language/pack/english.js';

/**
 * A model's object read in the language the request was said in, and the question said back in it:
 * Spanish and German durations, items, list words and articles, each language's own way of naming
 * a timer (proposals.yaml a_timer / the_timer) and its lists ("compra" is the shopping list).
 */
const intent = (name: string): IntentSpec => DEFAULT_INTENTS.find((i) => i.name === name)!;
const ask = (code: string, name: string, target: string | null, said: string) => {
  const lang = packLanguage(code);
  const i = intent(name);
  const slots = proposalSlots(i, target, said, lang);
  return { slots, question: fillSlots(askOf(i, lang).text, slots, lang), missing: missingSlot(i, slots) };
};

describe('proposal slots in Spanish', () => {
  it.each([
    ['set_timer', 'pasta para 10 minutos', 'pon la pasta', '¿Pongo un temporizador de pasta de 10 minutos?', { seconds: 600, label: 'pasta' }],
    ['set_timer', '10 minutos', 'dame diez minutos', '¿Pongo un temporizador de 10 minutos?', { seconds: 600 }],
    ['set_timer', 'una hora y media para el asado', 'el asado', '¿Pongo un temporizador de asado de 1 hora y 30 minutos?', { seconds: 5400, label: 'asado' }],
    ['cancel_timer', 'el arroz', 'quita lo del arroz', '¿Cancelo el temporizador de arroz?', { label: 'arroz' }],
    [
      'add_to_list',
      'tres cajas de leche a la lista de pedidos',
      'nos faltan tres cajas de leche',
      '¿Añado tres cajas de leche a la lista de pedidos?',
      { item: 'leche', quantity: 3, unit: 'cajas', list: 'pedidos' },
    ],
    ['add_to_list', 'servilletas', 'no quedan servilletas', '¿Añado servilletas a la lista de compra?', { item: 'servilletas', list: 'shopping' }],
    ['remove_from_list', 'la leche', 'quita la leche de la lista de pedidos', '¿Quito leche de la lista de pedidos?', { item: 'leche', list: 'pedidos' }],
    ['read_list', 'lista de pedidos', 'qué hay en pedidos', '¿Leo la lista de pedidos?', { list: 'pedidos' }],
    [
      'inventory_count',
      '12 cajas de guantes',
      'tenemos doce cajas de guantes',
      '¿Anoto un recuento de doce cajas de guantes?',
      { item: 'guantes', quantity: 12 },
    ],
  ])('%s %j → %s', (name, target, said, question, slots) => {
    const r = ask('es', name, target, said);
    expect(r.question).toBe(question);
    expect(r.slots).toEqual(expect.objectContaining(slots));
    expect(r.missing).toBeNull();
  });

  it('a duration the object lacks is read from the Spanish utterance; none at all is what is missing', () => {
    expect(ask('es', 'set_timer', 'pasta', 'la pasta diez minutos').slots).toEqual(expect.objectContaining({ seconds: 600 }));
    expect(ask('es', 'set_timer', 'pasta', 'la pasta').missing).toBe('seconds');
  });
});

describe('proposal slots in German', () => {
  it.each([
    ['set_timer', 'Pasta für 10 Minuten', 'die Pasta', 'Soll ich einen Pasta-Timer auf 10 Minuten stellen?', { seconds: 600, label: 'pasta' }],
    ['set_timer', 'eine halbe Stunde', 'eine halbe Stunde bitte', 'Soll ich einen Timer auf 30 Minuten stellen?', { seconds: 1800 }],
    ['cancel_timer', 'Nudeltimer', 'weg mit dem Nudeltimer', 'Soll ich den Nudel-Timer abbrechen?', { label: 'nudel' }],
    [
      'add_to_list',
      '3 Kartons Milch auf die Bestell-Liste',
      'uns fehlen drei Kartons Milch',
      'Soll ich drei kartons milch auf die Bestell-Liste setzen?',
      { item: 'milch', quantity: 3, unit: 'kartons', list: 'bestell' },
    ],
    ['add_to_list', 'Servietten', 'keine Servietten mehr', 'Soll ich Servietten auf die Einkaufs-Liste setzen?', { item: 'servietten', list: 'shopping' }],
    ['read_list', 'Bestell-Liste', 'was steht auf der Bestell-Liste', 'Soll ich die Bestell-Liste vorlesen?', { list: 'bestell' }],
  ])('%s %j → %s', (name, target, said, question, slots) => {
    const r = ask('de', name, target, said);
    expect(r.question).toBe(question);
    expect(r.slots).toEqual(expect.objectContaining(slots));
    expect(r.missing).toBeNull();
  });
});

describe('the question a config writes itself', () => {
  it('wins over the pack in every language; askIn wins for its language', () => {
    const own: IntentSpec = { ...intent('locate_item'), ask: 'Find {item}?', askIn: { de: 'Wo ist {item}?' } };
    expect(askOf(own, packLanguage('es'))).toEqual({ text: 'Find {item}?', inLanguage: false });
    expect(askOf(own, packLanguage('de'))).toEqual({ text: 'Wo ist {item}?', inLanguage: true });
    expect(askOf(intent('locate_item'), packLanguage('es'))).toEqual({ text: '¿Busco dónde se guarda {item}?', inLanguage: true });
  });
});
