import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import { CircuitBreaker, type CircuitState } from '../../src/core/circuit-breaker.js';

function breaker() {
  const clock = new VirtualClock();
  const changes: [CircuitState, string][] = [];
  const b = new CircuitBreaker({ failures: 3, openMs: 30_000 }, clock, (s, r) => changes.push([s, r]));
  return { clock, b, changes };
}

describe('circuit breaker on the cloud', () => {
  it('stays closed through two failures and a success resets the count', () => {
    const { b } = breaker();
    b.failure('a');
    b.failure('b');
    b.success();
    b.failure('c');
    b.failure('d');
    expect(b.state).toBe('closed');
    expect(b.acquire()).toEqual({ allowed: true, probe: false });
  });

  it('opens after 3 consecutive failures and skips the cloud for 30 s', () => {
    const { b, clock, changes } = breaker();
    b.failure('x');
    b.failure('y');
    b.failure('connect: timeout');
    expect(b.state).toBe('open');
    expect(changes).toEqual([['open', 'connect: timeout']]);
    const p = b.acquire();
    expect(p.allowed).toBe(false);
    expect(p.allowed === false && p.retryInMs).toBe(30_000);
    clock.advanceBy(29_999);
    expect(b.acquire().allowed).toBe(false);
  });

  it('after 30 s lets exactly one probe through; its success closes the circuit', () => {
    const { b, clock, changes } = breaker();
    for (let i = 0; i < 3; i++) b.failure('f');
    clock.advanceBy(30_000);
    expect(b.acquire()).toEqual({ allowed: true, probe: true });
    expect(b.state).toBe('half-open');
    const second = b.acquire();
    expect(second.allowed).toBe(false);
    b.success();
    expect(b.state).toBe('closed');
    expect(changes.map((c) => c[0])).toEqual(['open', 'half-open', 'closed']);
    expect(b.acquire()).toEqual({ allowed: true, probe: false });
  });

  it('a failed probe opens it for another full period', () => {
    const { b, clock } = breaker();
    for (let i = 0; i < 3; i++) b.failure('f');
    clock.advanceBy(30_000);
    b.acquire();
    clock.advanceBy(500);
    b.failure('probe failed');
    expect(b.state).toBe('open');
    clock.advanceBy(29_999);
    expect(b.acquire().allowed).toBe(false);
    clock.advanceBy(1);
    expect(b.acquire()).toEqual({ allowed: true, probe: true });
  });

  it('a rejected key trips it at once (no retry storm)', () => {
    const { b } = breaker();
    b.failure('auth: 401', { trip: true });
    expect(b.state).toBe('open');
    expect(b.acquire().allowed).toBe(false);
  });
});
