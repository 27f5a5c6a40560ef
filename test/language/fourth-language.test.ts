import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KitchenLanguage } from '../../src/language/kitchen.js';
import { PACKS_DIR } from '../../src/language/pack/files.js';
import { languageOf } from '../../src/language/pack/language.js';
import { readPack, type Pack } from '../../src/language/pack/load.js';
import { NOTHING_OWNED, type Situation } from '../../src/language/situation.js';
import { said } from '../../src/language/text.js';
import { readImperatives, readRequest } from '../../src/language/understand.js';

/**
 * The proof that a language needs no code: Italian, which hark does not ship, written here as data
 * only (a few intents, its numbers, durations, timer and list words, a few replies; the rest falls
 * back on English), read with the same machinery as English, Spanish and German.
 */
const ITALIAN: Record<string, string> = {
  'pack.yaml': 'language: it\nname: Italiano\nvoice: it\nfallback: en\n',
  'sentences.yaml': `
timer.start:
  - '<set> [un] <timer_word> (di|da|per) {duration} [(per [la|il]|della|del) {name}]'
timer.cancel:
  - '<cancel> {timer}'
list.add:
  - '<list_add> {items} (alla|nella|sulla) <the_list>'
imperative.stop:
  - '(basta|stop|fermati|silenzio|zitto)'
`,
  'rules.yaml': `
lead: [ok, allora, senti, per favore, puoi]
tail: [grazie, per favore]
set: [imposta, metti, avvia, fai partire]
timer_word: [timer]
cancel: [cancella, annulla, ferma, togli]
list_add: [aggiungi, metti, scrivi]
the_list: 'lista [(della|del|di) {list}]'
`,
  'numbers.yaml': `
values: {zero: 0, uno: 1, un: 1, due: 2, tre: 3, quattro: 4, cinque: 5, sei: 6, sette: 7, otto: 8, nove: 9, dieci: 10, quindici: 15, venti: 20, trenta: 30, quaranta: 40}
compounds: true
`,
  'durations.yaml': `
units: {secondo: 1, secondi: 1, minuto: 60, minuti: 60, ora: 3600, ore: 3600}
one: [un, una]
fractions: {mezzo: 0.5, mezza: 0.5}
and: [e]
of: [di, d]
quarters: [quarto, quarti]
couple: [paio]
another: [altri, altre]
more: [in più, di più]
corrections: ['no', anzi, scusa]
corrects: ['no', anzi, scusa]
say:
  hour: {one: ora, other: ore}
  minute: {one: minuto, other: minuti}
  second: {one: secondo, other: secondi}
  and: e
`,
  'lists.yaml': `
default: spesa
names: {spesa: shopping}
list_words: [lista]
list_name: [after]
one: [un, una]
item_start: [il, la, i, le, un, una]
articles: [il, la, lo, i, gli, le, un, una, del, della, dei, delle]
vague: [po, qualche]
measures: [chili, chilo, grammi, litri]
counts: {una dozzina di: 12}
joiners: [e]
of: [di]
item_edge: [alla, nella, sulla, e, di]
item_never: [lista, timer]
not_an_item: [che, cosa]
name_never: [la, lista, e]
`,
  'timers.yaml': `
rooms: [cucina]
determiners: [il, la, mio]
all: [tutti]
latest: [ultimo]
words: [timer]
plural: []
named: [chiamato]
for: [della, del, di, per]
in: [in]
the: [la, il]
name_never: [di, del, della, per]
name_edge: [la, il, di, della, del, per]
new_name_never: [timer, grazie]
command_verbs: [apri, chiudi, spegni]
command_not_before: [mi]
free_text_ends: [timer]
reminder_until: [tra, fra]
start_another: []
answer_all: [tutti]
answer_polite: [grazie]
alarm: [allarme, timer]
owned_words: [timer]
`,
  'replies.yaml': `
timer.named: 'timer {name}'
timer.set: '{name, select, none {timer} other {timer {name}}} impostato per {duration}.'
`,
};

function italian(): Pack {
  const en = readPack(new Map(readdirSync(join(PACKS_DIR, 'en')).map((f) => [f, readFileSync(join(PACKS_DIR, 'en', f), 'utf8')])), 'packs/en', 'en');
  return readPack(new Map(Object.entries(ITALIAN)), 'test/it', 'it', () => en);
}

describe('a fourth language, written as data in a test', () => {
  const it_ = languageOf(italian());
  const lang = new KitchenLanguage({}, it_);
  const pizza: Situation = { ...NOTHING_OWNED, timers: [{ label: 'pizza', seconds: 600, state: 'running' }] };

  it('loads, with only the intents it writes', () => {
    expect(lang.grammar.intentNames).toEqual(['timer.start', 'timer.cancel', 'list.add', 'imperative.stop']);
  });

  it('understands its timers, lists and "stop", with its own numbers and durations', () => {
    expect(readRequest(lang, said('imposta un timer di dieci minuti'), NOTHING_OWNED)).toEqual({
      kind: 'timer',
      command: { op: 'start', seconds: 600 },
      question: false,
      lang: 'it',
    });
    expect(readRequest(lang, said('allora, metti un timer di mezza ora per la pasta, grazie'), NOTHING_OWNED)).toEqual({
      kind: 'timer',
      command: { op: 'start', seconds: 1800, name: 'pasta' },
      question: false,
      lang: 'it',
    });
    expect(readRequest(lang, said('annulla il timer della pizza'), pizza)).toEqual({
      kind: 'timer',
      command: { op: 'cancel', pick: { name: 'pizza' }, all: false },
      question: false,
      lang: 'it',
    });
    // A list said in Italian is the device's shared shopping list.
    expect(readRequest(lang, said('aggiungi tre limoni alla lista della spesa'), NOTHING_OWNED)).toEqual({
      kind: 'list',
      command: { op: 'add', list: 'shopping', items: [{ item: 'limoni', quantity: 3 }] },
      question: false,
      lang: 'it',
    });
    expect(readImperatives(lang, said('basta'), NOTHING_OWNED)).toEqual([{ name: 'stop' }]);
    expect(it_.reply('timer.set', { name: 'pasta', duration: it_.durations.say(1800) })).toBe('Timer pasta impostato per 30 minuti.');
  });

  it('reads nothing it was not written for: an intent it lacks, English words, kitchen talk', () => {
    expect(readRequest(lang, said('quanto manca per la pizza'), pizza)).toBeNull();
    expect(readRequest(lang, said('set a timer for ten minutes'), NOTHING_OWNED)).toBeNull();
    expect(readRequest(lang, said('due minuti per l agnello'), NOTHING_OWNED)).toBeNull();
  });
});
