import { describe, expect, it } from 'vitest';
import { script, simulate } from '../conversation/sim.js';

/**
 * The default frames' own words are each language's (packs/<lang>/words.yaml), through a real
 * `hark simulate`: a Spanish cook wakes hark with "oye computadora" and answers a confirmation with
 * "sí", a German with "ja" and "nein", on a device that also hears English.
 */
const yaml = (languages: string, mode = 'wake-word') => `router:\n  mode: ${mode}\nlanguage:\n  languages: ${languages}\n`;

describe("the frames' words in every language of the device", () => {
  it('the wake phrase of each language wakes hark, and the query it opens is cancelled in that language', async () => {
    const r = await simulate(
      script(
        'oye computadora pon un temporizador de diez minutos',
        'hallo computer stell einen timer auf fünf minuten',
        'computer set a pasta timer for 3 minutes',
        { text: 'oye computadora', atMs: 30_000 },
        { text: 'olvídalo', atMs: 31_000 },
        { text: 'pon un temporizador de arroz de un minuto', atMs: 32_000 },
      ),
      { yaml: yaml('[en, es, de]'), drainMs: 0 },
    );
    expect(r.actions().map((a) => a.args)).toEqual([
      { seconds: 600, lang: 'es' },
      { seconds: 300, lang: 'de' },
      { seconds: 180, label: 'pasta' },
    ]);
    // "olvídalo" closed the query "oye computadora" opened, so the last line, with no wake word and
    // long after the follow-up window, is ignored (the open query would have taken it).
    expect(r.of('ignored').map((e) => e.text)).toEqual(['pon un temporizador de arroz de un minuto']);
  });

  it('a confirmation is answered "sí" and "no" in Spanish, "ja" and "nein" in German', async () => {
    const round = (answer: string) => ['start inventory', 'apples', 'cancel', answer];
    const es = await simulate(script(...round('sí'), ...round('no'), 'save', ...round('vale gracias')), { yaml: yaml('[en, es]'), drainMs: 0 });
    expect(es.spoken().filter((t) => /^(Discarded|Kept)/.test(t))).toEqual(['Discarded 1 item.', 'Kept 1 item.', 'Discarded 1 item.']);
    const de = await simulate(script(...round('ja'), ...round('nein danke')), { yaml: yaml('[en, de]'), drainMs: 0 });
    expect(de.spoken().filter((t) => /^(Discarded|Kept)/.test(t))).toEqual(['Discarded 1 item.', 'Kept 1 item.']);
  });

  it('dictation is opened and left in Spanish, its words kept', async () => {
    const r = await simulate(script('empezar dictado', 'la mesa cinco quiere el pescado sin sal', 'fin del dictado'), {
      yaml: yaml('[en, es]', 'always-listen'),
      drainMs: 0,
    });
    expect(r.submissions().map((s) => s.text)).toEqual(['la mesa cinco quiere el pescado sin sal']);
  });
});
