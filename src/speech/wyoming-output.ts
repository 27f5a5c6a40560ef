import { withGain, type GainCarry } from './alarm-level.js';
import type { StreamingPlayback } from './playback.js';
import { SAMPLE_RATE } from '../audio/pcm.js';
import { errorMessage } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import type { AplayPlayer } from './aplay.js';
import type { OutputCallbacks, PlaybackHandle, SpeechItem, SpeechOutput } from './item.js';
import type { Synthesis, WyomingVoice } from './wyoming-voice.js';

/**
 * The speaker with a Wyoming voice: speech is asked of the server and played as its first chunk
 * arrives, through the same aplay player as everything else (so the echo reference sees every
 * sample). Earcons and clips, and any speech the server cannot give — away, refusing, silent, an
 * error event, bytes that are not Wyoming — go to `fallback` (espeak-ng), so an answer is never lost.
 * A barge-in stop hangs up on the server and silences aplay at once. Speech in another of the
 * device's languages is asked of that language's server voice (`voiceFor`); a language with none
 * goes to `fallback`, which says it with that language's espeak-ng voice.
 */
export class WyomingOutput implements SpeechOutput {
  constructor(
    private readonly deps: {
      voice: WyomingVoice;
      player: AplayPlayer;
      fallback: SpeechOutput;
      logger?: Logger;
      voiceFor?: (lang: string) => string | undefined;
    },
  ) {}

  play(item: SpeechItem, cb: OutputCallbacks): PlaybackHandle {
    if (item.kind !== 'speech' || !item.text.trim()) return this.deps.fallback.play(item, cb);
    const voice = item.lang ? this.deps.voiceFor?.(item.lang) : undefined;
    if (item.lang && !voice) return this.deps.fallback.play(item, cb);
    let stopped = false;
    let fallback: PlaybackHandle | null = null;
    let started = false;
    // One speak.start per answer: the queue hears of the first sound, whether the voice's or, after it
    // failed part-way, espeak-ng's saying it again.
    let announced = false;
    const announce = (durationMs: number) => {
      if (announced) return;
      announced = true;
      cb.started(durationMs);
    };
    // A read-back resumed after a preemption starts this far in.
    let skip = Math.round((item.offsetMs * SAMPLE_RATE) / 1000);
    // The ring's limiter goes on across the server's chunks (alarm-level.ts).
    const carry: GainCarry = {};
    // aplay is started with the request, so the first chunk finds it running (no spawn on the path).
    const playback: StreamingPlayback = this.deps.player.playStream();
    const toFallback = (why: string) => {
      if (stopped || fallback) return;
      this.deps.logger?.warn('the Wyoming voice could not say it; espeak-ng does', { id: item.id, error: why, ...(voice ? { voice } : {}) });
      void playback.stop();
      fallback = this.deps.fallback.play(item, { started: announce, finished: (error) => cb.finished(error) });
    };
    const synthesis: Synthesis = this.deps.voice.synthesize(
      item.text,
      (pcm) => {
        if (stopped || fallback) return;
        let p = pcm;
        if (skip > 0) {
          const n = Math.min(skip, p.length);
          skip -= n;
          p = p.subarray(n);
          if (p.length === 0) return;
        }
        // A ring's spoken name at the ring's level, as espeak-ng's would be (device-output.ts).
        playback.push(item.gainDb !== undefined ? withGain(p, item.gainDb, carry) : p);
        if (!started) {
          started = true;
          void playback.started.then(() => {
            // The length is not known until the server's audio-stop: 0 says so to the queue.
            if (!stopped && !fallback) announce(0);
          });
        }
      },
      voice,
    );
    synthesis.done.then(
      async () => {
        if (stopped || fallback) return;
        playback.end();
        const result = await playback.done;
        if (stopped || fallback) return;
        if (!started) announce(0);
        if (result.outcome === 'error') this.deps.logger?.error('playback failed', { id: item.id, error: result.error });
        cb.finished(result.outcome === 'error' ? result.error : undefined);
      },
      // Failed before or during the answer: espeak-ng says the whole of it (a half-said answer is a lost one).
      (err: unknown) => toFallback(errorMessage(err)),
    );
    return {
      stop: () => {
        stopped = true;
        synthesis.stop();
        void playback.stop();
        (fallback as PlaybackHandle | null)?.stop();
      },
    };
  }
}
