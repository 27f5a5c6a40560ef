import { describe, expect, it } from 'vitest';
import { rms } from '../../src/audio/pcm.js';
import { EARCON_NAMES, EarconBank, resolveEarcon } from '../../src/speech/earcons.js';

const ms = (pcm: Int16Array) => (pcm.length * 1000) / 16_000;

describe('earcons', () => {
  const bank = new EarconBank({ volume: 0.5 });

  it.each(EARCON_NAMES)('%s is a short, audible sound that starts and ends without a click', (name) => {
    const s = bank.get(name)!;
    expect(ms(s)).toBeGreaterThan(40);
    expect(ms(s)).toBeLessThan(1600);
    expect(rms(s)).toBeGreaterThan(0.05);
    // no sample beyond the 0.5 volume
    expect(Math.max(...s.map(Math.abs))).toBeLessThanOrEqual(Math.ceil(0.5 * 32767));
    // fades in and out: in the first and last millisecond the wave is under a tenth of its peak
    // (a tone that starts at full strength is heard as a click)
    let last = s.length;
    while (last > 0 && s[last - 1] === 0) last--;
    const peak = Math.max(...s.map(Math.abs));
    const edge = (a: number, b: number) => Math.max(...s.subarray(a, b).map(Math.abs));
    expect(edge(0, 16)).toBeLessThan(peak * 0.1);
    expect(edge(last - 16, last)).toBeLessThan(peak * 0.1);
  });

  it('listening-started and listening-ended sound different (rising, falling)', () => {
    expect(bank.get('listening')).not.toEqual(bank.get('listening-end'));
  });

  it('the timer is the longest: it must be heard across a kitchen', () => {
    const lengths = EARCON_NAMES.map((n) => ms(bank.get(n)!));
    expect(Math.max(...lengths)).toBe(ms(bank.get('timer')!));
  });

  it("takes the router's names and says no to unknown ones", () => {
    expect(bank.get('sent')).toBe(bank.get('confirmed'));
    expect(resolveEarcon('timer-done')).toBe('timer');
    expect(bank.get('fanfare')).toBeNull();
  });

  it('volume scales the sound; 0 is silent', () => {
    expect(rms(new EarconBank({ volume: 0 }).get('error')!)).toBe(0);
    expect(rms(new EarconBank({ volume: 1 }).get('error')!)).toBeCloseTo(2 * rms(bank.get('error')!), 2);
  });
});
