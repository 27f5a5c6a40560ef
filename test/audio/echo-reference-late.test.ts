import { describe, expect, it } from 'vitest';
import { EchoReference } from '../../src/echo/reference.js';

/**
 * The journal's diagnostic for a leak with no other cause: reference that reached the canceller only
 * after it had processed the microphone that held that sound (the sound went through uncancelled).
 */
describe('the echo reference counts sound it was told of too late', () => {
  it('counts only the part the canceller had already passed', () => {
    const ref = new EchoReference();
    ref.streamed(new Int16Array(1600).fill(1000), 0, 1); // positions 0..1600, in time
    ref.used(1600);
    expect(ref.lateSamples).toBe(0);
    ref.used(2400); // the canceller went on to 2400 with nothing there
    ref.streamed(new Int16Array(1600).fill(1000), 100, 1); // positions 1600..3200: 800 of them too late
    expect(ref.lateSamples).toBe(800);
    ref.played(new Int16Array(320), 300); // positions 4800..5120, ahead: in time
    expect(ref.lateSamples).toBe(800);
  });
});
