import type { AsrEvent } from '../../src/stt/types.js';

/**
 * A streaming engine's result as the adapters hand it on: the words spread evenly over [start, end]
 * seconds of the segment's audio, at confidence 0.95.
 */
export function asrResult(kind: 'partial' | 'final', text: string, start: number, end: number, fromFinalize = false): AsrEvent {
  return {
    kind,
    text,
    words: text.split(' ').map((w, i, all) => ({
      word: w,
      start: start + ((end - start) * i) / all.length,
      end: start + ((end - start) * (i + 1)) / all.length,
      confidence: 0.95,
    })),
    confidence: 0.95,
    start,
    duration: end - start,
    speechFinal: fromFinalize,
    fromFinalize,
    receivedAt: 0,
  };
}
