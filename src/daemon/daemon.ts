import './events.js';
import { AlsaCapture } from '../audio/capture-alsa.js';
import { WavFileSource } from '../audio/capture-wav.js';
import type { AudioSource } from '../audio/source.js';
import { samplesToMs } from '../audio/pcm.js';
import type { HarkConfig } from '../config/schema.js';
import type { Secrets } from '../config/load.js';
import { Bus } from '../core/bus.js';
import { SystemClock, type Clock } from '../core/clock.js';
import type { Logger } from '../core/log.js';
import { createVad } from '../vad/create.js';
import { segmenterOptions } from '../vad/options.js';
import { SegmentPipeline } from '../vad/pipeline.js';
import { segmentSummary } from '../vad/summary.js';
import type { Vad } from '../vad/vad.js';
import { Lifecycle, type Component } from './lifecycle.js';
import { Store } from '../store/store.js';
import { storeOptions } from '../store/from-config.js';
import { DebugServer } from '../debug/server.js';
import { debugToken } from '../debug/from-config.js';
import type { Segment } from '../vad/segment.js';
import { audioLoopAlive, type AudioHealth } from './health.js';
import type { Notifier } from './sd-notify.js';

const ms = (samples: number) => Math.round(samplesToMs(samples) * 1000) / 1000;

export interface DaemonOptions {
  config: HarkConfig;
  secrets: Secrets;
  logger: Logger;
  bus?: Bus;
  clock?: Clock;
  /** Run on a recording instead of the microphone. */
  input?: { path: string; pace: 'realtime' | 'fast' };
  /** systemd notify channel (READY, WATCHDOG, STATUS); absent when not run by systemd. */
  notifier?: Notifier;
}

/** Audio not processed for this long while capture is up means the loop is wedged. */
const AUDIO_STALE_MS = 10_000;

/**
 * The composition root: builds the adapters from the config, wires them to the core through the bus,
 * and owns start-up and shutdown order (store, debug server, speech output, GPIO, speech-to-text,
 * capture last; stopped in reverse), so the microphone only opens once everything that consumes
 * its audio is ready, and closes first on the way down.
 */
export class Daemon {
  readonly bus: Bus;
  readonly clock: Clock;
  private readonly opts: DaemonOptions;
  private readonly log: Logger;
  private readonly lifecycle: Lifecycle;
  private pipeline: SegmentPipeline | null = null;
  private source: AudioSource | null = null;
  private endResolve!: () => void;
  private store: Store | null = null;
  private debugServer: DebugServer | null = null;
  /** Work for closed segments, in order: a segment's rows are written after its actions ran. */
  private segmentWork: Promise<void> = Promise.resolve();
  private readonly health: AudioHealth;
  private ready = false;
  private watchdog: NodeJS.Timeout | null = null;
  /** Resolves when an --input recording has been played and every segment of it handled. */
  readonly inputDone: Promise<void> = new Promise((r) => (this.endResolve = r));

  constructor(opts: DaemonOptions) {
    this.opts = opts;
    this.bus = opts.bus ?? new Bus();
    this.clock = opts.clock ?? new SystemClock();
    this.log = opts.logger;
    this.lifecycle = new Lifecycle(this.log);
    this.health = { lastProcessedAt: null, capture: 'starting', captureSince: this.clock.now() };
    this.bus.on('bus.listener-error', (e) => this.log.error('event listener failed', { event: e.event, error: e.error instanceof Error ? e.error.message : String(e.error) }));
  }

  async start(): Promise<void> {
    this.watchSystemd();
    await this.lifecycle.start([this.storeComponent(), this.debugComponent(), this.audioFrontEnd()]);
    this.bus.emit('daemon.ready', { components: this.lifecycle.names() });
  }

  async stop(reason = 'stop requested'): Promise<void> {
    this.bus.emit('daemon.stopping', { reason });
    this.opts.notifier?.send(`STOPPING=1\nSTATUS=stopping: ${reason}`);
    if (this.watchdog) clearInterval(this.watchdog);
    await this.lifecycle.stop(2500);
    this.opts.notifier?.close();
  }

  /** READY=1 once the microphone delivers audio; WATCHDOG=1 only while the audio loop is alive. */
  private watchSystemd(): void {
    const n = this.opts.notifier;
    if (!n) return;
    this.bus.on('capture.up', (i) => {
      if (!this.ready) {
        this.ready = true;
        n.send(`READY=1\nSTATUS=listening on ${i.device}`);
      } else n.send(`STATUS=listening on ${i.device}`);
    });
    this.bus.on('capture.down', (i) => n.send(`STATUS=microphone down (${i.reason}); retrying`));
    if (n.watchdogMs) {
      this.watchdog = setInterval(() => {
        if (audioLoopAlive(this.health, this.clock.now(), AUDIO_STALE_MS)) n.send('WATCHDOG=1');
        else this.log.error('audio loop stalled: not feeding the systemd watchdog', { lastProcessedAt: this.health.lastProcessedAt });
      }, n.watchdogMs);
      this.watchdog.unref();
    }
  }

  /** PTT from whatever drives the button (GPIO, --tty, the debug API). */
  pttDown(): void {
    void this.pipeline?.pttDown();
  }
  pttUp(): void {
    void this.pipeline?.pttUp();
  }

  /** Base URL of the debug server, once listening. */
  debugUrl: string | null = null;

  private storeComponent(): Component {
    return {
      name: 'store',
      start: () => {
        this.store = new Store({ ...storeOptions(this.opts.config.store), bus: this.bus, logger: this.log.child({ component: 'store' }), clock: this.clock });
        this.store.start();
      },
      stop: () => {
        this.store?.close();
        this.store = null;
      },
    };
  }

  private debugComponent(): Component {
    const { config, secrets } = this.opts;
    return {
      name: 'debug-server',
      start: async () => {
        if (!config.debug.enabled || !this.store) return;
        this.debugServer = new DebugServer({
          store: this.store,
          bus: this.bus,
          host: config.debug.host,
          port: config.debug.port,
          token: debugToken(config.debug, secrets),
          heartbeatMs: config.debug.heartbeatMs,
          logger: this.log.child({ component: 'debug' }),
          clock: this.clock,
          mode: 'daemon',
        });
        this.debugUrl = await this.debugServer.listen();
      },
      stop: async () => {
        await this.debugServer?.close();
        this.debugServer = null;
      },
    };
  }

  /**
   * Everything that happens to a closed segment, in order. Writes come last: nothing slow sits
   * between speech and action.
   */
  private onSegment(segment: Segment): void {
    const closedAt = Date.now();
    this.segmentWork = this.segmentWork.then(async () => {
      try {
        this.store?.recordSegment({
          segment: { ...segment, startedAt: closedAt - Math.round(samplesToMs(segment.pcm.length)), source: this.opts.input ? 'file' : 'mic' },
        });
      } catch (err) {
        this.log.error('segment handling failed', { segment: segment.index, error: (err as Error).message });
      }
    });
  }

  /** Resolves when every segment closed so far has been handled. */
  segmentsIdle(): Promise<void> {
    return this.segmentWork;
  }

  /** VAD, segmenter and the audio source, as one component: capture is always the last thing started. */
  private audioFrontEnd(): Component {
    const { config } = this.opts;
    let vad: Vad | null = null;
    return {
      name: 'audio',
      start: async () => {
        vad = await createVad(config.vad);
        const pipeline = new SegmentPipeline({ vad, segmenter: segmenterOptions(config.vad) });
        this.pipeline = pipeline;
        pipeline.on('open', (e) => this.bus.emit('segment.open', { openedBy: e.openedBy, startMs: ms(e.startSample), vadStartMs: ms(e.vadStartSample), prerollMs: ms(e.prerollSamples) }));
        pipeline.on('segment', (s) => {
          this.bus.emit('segment.closed', { ...segmentSummary(s), openedBy: s.openedBy });
          this.onSegment(s);
        });
        pipeline.on('dropped', (d) => this.bus.emit('segment.dropped', { reason: d.reason, openedBy: d.openedBy, vadStartMs: ms(d.vadStartSample), endMs: ms(d.endSample), speechMs: Math.round(d.speechMs) }));
        pipeline.on('error', (e) => {
          this.log.error('audio pipeline error', { error: e.message });
          this.bus.emit('vad.error', { message: e.message });
        });
        const source = this.makeSource();
        this.source = source;
        source.on('data', (chunk) => {
          void pipeline.push(chunk).then(() => (this.health.lastProcessedAt = this.clock.now()));
        });
        source.on('up', (i) => {
          this.health.capture = 'up';
          this.health.captureSince = this.clock.now();
          this.log.info('capture up', { device: i.device });
          this.bus.emit('capture.up', i);
        });
        source.on('down', (i) => {
          this.health.capture = 'down';
          this.health.captureSince = this.clock.now();
          this.log.warn('capture down', { device: i.device, reason: i.reason, restartInMs: i.restartInMs });
          this.bus.emit('capture.down', i);
        });
        source.on('end', () => {
          void pipeline.end().then(async () => {
            await this.segmentWork;
            this.bus.emit('input.end', { samples: pipeline.position });
            this.endResolve();
          });
        });
        await source.start();
      },
      stop: async () => {
        await this.source?.stop();
        await this.pipeline?.idle();
        await this.segmentWork;
        await vad?.close();
      },
    };
  }

  private makeSource(): AudioSource {
    const { input, config, logger } = this.opts;
    if (input) return new WavFileSource(input.path, { pace: input.pace, clock: this.clock });
    return new AlsaCapture(config.capture, { logger, clock: this.clock });
  }
}
