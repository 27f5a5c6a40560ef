import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/log.js';
import type { EchoConfig } from './config.js';
import { createEchoCleaner, type EchoCleaner } from './create.js';
import { EchoGate } from './gate.js';
import { EchoReference } from './reference.js';

/**
 * The two clocks' skew kept across restarts for this pair of cards (the daemon reads and writes it in
 * the store): the echo canceller starts from it, and hands on each settled reading.
 */
export interface KeptSkew {
  known(): number | null;
  keep(ppm: number, errorPpm: number): void;
}

/**
 * Echo as one component, built from the echo: section: the reference the speaker's player is to
 * feed with what it plays, the canceller for the capture path (null with another mode, with no
 * real speaker, or when it could not load: `problem` says why), and the gate that stands in for it.
 */
export interface Echo {
  reference: EchoReference;
  cleaner: EchoCleaner | null;
  problem: string | null;
  gate: EchoGate;
}

export function createEcho(config: EchoConfig, vadThreshold: number, deps: { clock: Clock; logger?: Logger; skew?: KeptSkew; speaker: boolean }): Echo {
  const reference = new EchoReference();
  let cleaner: EchoCleaner | null = null;
  let problem: string | null = null;
  if (deps.speaker && config.mode === 'cancel') {
    const known = deps.skew?.known() ?? null;
    if (known !== null) deps.logger?.info(`echo canceller: starting from the skew measured before on these cards, ${Math.round(known * 100) / 100} ppm`);
    const made = createEchoCleaner(known !== null ? { ...config, knownSkewPpm: known } : config, reference, deps.clock, {}, deps.logger, deps.skew?.keep);
    if ('error' in made) {
      problem = made.error;
      deps.logger?.warn(`${made.error}; the echo gate (${config.fallback}) stands in`);
    } else cleaner = made.cleaner;
  }
  const gate = new EchoGate(config, vadThreshold, deps.clock);
  gate.setCanceller(cleaner);
  return { reference, cleaner, problem, gate };
}
