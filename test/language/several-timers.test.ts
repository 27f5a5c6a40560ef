import { describe, expect, it } from 'vitest';
import { script, simulate } from '../conversation/sim.js';

/**
 * Several timers in one breath in Spanish and German (timers.yaml `start_many`), through a real
 * `hark simulate`: each timer is set and answered in the language it was asked in.
 */
const yaml = 'router:\n  mode: always-listen\nlanguage:\n  languages: [en, es, de]\n';

describe('two timers in one breath', () => {
  it('in Spanish and in German, each set and answered in its language', async () => {
    const r = await simulate(
      script(
        'pon un temporizador de pasta de diez minutos y otro de cinco minutos',
        'pon un temporizador de diez minutos y otro temporizador de salsa de cinco minutos',
        'stell einen Nudeltimer auf zehn Minuten und noch einen Soßentimer auf fünf Minuten',
      ),
      { yaml, drainMs: 0 },
    );
    expect(r.actions().map((a) => a.args)).toEqual([
      { seconds: 600, label: 'pasta', lang: 'es' },
      { seconds: 300, lang: 'es' },
      { seconds: 600, lang: 'es' },
      { seconds: 300, label: 'salsa', lang: 'es' },
      { seconds: 600, label: 'nudel', lang: 'de' },
      { seconds: 300, label: 'soßen', lang: 'de' },
    ]);
    expect(r.spoken()).toEqual([
      'Temporizador de pasta puesto para 10 minutos.',
      'Temporizador puesto para 5 minutos.',
      'Temporizador puesto para 10 minutos.',
      'Temporizador de salsa puesto para 5 minutos.',
      'Nudel-Timer auf 10 Minuten gestellt.',
      'Soßen-Timer auf 5 Minuten gestellt.',
    ]);
  });
});
