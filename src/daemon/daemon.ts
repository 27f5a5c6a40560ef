import '../path/events.js';
import { AlsaCapture } from '../audio/capture-alsa.js';
import { WavFileSource } from '../audio/capture-wav.js';
import type { HarkConfig } from '../config/schema.js';
import type { Secrets } from '../core/secrets.js';
import { Bus } from '../core/bus.js';
import { SystemClock, type Clock } from '../core/clock.js';
import { errorMessage } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import type { GpioDriver } from '../gpio/driver.js';
import type { ButtonTargets } from '../gpio/button-controller.js';
import type { StatusLed } from '../gpio/status-led.js';
import { debugComponent } from './debug-component.js';
import { gpioComponent } from './gpio-component.js';
import { createSpeech, type Speech } from '../speech/create.js';
import { keptSkew } from './kept-skew.js';
import { restoreTimers } from '../path/command-parts.js';
import { installedVoiceIds, onlyInstalled } from '../speech/voices.js';
import { Store } from '../store/store.js';
import { storeOptions } from '../store/from-config.js';
import { createStt, type SttStack } from '../stt/create.js';
import { Conversation } from '../path/conversation.js';
import { SegmentPath } from '../path/segment-path.js';
import type { Arbiter } from '../path/plugins.js';
import { CaptureWiring } from '../path/capture-wiring.js';
import type { Fleet } from '../fleet/client.js';
import { fleetComponent, fleetHooks } from '../fleet/component.js';
import { satelliteComponent } from '../ha/satellite/component.js';
import { Lifecycle, type Component } from '../path/lifecycle.js';
import { audioLoopAlive, type AudioHealth } from '../path/capture-health.js';
import type { Notifier } from './sd-notify.js';
import { heapTrimComponent } from './heap-trim.js';
import { pickingComponent, type PickingApi } from '../picking/component.js';
import { nativeHeapTrim } from '../echo/addon.js';
import type { ClockReading, ClockVerdict } from './clock-measure.js';
import { measureCardClocks } from './measure-cards.js';

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
  /** Overrides for `hark run` flags and tests. */
  deepgramUrl?: string;
}

/** Audio not processed for this long while capture is up means the loop is wedged. */
const AUDIO_STALE_MS = 10_000;

/**
 * The composition root: builds the adapters from the config and owns start-up and shutdown order —
 * store, fleet, satellite, debug server, speech output, GPIO, speech-to-text, the router, and capture
 * last (stopped in reverse) — so the microphone only opens once everything that consumes its audio
 * is ready, and closes first on the way down. The audio glue is src/path/capture-wiring.ts; plug-ins
 * reach the path only through src/path/plugins.ts.
 */
export class Daemon {
  readonly bus: Bus;
  readonly clock: Clock;
  /** Base URL of the debug server, once listening. */
  debugUrl: string | null = null;
  /** The GPIO driver (simulated on machines without GPIO): `hark run --tty` presses it. */
  gpio: GpioDriver | null = null;

  private readonly opts: DaemonOptions;
  private readonly log: Logger;
  private readonly lifecycle: Lifecycle;
  private readonly health: AudioHealth;
  /** Capture → VAD → the segment path (push-to-talk, mute); built at start, before the plug-ins that press and mute. */
  private capture: CaptureWiring | null = null;
  private store: Store | null = null;
  private speech: Speech | null = null;
  /** The command side (router, cascade, interruption filter): built with the router component. */
  private conversation: Conversation | null = null;
  private stt: SttStack | null = null;
  private path: SegmentPath | null = null;
  /** MQTT: events out, commands in, the room arbiter; null unless mqtt.url is set. */
  private fleet: Fleet | null = null;
  private led: StatusLed | null = null;
  /** Voice picking's HTTP side, once started (picking.enabled). */
  private picking: (() => PickingApi | null) | null = null;
  private satelliteArbiter: (next?: Arbiter) => Arbiter | undefined = (next) => next;
  private ready = false;
  private stopping = false;
  private watchdog: NodeJS.Timeout | null = null;
  private endResolve!: () => void;
  /** Resolves when an --input recording has been played and every segment of it handled. */
  readonly inputDone: Promise<void> = new Promise((r) => (this.endResolve = r));

  constructor(opts: DaemonOptions) {
    this.opts = opts;
    this.bus = opts.bus ?? new Bus();
    this.clock = opts.clock ?? new SystemClock();
    this.log = opts.logger;
    this.lifecycle = new Lifecycle(this.log);
    this.health = { lastProcessedAt: null, capture: 'starting', captureSince: this.clock.now() };
    this.bus.on('bus.listener-error', (e) => this.log.error('event listener failed', { event: e.event, error: errorMessage(e.error) }));
  }

  async start(): Promise<void> {
    this.watchSystemd();
    const front = () => this.path?.front() ?? null;
    const satellite = satelliteComponent({
      config: this.opts.config,
      secrets: this.opts.secrets,
      bus: this.bus,
      clock: this.clock,
      log: this.log.child({ component: 'ha-satellite' }),
      hooks: { front, speech: () => this.speech, setMuted: (m) => void this.setMuted(m) },
    });
    this.satelliteArbiter = satellite.arbiter;
    const { config, input } = this.opts;
    this.capture = new CaptureWiring({
      config,
      bus: this.bus,
      clock: this.clock,
      log: this.log,
      health: this.health,
      source: () =>
        input
          ? new WavFileSource(input.path, { pace: input.pace, clock: this.clock })
          : new AlsaCapture(config.capture, { logger: this.log.child({ component: 'capture' }), clock: this.clock }),
      recording: input !== undefined,
      path: () => this.path,
      speech: () => this.speech,
      stt: () => this.stt,
      watcher: satellite.watcher,
      stopping: () => this.stopping,
      ended: () => this.endResolve(),
    });
    const picking = pickingComponent({
      config: config.picking,
      languages: config.language.languages,
      device: config.mqtt.device,
      db: () => this.store?.db ?? null,
      router: () => this.conversation?.core.router ?? null,
      clock: this.clock,
      log: this.log.child({ component: 'picking' }),
      mqtt: config.mqtt,
      secrets: this.opts.secrets,
    });
    this.picking = () => picking.api();
    const parts = { config, secrets: this.opts.secrets, bus: this.bus, clock: this.clock, log: this.log };
    await this.lifecycle.start([
      this.storeComponent(),
      fleetComponent(
        {
          config: this.opts.config,
          secrets: this.opts.secrets,
          bus: this.bus,
          clock: this.clock,
          log: this.log.child({ component: 'fleet' }),
          hooks: fleetHooks(front, () => this.speech),
          outbox: () => this.store?.ringStops() ?? null,
        },
        (f) => (this.fleet = f),
      ),
      satellite,
      debugComponent(parts, {
        store: () => this.store,
        path: () => this.path,
        fleet: () => this.fleet,
        stt: () => this.stt,
        speech: () => this.speech,
        gpio: () => this.gpio,
        picking: () => this.picking?.() ?? null,
        listening: (url) => (this.debugUrl = url),
      }),
      this.speechComponent(),
      gpioComponent(parts, this.buttonTargets(), (p) => {
        this.gpio = p?.driver ?? null;
        this.led = p?.led ?? null;
      }),
      this.sttComponent(),
      this.routerComponent(),
      // After the router (its frame goes on the stack) and before capture (nothing heard before it is up).
      picking,
      this.capture.component(),
      heapTrimComponent({ clock: this.clock, log: this.log.child({ component: 'heap-trim' }), trim: nativeHeapTrim() }),
    ]);
    this.bus.emit('daemon.ready', { components: this.lifecycle.names() });
  }

  async stop(reason = 'stop requested'): Promise<void> {
    this.stopping = true;
    this.bus.emit('daemon.stopping', { reason });
    this.opts.notifier?.send(`STOPPING=1\nSTATUS=stopping: ${reason}`);
    if (this.watchdog) clearInterval(this.watchdog);
    await this.lifecycle.stop(2500);
    this.opts.notifier?.close();
  }

  /** Push-to-talk from whatever drives the button (GPIO, --tty, the debug API). */
  pttDown(): void {
    this.capture?.pttDown();
  }
  pttUp(cancelled = false): void {
    this.capture?.pttUp(cancelled);
  }

  /**
   * `hark clocks`: play the measuring sound through the speaker, as hark plays anything, until its
   * echo canceller has the speaker's clock against the microphone's settled (and so kept for these
   * cards, as any run keeps it), or knows they are one clock.
   */
  async measureClocks(timeoutMs: number, onProgress?: (r: ClockReading | null, elapsedMs: number) => void): Promise<ClockVerdict> {
    return measureCardClocks({
      speech: this.speech,
      store: this.store,
      config: this.opts.config,
      clock: this.clock,
      timeoutMs,
      ...(onProgress ? { onProgress } : {}),
    });
  }

  /** Resolves when every segment closed so far has been handled. */
  async segmentsIdle(): Promise<void> {
    await this.capture?.idle();
  }

  // ---- components, in start order ----

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

  private speechComponent(): Component {
    const { config } = this.opts;
    return {
      name: 'speech',
      start: () => {
        const speech = createSpeech(config, {
          bus: this.bus,
          clock: this.clock,
          logger: this.log.child({ component: 'speech' }),
          skew: keptSkew(config, () => this.store, this.log.child({ component: 'speech' })),
        });
        this.speech = speech;
      },
      stop: () => {
        this.speech?.close();
        this.speech = null;
      },
    };
  }

  /** What the button's gestures do. */
  private buttonTargets(): ButtonTargets {
    return {
      isSpeaking: () => this.speech?.queue.isPlaying ?? false,
      stopSpeaking: (r) => {
        // A press over a ring silences the ringing timer, not just this ring.
        this.path?.front().stopRinging();
        this.speech?.queue.stop(r);
        this.conversation?.interruptAnswer(r);
      },
      pttDown: () => this.pttDown(),
      pttUp: (cancelled) => this.pttUp(cancelled),
      setMuted: (m) => void this.setMuted(m),
      tap: () => this.capture?.tap() ?? false,
    };
  }

  private sttComponent(): Component {
    const { config, secrets } = this.opts;
    return {
      name: 'stt',
      start: async () => {
        this.stt = await createStt({
          config: config.stt,
          secrets,
          languages: config.language.languages,
          bus: this.bus,
          logger: this.log.child({ component: 'stt' }),
          clock: this.clock,
          ...(this.opts.deepgramUrl ? { deepgramUrl: this.opts.deepgramUrl } : {}),
        });
      },
      stop: async () => {
        await this.stt?.close();
        this.stt = null;
      },
    };
  }

  private routerComponent(): Component {
    const { config } = this.opts;
    return {
      name: 'router',
      start: async () => {
        let voices: readonly { id: string; say?: string[] }[] | undefined;
        // A Wyoming voice server's own voices, when there is one (and it answers); else espeak-ng's.
        const served = await this.speech?.voices?.();
        if (served?.length) voices = served;
        else
          try {
            voices = onlyInstalled(config.router.voices as { id: string; say?: string[] }[], await installedVoiceIds());
          } catch (err) {
            this.log.warn('cannot list espeak-ng voices; the voice picker offers the configured ones', { error: errorMessage(err) });
          }
        const arbiter = this.satelliteArbiter(this.fleet?.arbiter ?? undefined);
        this.conversation = new Conversation({
          config,
          secrets: this.opts.secrets,
          bus: this.bus,
          clock: this.clock,
          log: this.log,
          store: this.store,
          speech: this.speech,
          ...(voices ? { voices } : {}),
        });
        this.path = new SegmentPath({
          config,
          bus: this.bus,
          clock: this.clock,
          log: this.log,
          stt: this.stt,
          speech: this.speech,
          conversation: this.conversation,
          store: () => this.store,
          source: this.opts.input ? 'file' : 'mic',
          // A recording played as fast as hark takes it: segments close faster than speech, so no wait
          // or memory bound applies (the file is in memory anyway).
          unbounded: this.opts.input?.pace === 'fast',
          setHangoverMs: (ms) => this.capture?.setHangoverMs(ms),
          closeEarly: () => this.capture?.closeEarly(),
          ...(arbiter ? { arbiter } : {}),
        });
        restoreTimers(this.path.commands);
        this.bus.on('router.effect', (e) => {
          if (e.type === 'stack') this.led?.setFlag('confirm', e.frames[e.frames.length - 1] === 'confirm');
          if (e.type === 'follow-up') this.led?.setFlag('followUp', e.open);
        });
      },
      stop: async () => {
        await this.path?.drain();
        this.path?.dispose();
        this.path = null;
        this.conversation = null;
      },
    };
  }

  /** Mute closes the microphone (privacy): from the button or Home Assistant. */
  private async setMuted(muted: boolean): Promise<void> {
    await this.capture?.setMuted(muted);
  }

  /**
   * READY=1 once hark is up — store, debug page, speech-to-text and the capture supervisor started —
   * whether or not a microphone is there: waiting for audio made a missing mic a systemd restart loop
   * (no READY within TimeoutStartSec), which never brings a mic back. STATUS= says what the mic is
   * doing; WATCHDOG=1 only while the audio loop is alive (see audioLoopAlive).
   */
  private watchSystemd(): void {
    const n = this.opts.notifier;
    if (!n) return;
    this.bus.on('daemon.ready', () => {
      this.ready = true;
      n.send(`READY=1\nSTATUS=${this.captureStatus()}`);
    });
    this.bus.on('capture.up', () => this.ready && n.send(`STATUS=${this.captureStatus()}`));
    this.bus.on('capture.down', () => this.ready && n.send(`STATUS=${this.captureStatus()}`));
    this.bus.on('mute', (m) => n.send(`STATUS=${m.muted ? 'muted' : 'listening'}`));
    if (n.watchdogMs) {
      this.watchdog = setInterval(() => {
        if (this.capture?.muted || audioLoopAlive(this.health, this.clock.now(), AUDIO_STALE_MS)) n.send('WATCHDOG=1');
        else
          this.log.error('audio loop stalled: not feeding the systemd watchdog', {
            capture: this.health.capture,
            lastProcessedAt: this.health.lastProcessedAt,
          });
      }, n.watchdogMs);
      this.watchdog.unref();
    }
  }

  private captureStatus(): string {
    return this.capture?.status() ?? 'waiting for audio from microphone';
  }
}
