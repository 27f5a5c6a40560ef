import type { Command } from 'commander';
import { createLogger } from '../core/log.js';
import { HarkError } from '../core/errors.js';
import { Daemon } from '../daemon/daemon.js';
import { createNotifier } from '../daemon/sd-notify.js';
import { warnIfWhisperBuildDiffers } from '../doctor/whisper-build.js';
import { action, loadConfigFor } from './common.js';
import { sttOverrides } from './stt-options.js';

interface RunOpts {
  config?: string;
  input?: string;
  exitAtEnd?: boolean;
  fast?: boolean;
  json?: boolean;
  device?: string;
  db?: string;
  port?: string;
  model?: string;
  sttMode?: string;
  deepgramUrl?: string;
  tty?: boolean;
}

/** Typed arrays (audio) are summarised in event output: a line per event, not a megabyte. */
function jsonReplacer(_key: string, value: unknown): unknown {
  if (ArrayBuffer.isView(value)) return { samples: (value as Int16Array).length };
  if (value instanceof Error) return value.message;
  return value;
}

/**
 * `--tty`: the space bar is the button. Terminals send no key-up, so each space toggles: the first
 * press holds the button down (push-to-talk opens), the next releases it.
 */
function attachTty(daemon: Daemon, logger: ReturnType<typeof createLogger>): void {
  const stdin = process.stdin;
  const g = daemon.gpio as { press?: () => void; release?: () => void } | null;
  if (!stdin.isTTY || !g?.press || !g.release) {
    logger.warn('--tty needs an interactive terminal and the simulated button (no GPIO, or gpio.driver: simulated)');
    return;
  }
  stdin.setRawMode(true);
  stdin.resume();
  let down = false;
  logger.info('space bar = button (press to start talking, press again to stop); Ctrl-C quits');
  stdin.on('data', (key: Buffer) => {
    if (key[0] === 3) return void process.kill(process.pid, 'SIGINT');
    if (key[0] !== 0x20) return;
    down = !down;
    if (down) g.press!();
    else g.release!();
  });
}

export function register(program: Command): void {
  program
    .command('run')
    .description('run hark: listen on the microphone (or a recording), segment, understand, act')
    .option('-c, --config <file>', 'config file (default: $HARK_CONFIG, /etc/hark/hark.yaml, ./hark.yaml)')
    .option('--input <file.wav>', 'run on a recording instead of the microphone (paced like a microphone)')
    .option('--fast', 'with --input: play the recording as fast as hark can take it')
    .option('--exit-at-end', 'with --input: exit once the recording has been handled')
    .option('--json', 'print every event as a JSON line on stdout (logs go to stderr)')
    .option('--device <alsa-device>', 'capture device, overriding capture.device')
    .option('--db <path>', 'segment log (SQLite), overriding store.path')
    .option('--port <n>', 'debug viewer port, overriding debug.port (0: any free port)')
    .option('--model <path>', 'Whisper model file, overriding stt.whisper.model')
    .option('--stt-mode <mode>', 'local-first, cloud-first, local-only or cloud-only, overriding stt.mode')
    .option('--deepgram-url <url>', 'Deepgram endpoint (ws://HOST:PORT for a test server), overriding stt.deepgram.url')
    .option('--tty', 'the space bar presses and releases the (simulated) button')
    .action(
      action(async (opts: RunOpts) => {
        const { config, secrets } = loadConfigFor(opts);
        if (opts.device) config.capture.device = opts.device;
        if (opts.db) config.store.path = opts.db;
        if (opts.model) config.stt.whisper.model = opts.model;
        const stt = sttOverrides(opts);
        if (stt.deepgramUrl) config.stt.deepgram.url = stt.deepgramUrl;
        if (stt.mode) config.stt.mode = stt.mode;
        if (opts.port !== undefined) {
          const port = Number(opts.port);
          if (!Number.isInteger(port) || port < 0 || port > 65535) throw new HarkError(`--port must be a port number, got "${opts.port}"`, { exitCode: 2 });
          config.debug.port = port;
        }
        if ((opts.exitAtEnd || opts.fast) && !opts.input) throw new HarkError('--exit-at-end and --fast need --input FILE.wav', { exitCode: 2 });
        const logger = createLogger({
          level: config.log.level,
          json: config.log.json,
          // with --json, stdout carries events only
          sink: opts.json ? (l) => process.stderr.write(l + '\n') : (l) => process.stdout.write(l + '\n'),
        });
        warnIfWhisperBuildDiffers(config, logger);
        const notifier = createNotifier(process.env, (msg) => logger.warn('systemd notify', { error: msg }));
        const daemon = new Daemon({
          config,
          secrets,
          logger,
          notifier,
          ...(opts.input ? { input: { path: opts.input, pace: opts.fast ? 'fast' : 'realtime' } } : {}),
        });
        if (opts.json) {
          daemon.bus.onAny((type, payload) => process.stdout.write(JSON.stringify({ type, ...(payload as object) }, jsonReplacer) + '\n'));
        }
        // A bug must not leave a half-working appliance: log it with its context, then exit non-zero
        // so systemd restarts hark (Restart=always). The store is WAL: committed rows survive.
        const fatal = (kind: string) => (err: unknown) => {
          logger.error(`${kind}: hark will exit and systemd will restart it`, {
            error: err instanceof Error ? err.message : String(err),
            stack: err instanceof Error ? err.stack : undefined,
          });
          process.exit(70);
        };
        process.on('uncaughtException', fatal('uncaught exception'));
        process.on('unhandledRejection', fatal('unhandled promise rejection'));
        let stopping: Promise<void> | null = null;
        const stop = (reason: string) => {
          stopping ??= daemon.stop(reason);
          return stopping;
        };
        const onSignal = (sig: NodeJS.Signals) => {
          logger.info('signal received, stopping', { signal: sig });
          void stop(sig).then(() => process.exit(0));
        };
        process.once('SIGTERM', onSignal);
        process.once('SIGINT', onSignal);
        await daemon.start();
        if (opts.tty) attachTty(daemon, logger);
        logger.info('hark running', { input: opts.input ?? config.capture.device });
        if (opts.input && opts.exitAtEnd) {
          await daemon.inputDone;
          await stop('end of input');
          process.removeListener('SIGTERM', onSignal);
          process.removeListener('SIGINT', onSignal);
        } else {
          await new Promise<never>(() => {});
        }
      }),
    );
}
