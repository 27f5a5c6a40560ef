import './events.js';
import type { Bus } from '../core/bus.js';
import type { Clock } from '../core/clock.js';
import type { CascadeEvent } from './cascade.js';
import { InterruptionFilter, type CustomFilter, type FilterDecision, type InterruptionSettings } from './interruption.js';

/** What barge-in acts on: the speech queue (and, when an answer is on its way, the cascade). */
export interface BargeInTargets {
  /** Words are playing (SpeechQueue.isSpeaking). */
  isSpeaking(): boolean;
  /** Silence hark (SpeechQueue.stop). */
  stopSpeaking(reason: string): void;
  /** Drop an answer being prepared or played (ResponseCascade.interrupt). */
  interruptCascade?(reason: string): void;
  /** hark was cut off: the command core restarts its cooldowns (CommandCore.interrupted). */
  interrupted?(): void;
}

/** A decision as a bus event. */
export function emitDecision(bus: Bus, d: FilterDecision): void {
  const utteranceId = d.utteranceId ?? null;
  if (d.action === 'filter') bus.emit('interruption.filtered', { text: d.text, reason: d.reason, utteranceId, final: d.final });
  else if (d.action === 'allow') bus.emit('interruption.allowed', { text: d.text, reason: d.reason, utteranceId, final: d.final, confidence: d.confidence });
  else bus.emit('interruption.pending', { text: d.text, reason: d.reason, utteranceId });
}

/**
 * The interruption filter wired for the daemon and `hark simulate`: decisions made while hark
 * speaks go on the bus, and an allowed one stops the speech and the cascade at once (a pending one
 * that times out too). Feed it every transcript: `filter.transcript({id, text, final}, targets.isSpeaking())`;
 * pass the utterance on to the router unless the decision is 'filter' (or 'pending': its final follows).
 */
export function createBargeIn(opts: {
  settings: InterruptionSettings;
  clock: Clock;
  bus: Bus;
  targets: BargeInTargets;
  customFilter?: CustomFilter;
}): InterruptionFilter {
  const { bus, targets } = opts;
  return new InterruptionFilter({
    settings: opts.settings,
    clock: opts.clock,
    isSpeaking: () => targets.isSpeaking(),
    ...(opts.customFilter ? { customFilter: opts.customFilter } : {}),
    onDecision: (d) => {
      emitDecision(bus, d);
      if (d.action === 'allow' && d.speaking) {
        targets.stopSpeaking('barge-in');
        targets.interruptCascade?.('barge-in');
        targets.interrupted?.();
      }
    },
  });
}

/** The cascade's events onto the bus: pass as ResponseCascade's onEvent. */
export function cascadeToBus(bus: Bus): (e: CascadeEvent) => void {
  return (e) => {
    switch (e.type) {
      case 'stage':
        bus.emit('cascade.stage', { generation: e.generation, stage: e.stage, atMs: e.atMs });
        break;
      case 'done':
        bus.emit('cascade.done', { generation: e.generation, atMs: e.atMs });
        break;
      case 'cancelled':
        bus.emit('cascade.cancelled', { generation: e.generation, stage: e.stage, reason: e.reason, atMs: e.atMs });
        break;
      case 'failed':
        bus.emit('cascade.failed', { generation: e.generation, stage: e.stage, error: e.error, atMs: e.atMs });
        break;
    }
  };
}
