import { describe, expect, it } from 'vitest';
import { CallCost } from '../../src/stt/whisper/call-cost.js';

const S = 16_000;

describe("Whisper's cost per call, learnt from the last calls", () => {
  it('says nothing before three calls', () => {
    const c = new CallCost();
    c.record(2 * S, 900);
    c.record(3 * S, 1100);
    expect(c.expect(3 * S)).toBeNull();
  });

  it('fits a fixed part and a part per second of audio', () => {
    const c = new CallCost();
    // 500 ms a call plus 300 ms per second of audio.
    for (const sec of [1, 2, 4, 6]) c.record(sec * S, 500 + 300 * sec);
    expect(c.expect(3 * S)).toBe(1400);
    expect(c.expect(10 * S)).toBe(3500);
  });

  it('calls of one length: scales from there', () => {
    const c = new CallCost();
    for (let i = 0; i < 4; i++) c.record(2 * S, 1000);
    expect(c.expect(2 * S)).toBe(1000);
    expect(c.expect(4 * S)).toBe(2000);
  });

  it('follows the CPU: the oldest calls drop out', () => {
    const c = new CallCost(4);
    for (let i = 0; i < 4; i++) c.record(2 * S, 1000);
    // The device got slower (a CPU quota, a hot Pi throttling): four times as long.
    for (let i = 0; i < 4; i++) c.record(2 * S, 4000);
    expect(c.expect(2 * S)).toBe(4000);
  });

  it('never forecasts less work for more audio, nor below zero', () => {
    const c = new CallCost();
    c.record(1 * S, 2000);
    c.record(2 * S, 1500);
    c.record(6 * S, 1000);
    expect(c.expect(8 * S)).toBe(1500);
    const d = new CallCost();
    d.record(2 * S, 100);
    d.record(4 * S, 1000);
    d.record(6 * S, 2000);
    expect(d.expect(1 * S)).toBeGreaterThanOrEqual(0);
  });
});
