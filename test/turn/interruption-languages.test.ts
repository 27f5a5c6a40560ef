import { describe, expect, it } from 'vitest';
import { script, simulate } from '../conversation/sim.js';

/**
 * Words said over hark are read with the pack of the language they were heard in: a Spanish
 * backchannel ("vale") lets hark talk on, Spanish command words ("para") stop it. Through a real
 * `hark simulate` on a device with [en, es] (the path the daemon's segments take: Conversation's
 * interruption filter, then the router), hark speaking its 46-character Spanish confirmation
 * (3.2 s at simulate's 70 ms a character) while the next lines come 1 s apart.
 */
const setRice = 'pon un temporizador de arroz de diez minutos';
const device = (mode: string) => `device:\n  area: kitchen\nrouter:\n  mode: ${mode}\nlanguage:\n  languages: [en, es]\n`;
const decisions = (r: Awaited<ReturnType<typeof simulate>>) => r.of('interruption').map((l) => [l.text, l.decision]);

describe('the interruption filter in the language heard', () => {
  it('a Spanish "vale" over hark is a backchannel: hark talks on to the end', async () => {
    const r = await simulate(script(setRice, '[es] vale'), { yaml: device('always-listen'), drainMs: 0 });
    expect(r.stderr).toBe('');
    expect(decisions(r)).toEqual([['vale', 'filter']]);
    expect(r.of('speak.stopped')).toEqual([]);
    expect(r.actions().map((a) => a.name)).toEqual(['timer.set']);
  });

  it('the same "vale" named English is not an English backchannel: it takes the floor', async () => {
    const r = await simulate(script(setRice, '[en] vale'), { yaml: device('always-listen'), drainMs: 0 });
    expect(decisions(r)).toEqual([['vale', 'allow']]);
    expect(r.of('speak.stopped')).toHaveLength(1);
  });

  it('unnamed, "vale" is a backchannel of one of the device\'s languages: hark talks on', async () => {
    const r = await simulate(script(setRice, 'vale'), { yaml: device('always-listen'), drainMs: 0 });
    expect(decisions(r)).toEqual([['vale', 'filter']]);
    expect(r.of('speak.stopped')).toEqual([]);
  });

  it('a Spanish "para" over hark stops it, in wake-word mode too (it is said to hark)', async () => {
    for (const mode of ['always-listen', 'wake-word']) {
      const first = mode === 'wake-word' ? `computer ${setRice}` : setRice;
      const r = await simulate(script(first, '[es] vale', '[es] para'), { yaml: device(mode), drainMs: 0 });
      expect(r.stderr).toBe('');
      expect(decisions(r), mode).toEqual([
        ['vale', 'filter'],
        ['para', 'allow'],
      ]);
      const stopped = r.of('speak.stopped');
      expect(stopped, mode).toHaveLength(1);
      expect(stopped[0]!.text).toBe('Temporizador de arroz puesto para 10 minutos.');
      // Cut off when "para" was said, not when "vale" was.
      const para = r.of('heard').find((l) => l.text === 'para')!;
      expect(stopped[0]!.atMs, mode).toBe(para.atMs);
    }
  });

  it('a Spanish-only device reads words over hark with Spanish backchannels, not the default English list', async () => {
    const r = await simulate(script(setRice, 'vale', 'yeah'), { yaml: 'router:\n  mode: always-listen\nlanguage:\n  languages: [es]\n', drainMs: 0 });
    expect(r.stderr).toBe('');
    expect(decisions(r)).toEqual([
      ['vale', 'filter'],
      ['yeah', 'allow'],
    ]);
  });
});
