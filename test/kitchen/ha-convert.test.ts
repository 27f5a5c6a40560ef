import { describe, expect, it } from 'vitest';

/** scripts/ha-intents/convert.mjs: Home Assistant's test YAML → the cases the kitchen tests score. */
interface Converted {
  source: { commit: string; paths: string[] };
  cases: { id: string; intent: string; sentence: string; expect: Record<string, unknown>; source: string }[];
}
type Convert = (lang: string, commit: string, read: (p: string) => string, list: string[]) => Converted;
const SCRIPT = '../../scripts/ha-intents/convert.mjs';
const { convert, INTENTS } = (await import(SCRIPT)) as { convert: Convert; INTENTS: string[] };

const fileOf = (intent: string) =>
  `tests/xx/${intent === 'HassShoppingListAddItem' ? 'shopping_list' : intent === 'HassListAddItem' ? 'todo' : 'homeassistant'}_${intent}.yaml`;
const EMPTY = (intent: string) => `language: xx\ntests:\n  - sentences: ["${intent} sentence"]\n    intent:\n      name: ${intent}\n`;

function run(files: Record<string, string>) {
  const all: Record<string, string> = Object.fromEntries(INTENTS.map((i) => [fileOf(i), EMPTY(i)]));
  Object.assign(all, files);
  return convert('xx', 'c0ffee', (p) => all[p]!, Object.keys(all));
}

describe('the Home Assistant test sentence converter', () => {
  it('restates slots as a kitchen appliance reads them, de-duplicates, and names where each case came from', () => {
    const out = run({
      [fileOf('HassDecreaseTimer')]: `tests:
  - sentences: ["quitar 5 minutos del temporizador de 1 hora", "Quitar 5 minutos del  temporizador de 1 hora"]
    intent: {name: HassDecreaseTimer, slots: {minutes: 5, start_hours: 1}}
  - sentences: ["reducir temporizador pizza en 30 segundos"]
    intent: {name: HassDecreaseTimer, slots: {seconds: 30, name: ["pizza ", "pizza"], area: Cocina}}
`,
      [fileOf('HassStartTimer')]: `tests:
  - sentences: ["Öffne die Garagentür in 5 Minuten"]
    intent: {name: HassStartTimer, slots: {minutes: 5, conversation_command: ["Öffne die Garagentür"]}}
`,
      [fileOf('HassListAddItem')]: `tests:
  - sentences: ["añade manzanas a Mercadona"]
    intent: {name: HassListAddItem, slots: {item: manzanas, name: Mercadona}}
`,
    });
    const dec = out.cases.filter((c) => c.intent === 'HassDecreaseTimer');
    expect(dec.map((c) => [c.id, c.expect, c.source])).toEqual([
      ['HassDecreaseTimer-01', { seconds: 300, target_seconds: 3600 }, `${fileOf('HassDecreaseTimer')}#tests[0]`],
      ['HassDecreaseTimer-02', { seconds: 30, name: 'pizza', area: 'Cocina' }, `${fileOf('HassDecreaseTimer')}#tests[1]`],
    ]);
    expect(out.cases.find((c) => c.intent === 'HassStartTimer')?.expect).toEqual({ seconds: 300, command: 'öffne die garagentür' });
    expect(out.cases.find((c) => c.intent === 'HassListAddItem')?.expect).toEqual({ item: 'manzanas', list: 'Mercadona' });
    expect(out.cases.find((c) => c.intent === 'HassShoppingListAddItem')?.expect).toEqual({ list: 'shopping list' });
    expect(out.source).toMatchObject({ commit: 'c0ffee', paths: INTENTS.map(fileOf) });
  });

  it('refuses a slot it does not know, or a file that is missing, naming the file', () => {
    const bad = `tests:\n  - sentences: [x]\n    intent: {name: HassPauseTimer, slots: {colour: red}}\n`;
    expect(() => run({ [fileOf('HassPauseTimer')]: bad })).toThrow(`${fileOf('HassPauseTimer')}#tests[0]: slot colour is not one the converter knows`);
    expect(() => convert('xx', 'c0ffee', () => '', [])).toThrow(`${fileOf('HassStartTimer')}: not in home-assistant/intents at c0ffee`);
  });
});
