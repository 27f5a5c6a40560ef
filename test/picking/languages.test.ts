import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HARK_BIN } from '../support/paths.js';
import { assignment, events, replies, scratch, type Line } from './sim.js';
import { WmsDouble } from './wms-double.js';

/**
 * Picking in Spanish and in German, through `hark simulate --live-wms` as a technician runs it: the
 * device's first language is the picker's (language.languages), every prompt is its pack's
 * picking.yaml, numbers are its numbers.yaml's ("cuatro siete", "siebenundvierzig"), and every result
 * reaches the warehouse double. Three picks (generated: check digits 47, 84, 31; quantities 2, 3,
 * 1): sign-on, a wrong check-digit reading, "say again", a short pick confirmed, a skip, to the end.
 * Bounded: each run has a 30 s timeout and at most 5 s to deliver.
 */
let wms: WmsDouble;
beforeAll(async () => {
  wms = await new WmsDouble().start();
});
afterAll(() => wms.close());

function run(dir: string, languages: string, said: string[], file: string): Promise<Line[]> {
  writeFileSync(
    join(dir, 'hark.yaml'),
    `language:\n  languages: ${languages}\npicking:\n  enabled: true\n  wms:\n    url: ${wms.url}\n    holdMs: 0\n    retryFirstMs: 50\n`,
  );
  const input = said.map((text, i) => JSON.stringify({ text, atMs: (i + 1) * 6000 })).join('\n') + '\n';
  const args = [
    HARK_BIN,
    'simulate',
    '-c',
    join(dir, 'hark.yaml'),
    '--out-dir',
    join(dir, 'out'),
    '--drain-ms',
    '0',
    '--live-wms',
    '--wms-drain-ms',
    '5000',
    '--assignment',
    file,
  ];
  return new Promise((resolve, reject) => {
    const child = execFile(process.execPath, args, { timeout: 30_000, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err && typeof err.code !== 'number') return reject(new Error(`${err.message}\n${stderr}`));
      resolve(
        stdout
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as Line),
      );
    });
    child.stdin!.end(input);
  });
}

const scenarios = [
  {
    lang: 'es',
    languages: '[es, en]',
    unit: { unit: 'caja', unitPlural: 'cajas' },
    said: ['conectar', 'uno dos', 'cuatro ocho', 'cuatro siete', 'repita', 'falta', 'uno', 'sí', 'saltar ubicación', 'tres uno', 'uno', 'ocho cuatro', 'tres'],
    heard: [
      ['¿Número de operario?'],
      ['Operario 1 2 conectado. Tarea nueva, 3 recogidas. Pasillo 1, ubicación 11.'],
      ['Incorrecto. Pasillo 1, ubicación 11.'],
      ['Recoja 2 cajas.'],
      ['Recoja 2 cajas.'],
      ['¿Cantidad recogida?'],
      ['Faltante 1, ¿correcto?'],
      ['Pasillo 2, ubicación 12.'],
      ['Ubicación saltada. Pasillo 3, ubicación 13.'],
      ['Recoja 1 caja.'],
      ['Pasillo 2, ubicación 12.'],
      ['Recoja 3 cajas.'],
      ['Tarea terminada. Todavía no hay tarea. Espere.'],
    ],
  },
  {
    lang: 'de',
    languages: '[de]',
    unit: { unit: 'Kiste', unitPlural: 'Kisten' },
    said: [
      'anmelden',
      'eins zwei',
      'vier acht',
      'siebenundvierzig',
      'noch mal',
      'Fehlmenge',
      'eins',
      'ja',
      'Platz überspringen',
      'einunddreißig',
      'eins',
      'acht vier',
      'drei',
    ],
    heard: [
      ['Mitarbeiternummer?'],
      ['Mitarbeiter 1 2 angemeldet. Neuer Auftrag, 3 Entnahmen. Gang 1, Platz 11.'],
      ['Falsch. Gang 1, Platz 11.'],
      ['2 Kisten entnehmen.'],
      ['2 Kisten entnehmen.'],
      ['Entnommene Menge?'],
      ['Fehlmenge 1, richtig?'],
      ['Gang 2, Platz 12.'],
      ['Platz übersprungen. Gang 3, Platz 13.'],
      ['1 Kiste entnehmen.'],
      ['Gang 2, Platz 12.'],
      ['3 Kisten entnehmen.'],
      ['Auftrag abgeschlossen. Noch kein Auftrag. Bitte warten.'],
    ],
  },
];

describe('picking in the language of the device', () => {
  for (const s of scenarios) {
    it(`${s.lang}: every prompt in ${s.lang}, every result at the warehouse system`, async () => {
      const dir = scratch(`lang-${s.lang}`);
      const file = join(dir, 'a.json');
      const id = `L-${s.lang}`;
      writeFileSync(file, JSON.stringify(assignment(id, 3, () => s.unit)));
      const lines = await run(dir, s.languages, s.said, file);
      expect(replies(lines)).toEqual(s.heard);
      expect(events(lines, 'wrong-check')).toHaveLength(1);
      expect(events(lines, 'skipped')).toHaveLength(1);
      // Spoken with the device's first language's voice: no line carries another language.
      expect(lines.filter((l) => l.type === 'speak' && l.lang !== undefined)).toEqual([]);
      const kept = wms.kept
        .filter((d) => d.body.assignment === id)
        .map((d) => ({ id: d.id, quantity: d.body.quantity, picked: d.body.picked, short: d.body.short }));
      expect(kept).toEqual([
        { id: `${id}/P1`, quantity: 2, picked: 1, short: true },
        { id: `${id}/P3`, quantity: 1, picked: 1, short: false },
        { id: `${id}/P2`, quantity: 3, picked: 3, short: false },
      ]);
    }, 60_000);
  }

  it('on an [en, es] device a picker who signs on in Spanish is answered in Spanish, with its voice', async () => {
    const dir = scratch('lang-en-es');
    const file = join(dir, 'a.json');
    writeFileSync(file, JSON.stringify(assignment('L-en-es', 1, () => ({ unit: 'caja', unitPlural: 'cajas' }))));
    const lines = await run(dir, '[en, es]', ['conectar', 'uno dos', 'cuatro siete'], file);
    const speak = lines.filter((l) => l.type === 'speak').map((l) => ({ text: l.text, lang: l.lang }));
    expect(speak).toEqual([
      { text: '¿Número de operario?', lang: 'es' },
      { text: 'Operario 1 2 conectado. Tarea nueva, 1 recogida. Pasillo 1, ubicación 11.', lang: 'es' },
      { text: 'Recoja 2 cajas.', lang: 'es' },
    ]);
  }, 60_000);
});
