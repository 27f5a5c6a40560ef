import { describe, expect, it } from 'vitest';
import { script, simulate } from '../conversation/sim.js';

/**
 * "I didn't get what to do with the pasta timer" in the language the reply is said in: the thing
 * hark owns is named in that language's words, whichever language the timer was set in and
 * whether or not speech-to-text named the words' language.
 */
const yaml = 'language:\n  languages: [en, es]\n';
const lines = (r: Awaited<ReturnType<typeof simulate>>) => r.of('speak').map((e) => (e.lang ? `[${String(e.lang)}] ${String(e.text)}` : String(e.text)));

describe('the unclear reply names the thing in its own language', () => {
  it.each([
    ['a Spanish query, its words untagged', { text: 'oye computadora la pasta está de lado' }],
    ['a Spanish query, its words named Spanish', { text: 'oye computadora la pasta está de lado', language: 'es' }],
    ['a Spanish query naming the timer in Spanish', { text: 'oye computadora el temporizador de pasta está de lado' }],
  ])(
    '%s',
    async (_what, line) => {
      const r = await simulate(script('computer set a pasta timer for ten minutes', { ...line, atMs: 10_000 }), { yaml, drainMs: 0 });
      expect(lines(r)).toEqual(['Pasta timer set for 10 minutes.', '[es] No he entendido qué hacer con el temporizador de pasta.']);
    },
    60_000,
  );

  it('an English query about a timer set in Spanish is answered in English words', async () => {
    const r = await simulate(
      script('oye computadora pon un temporizador de pasta de diez minutos', { text: 'computer the pasta timer sideways', atMs: 10_000 }),
      {
        yaml,
        drainMs: 0,
      },
    );
    expect(lines(r)).toEqual(['[es] Temporizador de pasta puesto para 10 minutos.', "I didn't get what to do with the pasta timer."]);
  }, 60_000);

  it('a ringing alarm asked about in Spanish words, untagged, is named and silenced in Spanish', async () => {
    const r = await simulate(script('computer set a timer for 5 seconds', { text: 'oye computadora qué es esa alarma', atMs: 8000 }), { yaml, drainMs: 0 });
    expect(lines(r)).toContain('[es] No he entendido qué hacer con la alarma. Di para para silenciarla.');
  }, 60_000);
});
