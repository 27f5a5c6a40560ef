import type { Command } from 'commander';
import { createLogger } from '../core/log.js';
import { HarkError } from '../core/errors.js';
import { Daemon } from '../daemon/daemon.js';
import type { ClockVerdict } from '../daemon/clock-measure.js';
import { action, loadConfigFor, out } from './common.js';
import { sttOverrides } from './stt-options.js';

interface ClocksOpts {
  config?: string;
  db?: string;
  seconds?: string;
  sttMode?: string;
  deepgramUrl?: string;
}

const round2 = (x: number) => Math.round(x * 100) / 100;

/** One line a technician reads, and whether the cards are fit for hark as they are. */
export function sayVerdict(v: ClockVerdict, cards: string): { line: string; ok: boolean } {
  switch (v.kind) {
    case 'followed':
      return {
        line: `the speaker's clock runs ${round2(v.ppm)} ppm (± ${round2(v.errorPpm)}) off the microphone's; kept for ${cards}: hark follows it from its first sound`,
        ok: true,
      };
    case 'one-clock':
      return { line: `the speaker and the microphone keep one time (${round2(v.ppm)} ± ${round2(v.errorPpm)} ppm): nothing to follow`, ok: true };
    case 'too-far':
      return {
        line: `the speaker's clock runs ${Math.round(v.ppm)} ppm off the microphone's, more than two crystals do: one card does not play or record at the rate it says. Fix: one USB speakerphone for both, or name the cards in capture.device and speech.device (arecord -l, aplay -l)`,
        ok: false,
      };
    case 'no-echo':
      return {
        line: "hark's sound did not reach the microphone: check the speaker's volume (alsamixer) and that speech.device is the speaker beside this microphone",
        ok: false,
      };
    case 'unsettled':
      return {
        line: `the skew did not settle in time (${v.ppm === null ? 'no reading' : `${round2(v.ppm)} ± ${round2(v.errorPpm ?? NaN)} ppm`}): run it again in a quieter moment, or with --seconds 180`,
        ok: false,
      };
  }
}

export function register(program: Command): void {
  program
    .command('clocks')
    .description("measure the speaker's clock against the microphone's with a soft hiss, and keep it for these cards (run once at install)")
    .option('-c, --config <file>', 'config file (default: $HARK_CONFIG, /etc/hark/hark.yaml, ./hark.yaml)')
    .option('--db <path>', 'where the skew is kept (SQLite), overriding store.path')
    .option('--seconds <n>', 'give up after this long', '120')
    .option('--stt-mode <mode>', 'overriding stt.mode (the measurement needs no speech recognition)')
    .option('--deepgram-url <url>', 'Deepgram endpoint, overriding stt.deepgram.url')
    .action(
      action(async (opts: ClocksOpts) => {
        const seconds = Number(opts.seconds);
        if (!Number.isFinite(seconds) || seconds < 5 || seconds > 600)
          throw new HarkError(`--seconds must be 5 to 600, got "${opts.seconds}"`, { exitCode: 2 });
        const { config, secrets } = loadConfigFor(opts);
        if (opts.db) config.store.path = opts.db;
        const stt = sttOverrides(opts);
        if (stt.deepgramUrl) config.stt.deepgram.url = stt.deepgramUrl;
        if (stt.mode) config.stt.mode = stt.mode;
        // The running hark's debug page may hold its port; this is a measurement, with nothing to show there.
        config.debug.enabled = false;
        const logger = createLogger({ level: 'warn', json: config.log.json, sink: (l) => process.stderr.write(l + '\n') });
        const daemon = new Daemon({ config, secrets, logger });
        const up = new Promise<boolean>((resolve) => {
          const t = setTimeout(() => resolve(false), 15_000);
          daemon.bus.on('capture.up', () => (clearTimeout(t), resolve(true)));
        });
        const cards = `${config.capture.device} -> ${config.speech.device}`;
        try {
          await daemon.start();
          if (!(await up))
            throw new HarkError(`the microphone (${config.capture.device}) did not open in 15 s: if hark is running, stop it first (sudo systemctl stop hark)`);
          out(`playing a soft hiss for up to ${seconds} s: ${cards}`);
          const v = await daemon.measureClocks(seconds * 1000, (r, ms) => {
            if (r?.ppm != null) out(`  ${Math.round(ms / 1000)} s: ${round2(r.ppm)} ± ${round2(r.errorPpm ?? NaN)} ppm`);
          });
          const said = sayVerdict(v, cards);
          out(said.line);
          if (!said.ok) process.exitCode = 1;
        } finally {
          await daemon.stop('clocks measured');
        }
      }),
    );
}
