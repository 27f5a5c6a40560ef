import type { Bus } from '../core/bus.js';
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/log.js';
import type { VadConfig } from '../vad/config.js';
import type { EchoCleaner } from '../echo/create.js';
import { createEcho, type KeptSkew } from '../echo/component.js';
import type { EchoConfig } from '../echo/config.js';
import type { EchoGate } from '../echo/gate.js';
import { AlarmLevel, RoomFloor } from './alarm-level.js';
import { AplayPlayer } from './aplay.js';
import { DeviceOutput } from './device-output.js';
import { EarconBank } from './earcons.js';
import { bindEchoGate } from './echo-gate.js';
import { EspeakTts } from './espeak.js';
import type { SpeechConfig } from './config.js';
import type { SpeechOutput } from './item.js';
import { SpeechQueue } from './queue.js';
import { SimulatedOutput } from './simulated-output.js';
import { languageVoices } from './language-voices.js';
import { createWyomingSpeech, type SpeechTts, type VoiceChoice } from './wyoming-speech.js';

export interface Speech {
  queue: SpeechQueue;
  gate: EchoGate;
  /** How loud a timer's ring plays; the capture path feeds its room floor (alarm.room). */
  alarm: AlarmLevel<RoomFloor>;
  /**
   * The echo canceller for the capture path (echo.mode cancel, with the real speaker), fed with what
   * AplayPlayer plays; null with another mode, when simulated, or when it could not load (echoProblem).
   */
  echo: EchoCleaner | null;
  echoProblem: string | null;
  /** Present with the real speaker: the cascade renders through it, the voice picker sets its voice. */
  tts: SpeechTts | null;
  /** The voices a voice server offers (the picker lists these instead of espeak-ng's); absent without one. */
  voices?: () => Promise<VoiceChoice[]>;
  /** Stop following the bus and silence the speaker. */
  close(): void;
}

/**
 * hark's voice, assembled from the config: espeak-ng → aplay on speech.device (or, with
 * `simulated`, playback time modelled on the clock for `hark simulate`), the queue, the earcons
 * (synthesised here, once) and the echo gate following playback on the bus.
 */
export function createSpeech(
  config: { speech: SpeechConfig; echo: EchoConfig; vad: Pick<VadConfig, 'threshold'> },
  deps: { bus: Bus; clock: Clock; logger?: Logger; simulated?: { msPerChar?: number }; skew?: KeptSkew },
): Speech {
  const s = config.speech;
  // Echo is its own component: built here because the speaker's player feeds its reference.
  const made = createEcho(config.echo, config.vad.threshold, {
    clock: deps.clock,
    speaker: !deps.simulated,
    ...(deps.logger ? { logger: deps.logger } : {}),
    ...(deps.skew ? { skew: deps.skew } : {}),
  });
  const echo = made.cleaner;
  const gate = made.gate;
  let output: SpeechOutput;
  let tts: SpeechTts | null = null;
  let voices: (() => Promise<VoiceChoice[]>) | undefined;
  let player: AplayPlayer | null = null;
  if (deps.simulated) {
    output = new SimulatedOutput({
      clock: deps.clock,
      speed: s.speed,
      ...(deps.simulated.msPerChar !== undefined ? { msPerChar: deps.simulated.msPerChar } : {}),
    });
  } else {
    const espeak = new EspeakTts({
      voice: s.voice,
      speed: s.speed,
      volume: s.volume,
      cacheEntries: s.cacheEntries,
      cacheMb: s.cacheMb,
      voiceFor: languageVoices(s.voices),
    });
    tts = espeak;
    // With the canceller, one long-lived aplay (a steady latency); without, one per clip (see AplayPlayer).
    // A late feed is worth a line: the card ran dry, and the canceller must find the latency again.
    const onLate = (lateMs: number) => deps.logger?.info('playback fed late: the card ran dry, the echo latency may move', { lateMs: Math.round(lateMs) });
    player = new AplayPlayer({
      device: s.device,
      stallMs: s.stallMs,
      ...(echo ? { reference: made.reference, idleCloseMs: s.playerIdleMs, leadMs: s.playerLeadMs, onLate } : {}),
    });
    player.warm();
    output = new DeviceOutput({ player, tts: espeak, earcons: new EarconBank({ volume: s.earconVolume }), ...(deps.logger ? { logger: deps.logger } : {}) });
    // A Wyoming voice server in front, espeak-ng behind it.
    const wyoming = createWyomingSpeech(s.wyoming, { espeak, player, fallback: output, ...(deps.logger ? { logger: deps.logger } : {}) });
    if (wyoming) ({ tts, output, voices } = wyoming);
  }
  const alarm = new AlarmLevel(s, new RoomFloor(deps.clock));
  const queue = new SpeechQueue({ output, clock: deps.clock, bus: deps.bus, alarm });
  const unbind = bindEchoGate(deps.bus, gate);
  return {
    queue,
    gate,
    alarm,
    echo,
    echoProblem: made.problem,
    tts,
    ...(voices ? { voices } : {}),
    close: () => {
      queue.stop('shutdown');
      unbind();
      player?.close();
    },
  };
}
