import type { Bus } from '../../src/core/bus.js';
import type { Clock, TimerHandle } from '../../src/core/clock.js';
import { validateConfig } from '../../src/config/load.js';
import { AlarmLevel, RoomFloor } from '../../src/speech/alarm-level.js';
import type { SpeechConfig } from '../../src/speech/config.js';
import { createSpeech, type Speech } from '../../src/speech/create.js';
import { bindEchoGate } from '../../src/speech/echo-gate.js';
import { EchoGate } from '../../src/echo/gate.js';
import type { EchoConfig } from '../../src/echo/config.js';
import type { OutputCallbacks, PlaybackHandle, SpeechItem, SpeechOutput } from '../../src/speech/item.js';
import { SpeechQueue } from '../../src/speech/queue.js';
import type { SpeechTts } from '../../src/speech/wyoming-speech.js';

/**
 * hark's voice for tests, built from the real src/speech pieces (the queue with its priorities and
 * stop, the echo gate following it on the bus, the alarm level) in front of a player that records what
 * it is given instead of sounding it. `log` reads as the speaker heard it: `say <text>`, `earcon
 * <name>`, `play <text> @<clock ms>` (a rendered clip), and `stop (<reason>) @<clock ms>` when the
 * queue silences something. For sound through the real aplay, nullDeviceSpeech().
 */

/** Renders `text` as `text.length` samples at once: the cascade's timing without espeak-ng's time. */
export class LengthTts implements SpeechTts {
  readonly rendered: string[] = [];
  voice: string | null = null;
  async render(text: string): Promise<Int16Array> {
    this.rendered.push(text);
    return new Int16Array(text.length);
  }
  setVoice(voice: string): void {
    this.voice = voice;
  }
}

/** What the recording player does with an item: how long it plays (0: it ends on the next tick). */
export type PlayMs = (item: SpeechItem) => number;

export class RecordingOutput implements SpeechOutput {
  readonly log: string[] = [];
  /** What it played, with the clock ms it started. */
  readonly played: { kind: SpeechItem['kind']; text: string; at: number }[] = [];
  /** Items held playing until released (speakOver): not in the log, they stand for hark already talking. */
  private readonly held = new Map<number, OutputCallbacks>();
  holdNext = false;
  onPlay: ((item: SpeechItem) => void) | null = null;

  constructor(
    private readonly clock: Clock,
    private readonly playMs: PlayMs,
  ) {}

  play(item: SpeechItem, cb: OutputCallbacks): PlaybackHandle {
    if (this.holdNext) {
      this.holdNext = false;
      this.held.set(item.id, cb);
      cb.started(60_000);
      return { stop: () => void this.held.delete(item.id) };
    }
    this.played.push({ kind: item.kind, text: item.text, at: this.clock.now() });
    this.log.push(item.kind === 'clip' ? `play ${item.text} @${this.clock.now()}` : item.kind === 'earcon' ? `earcon ${item.text}` : `say ${item.text}`);
    this.onPlay?.(item);
    const ms = this.playMs(item);
    let over = false;
    let timer: TimerHandle | null = null;
    cb.started(ms);
    if (ms <= 0) queueMicrotask(() => over || cb.finished());
    else timer = this.clock.setTimer(ms, () => cb.finished());
    return {
      stop: () => {
        over = true;
        this.clock.clearTimer(timer);
      },
    };
  }

  /** The held items end as if played out. */
  release(): void {
    const cbs = [...this.held.values()];
    this.held.clear();
    for (const cb of cbs) cb.finished();
  }
}

export interface TestSpeech {
  speech: Speech;
  /** What the speaker was given and what the queue silenced, in order (see above). */
  log: string[];
  output: RecordingOutput;
  /** The TTS double (null when the test asked for none). */
  tts: LengthTts | null;
  /** hark is talking (a long read-back, a timer's name): the queue is speaking until stopped or letGo(). */
  speakOver(text?: string): void;
  /** What speakOver() started plays to its end. */
  letGo(): void;
}

export function testSpeech(o: { clock: Clock; bus: Bus; speech?: SpeechConfig; echo?: EchoConfig; tts?: SpeechTts | null; playMs?: PlayMs }): TestSpeech {
  const s = o.speech ?? defaults().speech;
  const output = new RecordingOutput(o.clock, o.playMs ?? (() => 0));
  const lengthTts = o.tts === undefined ? new LengthTts() : null;
  const tts = o.tts === undefined ? lengthTts : o.tts;
  const alarm = new AlarmLevel(s, new RoomFloor(o.clock));
  const queue = new SpeechQueue({ output, clock: o.clock, bus: o.bus, alarm });
  const gate = new EchoGate(o.echo ?? defaults().echo, defaults().vad.threshold, o.clock);
  const unbind = bindEchoGate(o.bus, gate);
  const offStop = o.bus.on('speak.stopped', (e) => void output.log.push(`stop (${e.reason}) @${o.clock.now()}`));
  const speech: Speech = {
    queue,
    gate,
    alarm,
    echo: null,
    echoProblem: null,
    tts,
    close: () => {
      queue.stop('shutdown');
      offStop();
      unbind();
    },
  };
  return {
    speech,
    log: output.log,
    output,
    tts: lengthTts,
    speakOver: (text = 'a long answer hark is reading out') => {
      output.holdNext = true;
      queue.say(text, { priority: 'readback' });
    },
    letGo: () => output.release(),
  };
}

/** The real speaker as `hark run` builds it: espeak-ng, then aplay to ALSA's null device. */
export function nullDeviceSpeech(o: { clock: Clock; bus: Bus }): Speech {
  const config = validateConfig({ speech: { device: 'null' } }, 'test');
  return createSpeech(config, { bus: o.bus, clock: o.clock });
}

let cached: ReturnType<typeof validateConfig> | null = null;
function defaults(): ReturnType<typeof validateConfig> {
  cached ??= validateConfig({ speech: { device: 'null' } }, 'test');
  return cached;
}
