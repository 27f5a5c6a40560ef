import { describe, expect, it } from 'vitest';
import { audioLoopAlive, type AudioHealth } from '../../src/path/capture-health.js';

/** When systemd's watchdog is fed: a retrying supervisor is alive, a stuck one is not. */
describe('audioLoopAlive', () => {
  const STALE = 10_000;
  const cases: { name: string; h: AudioHealth; now: number; alive: boolean }[] = [
    { name: 'audio flowing', h: { capture: 'up', captureSince: 0, lastProcessedAt: 9_000 }, now: 10_000, alive: true },
    { name: 'up but no audio processed for too long (wedged VAD)', h: { capture: 'up', captureSince: 0, lastProcessedAt: 1_000 }, now: 12_000, alive: false },
    {
      name: 'mic down, retry announced in 30 s, 20 s ago',
      h: { capture: 'down', captureSince: 0, lastProcessedAt: null, restartInMs: 30_000 },
      now: 20_000,
      alive: true,
    },
    {
      name: 'mic down, the announced retry long overdue (supervisor stuck)',
      h: { capture: 'down', captureSince: 0, lastProcessedAt: null, restartInMs: 1_000 },
      now: 12_000,
      alive: false,
    },
    { name: 'mic down with no retry scheduled', h: { capture: 'down', captureSince: 0, lastProcessedAt: null, restartInMs: null }, now: 100, alive: false },
    { name: 'starting, within its grace', h: { capture: 'starting', captureSince: 0, lastProcessedAt: null }, now: 30_000, alive: true },
  ];
  it.each(cases)('$name', ({ h, now, alive }) => expect(audioLoopAlive(h, now, STALE)).toBe(alive));
});
