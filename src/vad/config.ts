import { z } from 'zod';
import { between, ms, movedTo, oneOf, section, intBetween } from '../core/config-fields.js';

export const vadSection = section({
  engine: oneOf(['silero', 'webrtc'] as const, 'silero'),
  /** Speech probability at or above which a frame counts as speech (opens a segment). */
  threshold: between(0, 1, 0.5),
  /** Below this a frame counts as silence for the hangover (hysteresis: lower than threshold). */
  releaseThreshold: between(0, 1, 0.35),
  /** WebRTC VAD aggressiveness, 0 (least) to 3 (most). */
  webrtcMode: intBetween(0, 3, 3),
  /** History kept before the trigger and spliced onto the front of each segment. */
  prerollMs: ms(500, 0, 5000),
  /** Speech needed before a segment opens. */
  minSpeechMs: ms(96, 0, 5000),
  /**
   * Silero's recurrent state starts afresh after this long with no segment open, no speech and hark
   * silent (0: never). Carried over minutes of a fan it settles on "not speech" and scores the first
   * frames of the next word low (snakers4/silero-vad#725): a "stop" in six simulated kitchens was heard
   * at 154 of 180 points, p50 275 ms, without it; 180, p50 211 ms, with 2 s (docs/hearing.md,
   * docs/decisions.md#sileros-state-is-reset-after-2-s-of-quiet).
   */
  stateResetMs: ms(2000, 0, 600_000),
  /** Silence after speech before a segment closes. */
  hangoverMs: ms(600, 0, 10_000),
  /**
   * A shorter hangover while the top frame waits for a one- or two-word answer (confirm: yes/no; the
   * voice picker: a name): the router already knows the answer is short. Frame name → ms; a frame not
   * listed uses hangoverMs.
   */
  routerFrameHangoverMs: z
    .record(
      z.string(),
      z
        .number({ error: 'must be a number of milliseconds' })
        .int('must be a whole number of milliseconds')
        .min(100, 'must be at least 100 ms')
        .max(10_000, 'must be at most 10000 ms'),
      { error: 'must map frame names to milliseconds' },
    )
    .default({ confirm: 250, voice: 250 }),
  /** Named for the router frame it is keyed by (a frame of audio is 32 ms of samples). */
  frameHangoverMs: movedTo('vad.routerFrameHangoverMs'),
  /** A segment is split here (the 12 s guard: docs/decisions.md#a-segment-is-split-at-12-s-and-the-pieces-tile). */
  maxSegmentMs: ms(12_000, 500, 120_000),
  /**
   * Segments with less speech than this (pre-roll excluded) are dropped as clicks and bumps. 120, not
   * Silero's own 250: a one-word command said crisply ("stop", "no", "done") holds 160-250 ms of speech
   * by Silero's count, and Silero itself turns kitchen bumps away before any length is judged
   * (test/vad/short-words.test.ts). With `engine: webrtc`, which opens on noises, 250 drops more of them.
   */
  minSegmentMs: ms(120, 0, 10_000),
}).superRefine((vad, ctx) => {
  if (vad.releaseThreshold > vad.threshold) ctx.addIssue({ code: 'custom', path: ['releaseThreshold'], message: 'must not be above vad.threshold' });
});

export type VadConfig = z.infer<typeof vadSection>;
