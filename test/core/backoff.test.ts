import { describe, expect, it } from 'vitest';
import { Backoff } from '../../src/core/backoff.js';

describe('Backoff', () => {
  it('waits the initial delay, doubles per failure in a row, and stops at the bound', () => {
    const b = new Backoff(500, 5_000);
    expect(b.nextMs).toBe(500);
    expect([b.fail(), b.fail(), b.fail(), b.fail(), b.fail(), b.fail()]).toEqual([500, 1_000, 2_000, 4_000, 5_000, 5_000]);
    expect(b.nextMs).toBe(5_000);
  });

  it('starts over after a success', () => {
    const b = new Backoff(100, 1_000);
    b.fail();
    b.fail();
    b.reset();
    expect(b.fail()).toBe(100);
  });

  it('holds at the bound after thousands of failures, never Infinity', () => {
    const b = new Backoff(250, 30_000);
    for (let i = 0; i < 5_000; i++) b.fail();
    expect(b.fail()).toBe(30_000);
  });
});
