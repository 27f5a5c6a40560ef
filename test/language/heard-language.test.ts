import { describe, expect, it } from 'vitest';
import { script, simulate } from '../conversation/sim.js';

/**
 * A transcript that names its language (a multilingual engine's, or a text line's "[es]") is read
 * in that language first, and that language wins a tie. Through a real `hark simulate` on a device
 * with [en, es] whose English has been taught "pausa <timer>" as a cancel (language.templates add
 * to the first language), so the same words mean cancel in English and pause in Spanish.
 */
const yaml = `device:\n  area: kitchen\nrouter:\n  mode: always-listen\nlanguage:\n  languages: [en, es]\n  templates:\n    timer.cancel: ['pausa {timer}']\n`;
const setRice = 'pon un temporizador de arroz de diez minutos';

describe('the language a transcript names', () => {
  it('the same words read by the language named: Spanish pauses the timer, English cancels it', async () => {
    const es = await simulate(script(setRice, '[es] pausa arroz'), { yaml, drainMs: 0 });
    expect(es.stderr).toBe('');
    expect(es.actions().map((a) => a.name)).toEqual(['timer.set', 'timer.pause']);
    expect(es.of('heard')[1]).toMatchObject({ text: 'pausa arroz', language: 'es' });
    const en = await simulate(script(setRice, '[en] pausa arroz'), { yaml, drainMs: 0 });
    expect(en.actions().map((a) => a.name)).toEqual(['timer.set', 'timer.cancel']);
  });

  it('unnamed, the tie goes to the first configured language; a JSON line names it with "language"', async () => {
    const r = await simulate(
      script(
        setRice,
        'pausa arroz',
        { text: 'pon un temporizador de pasta de cinco minutos', atMs: 3000 },
        { text: 'pausa pasta', language: 'es', atMs: 4000 },
      ),
      { yaml, drainMs: 0 },
    );
    expect(r.actions().map((a) => a.name)).toEqual(['timer.set', 'timer.cancel', 'timer.set', 'timer.pause']);
  });

  it('a named language the device does not hear is refused with the languages it has, and the rest goes on', async () => {
    const r = await simulate(script('[fr] pausa arroz', setRice), { yaml, drainMs: 0 });
    expect(r.stderr).toContain('line 1: language "fr" is not one of this device\'s (language.languages: en, es) (line skipped)');
    expect(r.actions().map((a) => a.name)).toEqual(['timer.set']);
  });
});
