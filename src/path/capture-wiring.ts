import type { AudioSource } from '../audio/source.js';
import { samplesToMsRounded as ms } from '../audio/pcm.js';
import type { Bus } from '../core/bus.js';
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/log.js';
import type { RoomFloor } from '../speech/alarm-level.js';
import type { Speech } from '../speech/create.js';
import type { SttStack } from '../stt/create.js';
import { createVad } from '../vad/create.js';
import { segmenterOptions } from '../vad/options.js';
import { SegmentPipeline } from '../vad/pipeline.js';
import type { SegmenterOptions } from '../vad/segmenter.js';
import { segmentSummary } from '../vad/summary.js';
import type { Vad } from '../vad/vad.js';
import type { AudioHealth } from './capture-health.js';
import type { SegmentingConfig } from './config.js';
import type { Component } from './lifecycle.js';
import { longSpeechSeconds } from './opening.js';
import type { SegmentWatcher } from './plugins.js';
import type { SegmentPath } from './segment-path.js';
import './events.js';

/**
 * The front of a segment's path: capture → echo → VAD and segmenter → the segment path. Wires the
 * segment pipeline's events to the path (and the bus), keeps the push-to-talk state (a cancelled
 * press drops its segment) and mute (the microphone closed), and feeds the audio health systemd's
 * watchdog reads. The daemon builds the audio source and starts this last (capture is the last
 * thing started and the first stopped).
 */

/**
 * Of the 2.5 s stop budget, what speech-to-text may still take for segments already closed; a
 * segment not transcribed by then is stored untranscribed (its audio is kept for `hark replay`).
 */
const STOP_STT_MS = 1500;

/**
 * The segmenter's settings for the daemon. Only an engine that takes whole segments (Whisper first)
 * gains from work done while a segment is open: a transcript started at a pause (preemptive), and the
 * wake-phrase check of a long segment's opening, told when its speech runs past the length
 * the words stage would check it at (longSpeechSeconds: one measure at both ends).
 */
export function segmenterFor(config: SegmentingConfig, batchFirst: boolean): SegmenterOptions {
  const opening = config.stt.opening;
  return {
    ...segmenterOptions(config.vad),
    pauseMs: batchFirst ? config.stt.preemptiveMs : 0,
    longSpeechMs: batchFirst && opening.enabled ? longSpeechSeconds(opening.seconds) * 1000 : 0,
  };
}

/** The room's noise floor, which a timer's ring starts from (speech.alarm*), follows every frame the VAD scores. */
export function followRoomFloor(pipeline: SegmentPipeline, room: Pick<RoomFloor, 'frame'>): void {
  pipeline.on('frame', (f) => room.frame(f.level, f.harkPlaying));
}

export interface CaptureWiringDeps {
  config: SegmentingConfig;
  bus: Bus;
  clock: Clock;
  log: Logger;
  /** Written as audio flows and capture goes up and down (capture-health.ts). */
  health: AudioHealth;
  /** Builds the audio source (the microphone or a recording); built again on unmute. */
  source: () => AudioSource;
  /** A recording, not the microphone: no echo canceller, and mute does nothing. */
  recording: boolean;
  // Read late: built by components that start before capture.
  path: () => SegmentPath | null;
  speech: () => Speech | null;
  stt: () => SttStack | null;
  /** The Home Assistant satellite's view of closed segments (not a cancelled one). */
  watcher: SegmentWatcher | null;
  /** hark is stopping: a capture outage then is not one. */
  stopping: () => boolean;
  /** The recording has been played to its end and every segment of it handled. */
  ended: () => void;
}

export class CaptureWiring {
  private pipeline: SegmentPipeline | null = null;
  private src: AudioSource | null = null;
  private isMuted = false;
  /**
   * The PTT segment being recorded was cancelled (a tap that silenced hark, a mute hold): drop it.
   * 'ptt-only': a tap the top frame took (ending dictation): drop it only if the tap itself opened
   * it — the last dictated words, still in their hangover when the button went down, are kept.
   */
  private dropNextPtt: boolean | 'ptt-only' = false;

  constructor(private readonly d: CaptureWiringDeps) {}

  get muted(): boolean {
    return this.isMuted;
  }

  /** VAD, segmenter and the audio source, as the daemon's last component. */
  component(): Component {
    const { config } = this.d;
    let vad: Vad | null = null;
    return {
      name: 'audio',
      start: async () => {
        vad = await createVad(config.vad);
        const speech = this.d.speech();
        const stt = this.d.stt();
        // While hark plays, its own voice reaches the mic: the echo gate raises (or closes) the VAD.
        const batchFirst = !!stt?.engines[0]?.engine && !stt.engines[0].engine.openLive;
        const segmenter = segmenterFor(config, batchFirst);
        this.pipeline = new SegmentPipeline({
          vad,
          segmenter,
          ...(speech ? { gate: speech.gate } : {}),
          ...(speech?.echo && !this.d.recording ? { echo: speech.echo } : {}),
        });
        this.wire(this.pipeline);
        await this.openSource();
      },
      stop: async () => {
        await this.src?.stop();
        // The segment being said is closed and kept, not lost with the process.
        await this.pipeline?.end();
        // Every closed segment is stored; speech-to-text gets what the stop budget allows.
        await this.d.path()?.finish(STOP_STT_MS);
        await vad?.close();
      },
    };
  }

  /** Push-to-talk from whatever drives the button (GPIO, --tty, the debug API). */
  pttDown(): void {
    void this.pipeline?.pttDown();
  }
  pttUp(cancelled = false): void {
    if (cancelled) this.dropNextPtt = true;
    void this.pipeline?.pttUp();
  }

  /**
   * A tap on a quiet hark: when the top frame takes it (dictation, inventory), it acts after the
   * segment this release closes has been handled, so the last words said are in what it submits.
   */
  tap(): boolean {
    const path = this.d.path();
    // A ringing timer takes the tap first (the push-to-talk segment the tap opened is dropped).
    if (path?.front().stopRinging()) {
      this.dropNextPtt = 'ptt-only';
      return true;
    }
    if (!path?.takesTap()) return false;
    this.dropNextPtt = 'ptt-only';
    // The release's pttUp is queued right after this (same gesture): wait for the pipeline past it.
    queueMicrotask(() => void (this.pipeline?.idle() ?? Promise.resolve()).then(() => path.buttonTap()));
    return true;
  }

  /** The router waits for a short answer: the VAD closes after a shorter silence from the next frame on. */
  setHangoverMs(ms: number): void {
    this.pipeline?.setHangoverMs(ms);
  }

  /** The open segment is already a whole command: close it now. */
  closeEarly(): void {
    void this.pipeline?.closeEarly();
  }

  /** Resolves when every segment closed so far has been handled. */
  async idle(): Promise<void> {
    await this.pipeline?.idle();
    await this.d.path()?.idle();
  }

  /** Mute closes the microphone (privacy): no audio is captured at all, not just ignored. */
  async setMuted(muted: boolean): Promise<void> {
    if (muted === this.isMuted || this.d.recording) return;
    this.isMuted = muted;
    const h = this.d.health;
    this.d.log.info(muted ? 'muted: microphone closed' : 'unmuted: microphone open');
    if (muted) {
      await this.src?.stop();
      this.src = null;
      h.capture = 'down';
    } else {
      h.capture = 'starting';
      h.captureSince = this.d.clock.now();
      await this.openSource();
    }
  }

  /** What the microphone is doing, for systemd's STATUS=. */
  status(): string {
    const h = this.d.health;
    const device = this.src?.description ?? 'microphone';
    if (h.capture === 'up') return `listening on ${device}`;
    if (h.capture === 'down') return `microphone down (${h.downReason ?? 'unknown'}); retrying`;
    return `waiting for audio from ${device}`;
  }

  /** The segment pipeline's events, to the bus and the segment path. */
  private wire(pipeline: SegmentPipeline): void {
    const { bus, path } = this.d;
    const room = this.d.speech()?.alarm.room;
    if (room) followRoomFloor(pipeline, room);
    pipeline.on('open', (e) => {
      bus.emit('segment.open', { openedBy: e.openedBy, startMs: ms(e.startSample), vadStartMs: ms(e.vadStartSample), prerollMs: ms(e.prerollSamples) });
      path()?.opened(e);
    });
    pipeline.on('audio', (frame) => path()?.audio(frame));
    pipeline.on('pause', (e) => path()?.paused(e));
    pipeline.on('resume', (e) => path()?.resumed(e.startSample));
    pipeline.on('long', (e) => path()?.long(e));
    pipeline.on('segment', (s) => {
      bus.emit('segment.closed', {
        ...segmentSummary(s),
        openedBy: s.openedBy,
        ...(s.closeReason === 'capture-lost' ? { outage: this.d.health.downReason ?? 'capture down' } : {}),
      });
      // A mute hold closes the mic while the button is still down: the held segment may then end
      // 'capture-lost' rather than 'ptt-release', and is cancelled all the same.
      const released = s.closeReason === 'ptt-release' || s.closeReason === 'capture-lost';
      const cancelled = released && (this.dropNextPtt === true || (this.dropNextPtt === 'ptt-only' && s.openedBy === 'ptt'));
      if (released) this.dropNextPtt = false;
      if (!cancelled) this.d.watcher?.closed(s);
      void path()?.closed(s, cancelled);
    });
    pipeline.on('dropped', (dr) => {
      if (dr.openedBy === 'ptt') this.dropNextPtt = false;
      bus.emit('segment.dropped', {
        reason: dr.reason,
        openedBy: dr.openedBy,
        vadStartMs: ms(dr.vadStartSample),
        endMs: ms(dr.endSample),
        speechMs: Math.round(dr.speechMs),
      });
      path()?.dropped(dr.startSample);
    });
    pipeline.on('error', (e) => {
      this.d.log.error('audio pipeline error', { error: e.message });
      bus.emit('vad.error', { message: e.message });
    });
  }

  private async openSource(): Promise<void> {
    const pipeline = this.pipeline!;
    const { bus, clock, health } = this.d;
    const source = this.d.source();
    this.src = source;
    source.on('data', (chunk) => {
      void pipeline.push(chunk).then(() => (health.lastProcessedAt = clock.now()));
    });
    // The capture adapter logs its own up/down lines; logging them here too printed each twice.
    source.on('up', (i) => {
      health.capture = 'up';
      health.captureSince = clock.now();
      bus.emit('capture.up', i);
    });
    source.on('down', (i) => {
      health.capture = 'down';
      health.captureSince = clock.now();
      health.restartInMs = i.restartInMs;
      health.downReason = i.reason;
      bus.emit('capture.down', i);
      // The audio after a restart is another stream: the open segment ends here, never glued to it.
      if (!this.d.stopping()) void pipeline.captureLost();
    });
    // Until the first audio, /healthz must not say "ok": a stalled mic looks exactly like this at first.
    bus.emit('capture.starting', { device: source.description });
    source.on('end', () => {
      void pipeline.end().then(async () => {
        await this.d.path()?.idle();
        bus.emit('input.end', { samples: pipeline.position });
        this.d.ended();
      });
    });
    await source.start();
  }
}
