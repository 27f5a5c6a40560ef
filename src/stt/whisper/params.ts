import { SAMPLE_RATE } from '../../audio/pcm.js';

/**
 * The per-segment numbers for a whisper.cpp call, worked out from the segment's length. Pure.
 */

/** whisper.cpp's encoder covers 30 s in 1500 positions: one per 20 ms (320 samples). */
export const SAMPLES_PER_AUDIO_CTX = 320;
export const MAX_AUDIO_CTX = 1500;
/**
 * whisper.cpp answers nothing at all for input under 1000 ms ("input is too short"). Shorter
 * segments — a clipped "stop" — are padded with silence to this length rather than silently lost.
 */
export const MIN_SAMPLES = Math.round(SAMPLE_RATE * 1.05);

export interface WhisperCallOptions {
  scaleAudioCtx: boolean;
  audioCtxPad: number;
  maxTokensPerSecond: number;
  deadlineBaseMs: number;
  deadlinePerSecondMs: number;
}

export interface WhisperCallPlan {
  /** 0: whisper.cpp's full 30 s context. */
  audioCtx: number;
  /** 0: no cap. */
  maxTokens: number;
  deadlineMs: number;
  /** Samples of silence appended so whisper.cpp does not refuse a short clip. */
  padSamples: number;
}

export function planCall(samples: number, o: WhisperCallOptions): WhisperCallPlan {
  const padSamples = Math.max(0, MIN_SAMPLES - samples);
  const total = samples + padSamples;
  const seconds = total / SAMPLE_RATE;
  // Scaled context: the clip's own positions plus a margin (whisper.cpp#1855 uses +128: with too
  // little margin the decoder does not see the end and repeats itself). Never past the model's 1500.
  const audioCtx = o.scaleAudioCtx ? Math.min(MAX_AUDIO_CTX, Math.ceil(total / SAMPLES_PER_AUDIO_CTX) + o.audioCtxPad) : 0;
  // Speech runs at most ~4 words/s (~6 tokens/s); the cap only stops a runaway repetition loop, which
  // on a Pi 4 would otherwise hold the CPU for tens of seconds (whisper.cpp#1117).
  const maxTokens = o.maxTokensPerSecond > 0 ? Math.ceil(seconds * o.maxTokensPerSecond) + 16 : 0;
  const deadlineMs = Math.round(o.deadlineBaseMs + o.deadlinePerSecondMs * (samples / SAMPLE_RATE));
  return { audioCtx, maxTokens, deadlineMs, padSamples };
}

/** Words Whisper gets right unaided: listing them in the prompt only costs decoder time. */
const COMMON = new Set(
  'a an the and or but to of in on at for with from by as is are was be do did does it its that this these those i me my you your we our he she they them what which who how when where why yes no ok okay hey please now then so up down off out all again over back done go come say said can will would could should not'.split(
    ' ',
  ),
);

/**
 * The initial prompt: fixed text, then the distinct words the router listens for (vocabulary
 * biasing), in rule order (the wake word first). Only words Whisper might miss are worth their cost:
 * every prompt token is decoded before the segment's own (measured on the test model: ~0.1 s per
 * short command without a prompt, 0.6-0.8 s with the router's 150 words), so common words are left
 * out and at most `maxWords` go in.
 */
export function buildPrompt(fixed: string, vocabulary: readonly string[], maxWords = 32): string {
  const seen = new Set<string>();
  const words: string[] = [];
  for (const phrase of vocabulary) {
    for (const w of phrase.trim().split(/\s+/)) {
      const key = w.toLowerCase();
      if (!w || seen.has(key) || COMMON.has(key)) continue;
      seen.add(key);
      words.push(w);
    }
  }
  const parts: string[] = [];
  if (fixed.trim()) parts.push(fixed.trim());
  const picked = words.slice(0, Math.max(0, maxWords - parts.join(' ').split(/\s+/).filter(Boolean).length));
  if (picked.length > 0) parts.push(picked.join(', ') + '.');
  return parts.join(' ');
}
