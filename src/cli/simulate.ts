import type { Command } from 'commander';
import { mkdtempSync, mkdirSync, rmdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { VirtualClock } from '../core/clock.js';
import { VirtualDrive } from '../core/virtual-drive.js';
import { HarkError } from '../core/errors.js';
import { createLogger } from '../core/log.js';
import { Bus } from '../core/bus.js';
import { createSpeech } from '../speech/create.js';
import type { Effect } from '../core/effects.js';
import { parseSimLine } from '../command/simulate-input.js';
import { Conversation } from '../path/conversation.js';
import { action, loadConfigFor, out } from './common.js';
import { offerFile, simulatePicking, type SimulatedPicking } from '../picking/simulate.js';

interface SimulateOpts {
  config?: string;
  outDir?: string;
  trace?: boolean;
  liveWebhooks?: boolean;
  drainMs?: string;
  ollama?: string;
  ha?: string | true;
  assignment?: string[];
  liveWms?: boolean;
  wmsDrainMs?: string;
}

/** Effects only shown with --trace: which rule took what, and classifier answers. */
const TRACE_ONLY = new Set<Effect['type']>(['matched', 'classifier']);

export function register(program: Command): void {
  program
    .command('simulate')
    .description('run the command router, timers and actions on a virtual clock, reading utterances from stdin; prints JSON lines')
    .option('-c, --config <file>', 'config file (default: $HARK_CONFIG, /etc/hark/hark.yaml, ./hark.yaml)')
    .option('--out-dir <dir>', 'where file targets write (default: a new directory under the system temp dir)')
    .option('--trace', 'also print which rule matched each utterance, and classifier answers')
    .option('--live-webhooks', 'really POST to webhook targets (by default they are reported, not called)')
    .option('--drain-ms <ms>', 'at end of input, run pending timers for at most this much virtual time', '3600000')
    .option('--ollama <url>', 'run the intent pass against this Ollama (e.g. http://127.0.0.1:11434); each model call is real and waited for')
    .option(
      '--assignment <file>',
      'voice picking (picking.enabled): offer this assignment (JSON, docs/picking.md) at start; repeatable',
      (v: string, all: string[] = []) => [...all, v],
    )
    .option(
      '--live-wms',
      'really talk to the warehouse system (picking.wms.url, or the broker with picking.wms.mqtt): assignments in, results out (by default results stay in the outbox, picking.db in the out dir)',
    )
    .option('--wms-drain-ms <ms>', 'with --live-wms, at end of input wait at most this long (real time) for the outbox to empty', '10000')
    .option(
      '--ha [url]',
      "really ask Home Assistant's conversation agent (ha.conversation, or at this URL; token from HARK_HA_TOKEN); by default it is reported, not called",
    )
    .addHelpText(
      'after',
      `
Input, one per line:
  plain text                      an utterance, 1 s after the previous line
  [tap]                           a button tap, 1 s after the previous line ({"button": "tap", "atMs": N});
                                  a ringing timer takes it first (as do "stop", "ok", "thanks", no wake word)
  {"text": "...", "atMs": 5000}   an utterance at a virtual time (atMs optional)
  [es] text                       an utterance said in this language ({"text": "...", "language": "es"}):
                                  read in it first, as a multilingual engine's transcript is; one of
                                  language.languages
  {"atMs": 65000}                 only move the clock (timers fire on the way)

With ha.conversation.url set (or --ha URL), query submissions go to Home Assistant's conversation
agent; with --ha each call is real and waited for, and its reply is spoken.

With --ollama, query submissions go to the intent pass (lists are kept in memory) and these lines
are added: {"type":"proposal",...}, {"type":"ambiguous",...}, {"type":"commit",...}, {"type":"discard",...}

Example:
  printf 'computer\\nset a timer for ten minutes\\n' | hark simulate
  printf 'computer we are short three cases of milk for the order list\\ngo\\nyes\\n' | hark simulate --ollama http://127.0.0.1:11434`,
    )
    .action(action(simulate));
}

/** A virtual clock past a year is a typo (1e300 would spin the timer loop forever). */
const MAX_SIM_MS = 365 * 24 * 3600 * 1000;

async function simulate(opts: SimulateOpts): Promise<void> {
  const { config, secrets } = loadConfigFor(opts);
  const drainMs = Number(opts.drainMs);
  if (!Number.isInteger(drainMs) || drainMs < 0)
    throw new HarkError(`--drain-ms must be a whole number of milliseconds, got ${JSON.stringify(opts.drainMs)}`, { exitCode: 2 });
  const outDir = opts.outDir ? resolve(opts.outDir) : mkdtempSync(resolve(tmpdir(), 'hark-simulate-'));
  mkdirSync(outDir, { recursive: true });

  const clock = new VirtualClock(0);
  // hark's voice, with playback time modelled on the virtual clock (70 ms per character), so talking
  // over it can be tried without audio: the interruption filter decides while it "speaks".
  const bus = new Bus();
  const speech = createSpeech(config, { bus, clock, simulated: {} });
  bus.on('interruption.filtered', (e) => out(JSON.stringify({ type: 'interruption', decision: 'filter', text: e.text, reason: e.reason, atMs: clock.now() })));
  bus.on('interruption.allowed', (e) => out(JSON.stringify({ type: 'interruption', decision: 'allow', text: e.text, reason: e.reason, atMs: clock.now() })));
  bus.on('speak.stopped', (e) => out(JSON.stringify({ type: 'speak.stopped', reason: e.reason, text: e.text, playedMs: e.playedMs, atMs: clock.now() })));
  const log = createLogger({ level: config.log.level === 'debug' ? 'debug' : 'warn', json: config.log.json });
  // Home Assistant: called only with --ha (a simulated "turn on the fan" must not turn on the real one).
  const haUrl = typeof opts.ha === 'string' ? opts.ha : config.ha.conversation.url;
  if (typeof opts.ha === 'string' && !/^https?:\/\/[^/\s]+/.test(opts.ha))
    throw new HarkError(`--ha must be an http:// URL such as http://homeassistant.local:8123, got ${JSON.stringify(opts.ha)}`, { exitCode: 2 });
  if (opts.ha === true && !haUrl) throw new HarkError('--ha needs a URL, or ha.conversation.url in the config', { exitCode: 2 });
  if (opts.ollama !== undefined && !/^https?:\/\/[^/\s]+/.test(opts.ollama))
    throw new HarkError(`--ollama must be an http:// URL such as http://127.0.0.1:11434, got ${JSON.stringify(opts.ollama)}`, { exitCode: 2 });
  // The device's command side, built by the device's own builder: the response cascade
  // prepares a proposal 0.5 s after the words and says it at 2 s here too. No store in simulate:
  // lists live in memory for the run (the header line says so).
  const conversation = new Conversation({
    config,
    secrets,
    bus,
    clock,
    log,
    store: null,
    speech,
    sandbox: {
      dir: outDir,
      notCalled: { webhook: 'pass --live-webhooks', ha: 'pass --ha' },
      ...(opts.liveWebhooks ? { liveWebhooks: true } : {}),
      ...(opts.ollama !== undefined ? { ollama: opts.ollama } : {}),
      ...(opts.ha !== undefined && haUrl ? { ha: haUrl } : {}),
    },
  });
  conversation.listen((e, atMs) => {
    if (!opts.trace && TRACE_ONLY.has(e.type)) return;
    out(JSON.stringify({ ...e, atMs }));
  });
  const { core, intent } = conversation.commands;

  const intentInfo = intent ? { intent: { host: opts.ollama, model: config.intent.model, frames: config.intent.frames, lists: intent.lists.describe() } } : {};
  out(JSON.stringify({ type: 'simulate', outDir, targets: core.describeTargets(), mode: core.router.mode, stack: core.router.stack, ...intentInfo, atMs: 0 }));
  // Voice picking: its frame on top from the start, its ledger in the out dir (a second run resumes).
  let picking: SimulatedPicking | null = null;
  if (config.picking.enabled) {
    picking = simulatePicking({
      config: config.picking,
      languages: config.language.languages,
      device: config.mqtt.device,
      router: core.router,
      clock,
      log,
      outDir,
      print: (e) => out(JSON.stringify({ ...e, atMs: clock.now() })),
      liveWms: opts.liveWms === true,
      mqtt: config.mqtt,
      secrets,
    });
    for (const file of opts.assignment ?? []) offerFile(picking.runtime, file);
  } else if (opts.assignment?.length) throw new HarkError('--assignment needs picking.enabled: true in the config', { exitCode: 2 });
  // As the daemon does: load the model first, so the first line does not pay for it. A failure is
  // logged (stderr) and the first request says it.
  if (intent && config.intent.warmUp) await intent.pass.warmUp();

  // Settle async work (file appends, a classifier) before the next line. While the router waits
  // on a classifier, virtual time follows real time, so a classifier's timeout means what it
  // would on the appliance. Timer by timer, settling after each, so a delivery is reported at the
  // time it happened: the same driver replay uses.
  const drive = new VirtualDrive(clock, () => conversation.settle(clock));
  const { settle } = drive;

  let previous = 0;
  let lineNo = 0;
  let rejected = 0;
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    lineNo++;
    const parsed = parseSimLine(line, previous);
    if (parsed.kind === 'blank') continue;
    if (parsed.kind === 'error') {
      rejected++;
      process.stderr.write(`hark simulate: line ${lineNo}: ${parsed.message} (line skipped)\n`);
      continue;
    }
    if (parsed.atMs > MAX_SIM_MS) {
      rejected++;
      process.stderr.write(`hark simulate: line ${lineNo}: atMs must be at most ${MAX_SIM_MS} (a year) (line skipped)\n`);
      continue;
    }
    if (parsed.language !== undefined && !core.language.in(parsed.language)) {
      rejected++;
      process.stderr.write(
        `hark simulate: line ${lineNo}: language "${parsed.language}" is not one of this device's (language.languages: ${core.language
          .each()
          .map((k) => k.lang.code)
          .join(', ')}) (line skipped)\n`,
      );
      continue;
    }
    await drive.advanceTo(parsed.atMs);
    previous = parsed.atMs;
    if (parsed.button !== undefined) {
      // As the appliance's button: a tap while hark plays something silences it (that was a
      // "stop"); otherwise the top frame takes it if it has a rule for it (dictation, inventory).
      // A ringing timer takes the tap before anything else.
      const ringing = core.timers.ringing;
      const silencing = !ringing && speech.queue.isPlaying;
      const consumed = !ringing && !silencing && core.router.handlesButton(parsed.button);
      out(JSON.stringify({ type: 'button', line: lineNo, gesture: parsed.button, consumed: consumed || ringing, atMs: clock.now() }));
      if (ringing) core.tapStopsRinging();
      else if (silencing) speech.queue.stop('button');
      else if (consumed) core.router.button(parsed.button);
      await settle();
      continue;
    }
    if (parsed.text === undefined) continue;
    out(JSON.stringify({ type: 'heard', line: lineNo, text: parsed.text, ...(parsed.language ? { language: parsed.language } : {}), atMs: clock.now() }));
    // As on the appliance: while hark speaks, "yeah" is a backchannel and playback goes on; a yes or
    // no to hark's own question is an answer.
    // A ring is not a conversation: "ok" or "thanks" over it stops it rather than being a backchannel.
    // In wake-word mode, talk between cooks ("behind you") does not cut hark off; dictation and
    // inventory take every word as content, whether or not it stops hark.
    const decision = conversation.interruption(`line-${lineNo}`, parsed.text, true, speech.queue.isSpeaking, parsed.language);
    if (decision?.action === 'filter' && !conversation.takesEveryWord()) continue;
    // As the segment path does: words take the floor from an answer being prepared.
    if (!speech.queue.isSpeaking) conversation.interruptAnswer('speech');
    const dispatched = conversation.dispatch(
      {
        id: `line-${lineNo}`,
        text: parsed.text,
        rawText: parsed.text,
        engine: 'text',
        ...(parsed.language ? { language: parsed.language } : {}),
        atMs: parsed.atMs,
      },
      parsed.atMs,
    );
    await settle();
    await dispatched;
  }

  // Let the timers run out: kitchen timers ring, the query's silence timer submits.
  await drive.runTimers(clock.now() + drainMs);
  if (picking) {
    await picking.drain(Number(opts.wmsDrainMs) || 0);
    out(JSON.stringify({ type: 'picking-outbox', ...picking.outbox.state(), atMs: clock.now() }));
  }
  out(JSON.stringify({ type: 'end', atMs: clock.now(), stack: core.router.stack, pendingTimers: clock.pending(), rejectedLines: rejected }));
  conversation.dispose();
  picking?.close();
  // A temp directory nothing was written to is not left behind (rmdir refuses a non-empty one).
  if (!opts.outDir) {
    try {
      rmdirSync(outDir);
    } catch {
      /* kept: a target wrote into it, and its name was printed first */
    }
  }
  if (rejected) process.exitCode = 1;
}
