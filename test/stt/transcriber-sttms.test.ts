import { describe, expect, it } from 'vitest';
import { Bus } from '../../src/core/bus.js';
import { VirtualClock } from '../../src/core/clock.js';
import { memoryLogger } from '../../src/core/log.js';
import type { SegmentTranscript } from '../../src/stt/events.js';
import { Transcriber } from '../../src/stt/transcriber.js';
import { ScriptedEngine } from '../kit/stt.js';

/**
 * `hark transcribe` hands every segment to speech-to-text as the VAD closes it, so
 * on a long file they queue for the one Whisper. Each segment's sttMs must be its own
 * speech-to-text time, not the wait for the segments before it (it was 767, 1293, 1696, 2181 … ms
 * for ~500 ms of work each). The engine double runs one call at a time, as whisper.cpp does, and
 * reports its own time the way WhisperEngine does (from when its call starts).
 */

describe('sttMs is each segment’s own speech-to-text time', () => {
  it('six segments handed over at once: each reports ~500 ms, not its wait behind the others', async () => {
    const clock = new VirtualClock(0);
    const engine = new ScriptedEngine({ clock, serial: true, costMs: 500, script: (audio) => `segment ${audio.id}` });
    const t = new Transcriber({
      engines: [{ id: 'whisper', engine }],
      clearSpeechProb: 0.8,
      breaker: { failures: 3, openMs: 30_000 },
      filter: { phrases: [] },
      stabilizer: { windowSize: 3, minConfidence: 0.6, requireRepetition: true },
      clock,
      logger: memoryLogger(),
      bus: new Bus(),
    });
    const results: SegmentTranscript[] = [];
    const all = Array.from({ length: 6 }, (_, i) => t.transcribe({ index: i, pcm: new Int16Array(32_000), maxProb: 0.5 }).then((r) => results.push(r)));
    for (let ms = 0; ms < 4000; ms += 50) {
      clock.advanceBy(50);
      await new Promise((r) => setImmediate(r));
    }
    await Promise.all(all);
    expect(results.map((r) => r.segmentId)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(results.map((r) => r.sttMs)).toEqual([500, 500, 500, 500, 500, 500]);
    expect(results.map((r) => (r.hearing.kind === 'heard' ? r.hearing.utterance.sttMs : null))).toEqual([500, 500, 500, 500, 500, 500]);
    expect(results.map((r) => r.attempts[0]!.sttMs)).toEqual([500, 500, 500, 500, 500, 500]);
  });
});
