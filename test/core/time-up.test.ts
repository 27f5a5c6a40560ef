import { describe, expect, it } from 'vitest';
import { TimeUp } from '../../src/core/time-up.js';

describe('TimeUp: speech-to-text’s time at shutdown, raced by every transcription', () => {
  it('a wait still running when time is up gives its stand-in; one that finished first gives its result', async () => {
    const up = new TimeUp();
    let finish!: (v: string) => void;
    const slow = up.race(new Promise<string>((r) => (finish = r)), 'stopping');
    const quick = up.race(Promise.resolve('heard'), 'stopping');
    expect(await quick).toBe('heard');
    up.fire();
    expect(await slow).toBe('stopping');
    finish('too late');
    expect(await slow).toBe('stopping');
  });

  it('after time is up, work already done still counts; work not done does not wait', async () => {
    const up = new TimeUp();
    up.fire();
    expect(await up.race(Promise.resolve('done'), 'stopping')).toBe('done');
    expect(await up.race(new Promise(() => {}), 'stopping')).toBe('stopping');
  });

  it('a failure is passed on, and leaves nothing waiting', async () => {
    const up = new TimeUp();
    await expect(up.race(Promise.reject(new Error('engine gone')), null)).rejects.toThrow('engine gone');
    expect(up.pending).toBe(0);
  });

  it('a day of finished waits leaves none behind (each used to stay on the deadline until shutdown)', async () => {
    const up = new TimeUp();
    for (let i = 0; i < 1000; i++) await up.race(Promise.resolve(i), -1);
    expect(up.pending).toBe(0);
    const open = up.race(new Promise(() => {}), 'stopping');
    expect(up.pending).toBe(1);
    up.fire();
    expect(await open).toBe('stopping');
    expect(up.pending).toBe(0);
  });
});
