import type { Playback } from './playback.js';
import type { Logger } from '../core/log.js';
import { SAMPLE_RATE } from '../audio/pcm.js';
import { withGain } from './alarm-level.js';
import type { AplayPlayer } from './aplay.js';
import type { EarconBank } from './earcons.js';
import type { EspeakTts } from './espeak.js';
import type { OutputCallbacks, PlaybackHandle, SpeechItem, SpeechOutput } from './item.js';

/**
 * The real speaker: speech is rendered by espeak-ng (cached), earcons come from the bank, clips are
 * played as given; all go out through aplay.
 */
export class DeviceOutput implements SpeechOutput {
  /** An item in one of the device's languages is said in that language's voice, which `tts` finds. */
  constructor(private readonly deps: { player: AplayPlayer; tts: EspeakTts; earcons: EarconBank; logger?: Logger }) {}

  play(item: SpeechItem, cb: OutputCallbacks): PlaybackHandle {
    let stopped = false;
    let playback: Playback | null = null;
    void (async () => {
      let pcm: Int16Array;
      try {
        pcm = await this.audioFor(item);
        // A ring: the same gain on its earcon and its spoken name (rendered at the voice's volume, then raised).
        if (item.gainDb !== undefined) pcm = withGain(pcm, item.gainDb);
      } catch (err) {
        if (!stopped) cb.finished(err instanceof Error ? err.message : String(err));
        return;
      }
      if (stopped) return;
      const skip = Math.round((item.offsetMs * SAMPLE_RATE) / 1000);
      const rest = skip > 0 ? pcm.subarray(Math.min(skip, pcm.length)) : pcm;
      if (rest.length === 0) {
        cb.started(0);
        cb.finished();
        return;
      }
      playback = this.deps.player.play(rest);
      await playback.started;
      if (!stopped) cb.started((rest.length * 1000) / SAMPLE_RATE);
      const result = await playback.done;
      if (stopped) return;
      if (result.outcome === 'error') this.deps.logger?.error('playback failed', { id: item.id, error: result.error });
      cb.finished(result.outcome === 'error' ? result.error : undefined);
    })();
    return {
      stop: () => {
        stopped = true;
        void playback?.stop();
      },
    };
  }

  private async audioFor(item: SpeechItem): Promise<Int16Array> {
    if (item.kind === 'clip') return item.pcm ?? new Int16Array(0);
    if (item.kind === 'earcon') {
      const s = this.deps.earcons.get(item.text);
      if (!s) throw new Error(`no earcon named "${item.text}"`);
      return s;
    }
    return this.deps.tts.render(item.text, { ...(item.rate !== undefined ? { speed: item.rate } : {}), ...(item.lang ? { lang: item.lang } : {}) });
  }
}
