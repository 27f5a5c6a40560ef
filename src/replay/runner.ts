import { basename, isAbsolute, resolve } from 'node:path';
import { VirtualClock } from '../core/clock.js';
import type { Logger } from '../core/log.js';
import type { HarkConfig } from '../config/schema.js';
import type { Target } from '../actions/targets/target.js';
import { buildTargets } from '../actions/targets/index.js';
import { CommandCore } from '../router/command-core.js';
import type { Effect } from '../router/effects.js';
import { addEffect, emptyNewOutcome, type Heard, type NewOutcome, type SegmentReplay, type VadOutcome } from './outcome.js';
import type { StoredSegment } from './source.js';

/** What the hearing side (stored text, or VAD + speech-to-text on the stored audio) made of a segment. */
export type HearResult =
  | { skip: string }
  | { input: 'audio' | 'text'; heard: Heard; vad: VadOutcome | null; note: string | null };

export type Hear = (s: StoredSegment) => Promise<HearResult>;

export interface RunOptions {
  config: HarkConfig;
  segments: readonly StoredSegment[];
  /** Timers are run up to here after the last segment (the end of what the log knows). */
  horizonMs: number;
  hear: Hear;
  /** File targets write only here (a temporary directory the caller removes). */
  scratchDir: string;
  log: Logger;
  /** Each segment's replay, in order, once everything it set off up to the next segment is in. */
  onResult: (r: SegmentReplay) => void;
}

/**
 * The router side of a replay: one CommandCore, built as the daemon builds it (buildCommands), on a
 * virtual clock that follows the stored segments' times, so a query's silence timer, a confirm
 * timeout, a last-wins conflict window and a kitchen timer run out between segments as they did on the
 * appliance. No side effects: file targets write into `scratchDir`, webhooks are never called.
 *
 * Each segment's utterances are dispatched at the time the segment ended. Effects while it is
 * handled are its own; effects fired by timers before the next segment are hung on it as `later`
 * (the store does the same on the old side).
 */
export async function runReplay(o: RunOptions): Promise<void> {
  const first = o.segments[0];
  if (!first) return;
  const clock = new VirtualClock(first.endedAt);
  let current: { replay: SegmentReplay; out: NewOutcome } | null = null;
  let handling = false;
  const core = new CommandCore({
    clock,
    router: o.config.router,
    language: o.config.language,
    actions: o.config.actions,
    // Room words ("the kitchen timer") mean what they mean on the device.
    ...(o.config.device.area ? { area: o.config.device.area } : {}),
    log: o.log,
    onEffect: (e: Effect) => {
      if (current) addEffect(current.out, e, !handling);
    },
    targets: (emit) =>
      buildTargets(o.config.actions.targets, {
        dataDir: o.scratchDir,
        emit,
        // Never where the config points: that may be the appliance's real submissions file.
        filePath: (p) => (isAbsolute(p) ? resolve(o.scratchDir, basename(p)) : resolve(o.scratchDir, p)),
        webhook: (name, cfg) => notCalled(name, cfg.url),
      }),
  });

  // Timer by timer, settling after each, so what a timer sets off (a delivery) lands before the next.
  const advanceTo = async (target: number): Promise<void> => {
    for (;;) {
      const due = clock.nextDue();
      if (due === undefined || due > target) break;
      clock.advanceTo(due);
      await core.idle();
    }
    clock.advanceTo(target);
  };
  const finish = () => {
    if (current) o.onResult(current.replay);
    current = null;
  };

  try {
    for (const s of o.segments) {
      const heard = await o.hear(s);
      // Out of order by a few ms (started_at is derived) must not move the clock backwards.
      await advanceTo(Math.max(clock.now(), s.endedAt));
      finish();
      if ('skip' in heard) {
        o.onResult({ id: s.id, startedAt: s.startedAt, input: 'text', note: null, skipped: heard.skip, old: s.old, new: null });
        continue;
      }
      const out = emptyNewOutcome(heard.heard, heard.vad);
      current = { replay: { id: s.id, startedAt: s.startedAt, input: heard.input, note: heard.note, skipped: null, old: s.old, new: out }, out };
      handling = true;
      // One at a time, each settled before the next, as Conversation.dispatch does.
      for (const [i, text] of heard.heard.texts.entries()) {
        core.dispatch({ id: `replay-${s.id}-${i}`, text, rawText: text, engine: engineName(heard.heard.engine), atMs: clock.now(), segmentId: s.id });
        await core.idle();
      }
      handling = false;
    }
    await advanceTo(Math.max(clock.now(), o.horizonMs));
    finish();
  } finally {
    core.dispose();
  }
}

function engineName(e: string | null): 'whisper' | 'deepgram' | 'text' {
  return e === 'whisper' || e === 'deepgram' ? e : 'text';
}

function notCalled(name: string, url: string): Target {
  return {
    name,
    type: 'webhook',
    describe: () => `webhook ${url} (not called: replay)`,
    deliver: async () => `not called: ${url} (replay)`,
  };
}
