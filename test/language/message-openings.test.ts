import { describe, expect, it } from 'vitest';
import { script, simulate } from '../conversation/sim.js';

/**
 * A message for someone else, said after the wake phrase ("tell the chef the rice timer is done"), is
 * kept for them, in every language of the device: its opening words are the pack's message_openings.
 * Read as a question to hark it named a timer hark owns and got "I didn't understand what to do with
 * the rice timer" instead.
 */
describe('a message for someone else is kept, not answered, in the language it is said in', () => {
  it.each([
    [
      'es',
      'oye computadora pon un temporizador de arroz de diez minutos',
      'oye computadora dile al chef que el temporizador de arroz está listo',
      'dile al chef que el temporizador de arroz está listo',
    ],
    ['de', 'computer stell einen Reis Timer auf zehn Minuten', 'computer sag dem Koch der Reis Timer ist fertig', 'sag dem Koch der Reis Timer ist fertig'],
    ['en', 'computer set a rice timer for ten minutes', 'computer tell the chef the rice timer is done', 'tell the chef the rice timer is done'],
  ])('%s: "%s", then "%s"', async (lang, set, message, kept) => {
    const yaml = `language:\n  languages: [${lang}]\n`;
    const r = await simulate(script({ text: set, language: lang, atMs: 1000 }, { text: message, language: lang, atMs: 10_000 }, { atMs: 30_000 }), {
      yaml,
      drainMs: 0,
    });
    expect(r.of('submit')).toEqual([expect.objectContaining({ frame: 'query', text: kept })]);
    // Nothing said about the timer the message names: only the timer's own reply and the note that it was kept.
    expect(r.of('speak').filter((e) => Number(e.atMs) >= 10_000)).toHaveLength(1);
  });
});
