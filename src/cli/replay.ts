import type { Command } from 'commander';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HarkError } from '../core/errors.js';
import { createLogger } from '../core/log.js';
import { STT_MODES } from '../stt/config.js';
import { formatLine, formatSummary, judge, spansDays, summarise, type Verdict } from '../replay/compare.js';
import { audioHearing, textHearing, type AudioHearing } from '../replay/hearing.js';
import { runReplay } from '../replay/runner.js';
import { parseSince } from '../replay/since.js';
import { ReplaySource } from '../replay/source.js';
import { sttOverrides } from './stt-options.js';
import { action, loadConfigFor, out } from './common.js';

interface ReplayOpts {
  db?: string;
  since?: string;
  config?: string;
  textOnly?: boolean;
  all?: boolean;
  json?: boolean;
  vad?: boolean;
  model?: string;
  sttMode?: string;
  deepgramUrl?: string;
  verbose?: boolean;
  ollama?: string;
}

export function register(program: Command): void {
  program
    .command('replay')
    .description('re-run logged segments through a config and print where the outcome differs from what happened (never writes the log, calls no webhook)')
    .option('--db <file>', 'the segment log to replay (default: store.path from the config); opened read-only')
    .option('--since <when>', 'only segments since then: a duration back from now (30m, 1h, 2d) or a time (2026-03-14T09:30); default: all')
    .option('-c, --config <file>', 'the config to try (default: $HARK_CONFIG, /etc/hark/hark.yaml, ./hark.yaml)')
    .option('--text-only', "skip audio and speech-to-text: feed each segment's stored transcript to the router (fast; for vocabulary changes)")
    .option('--all', 'print every segment, not only those that differ')
    .option('--json', 'one JSON object per segment (old and new outcome), then a summary object')
    .option('--no-vad', 'full mode: transcribe the stored segments as they were cut, without re-running the VAD')
    .option('--model <path>', 'ggml Whisper model file (default: stt.whisper.model in stt.whisper.modelsDir)')
    .option('--stt-mode <mode>', `${STT_MODES.join(', ')} (default: the config's stt.mode)`)
    .option('--deepgram-url <url>', 'Deepgram base URL, e.g. ws://127.0.0.1:8080 for a local server (default: stt.deepgram.url)')
    .option(
      '--ollama <url>',
      'run the intent pass against this Ollama (e.g. http://127.0.0.1:11434), as the device does; each model call is real and waited for',
    )
    .option('-v, --verbose', 'log what the engines and the router do to stderr')
    .addHelpText(
      'after',
      `
Each differing segment is one line:
  #1234 10:32:05 differs  text: "eighty six the salmon"  actions: (none) → eighty-six{item=the salmon}

Compared: the text the router got (case and punctuation aside) and the actions fired (name, args,
outcome). Replay starts from the base frame in the config's mode; hark's own speech is not replayed,
so the interruption filter never applies. File targets write to a temporary directory.

Examples:
  hark replay --db /var/lib/hark/hark.db --since 1d --config new.yaml --text-only
  hark replay --db copy-of-pi.db --config new.yaml --model ~/models/ggml-base.en-q5_1.bin --all`,
    )
    .action(action(replay));
}

async function replay(opts: ReplayOpts): Promise<void> {
  // The config first: an invalid one exits 2 naming every problem, before anything is opened.
  const { config, secrets } = loadConfigFor(opts);
  const sinceMs = opts.since === undefined ? null : parseSince(opts.since, Date.now());
  const { mode } = sttOverrides(opts);
  if (opts.textOnly && (opts.model || opts.sttMode || opts.deepgramUrl || opts.vad === false)) {
    throw new HarkError('--text-only replays stored transcripts: --model, --stt-mode, --deepgram-url and --no-vad do not apply', { exitCode: 2 });
  }
  const textOnly = opts.textOnly === true;
  const logger = createLogger({ level: opts.verbose ? 'info' : 'error', json: config.log.json });

  const source = ReplaySource.open(opts.db ?? config.store.path);
  const scratchDir = mkdtempSync(join(tmpdir(), 'hark-replay-'));
  let hearing: AudioHearing | null = null;
  try {
    const range = source.range(sinceMs);
    if (range.segments.length === 0) {
      const newest = range.newestStartedAt === null ? 'the log is empty' : `the newest is from ${new Date(range.newestStartedAt).toISOString()}`;
      if (opts.json)
        out(
          JSON.stringify({
            type: 'summary',
            replayed: 0,
            differ: 0,
            same: 0,
            skipped: 0,
            skippedBy: {},
            fromText: 0,
            differences: { vad: 0, text: 0, actions: 0 },
          }),
        );
      else out(`no segments${sinceMs === null ? '' : ` since ${new Date(sinceMs).toISOString()}`} in ${source.path} (${newest})`);
      return;
    }
    const withIntents = range.segments.filter((s) => s.intentRows > 0).length;
    if (opts.ollama !== undefined && !/^https?:\/\/[^/\s]+/.test(opts.ollama))
      throw new HarkError(`--ollama must be an http:// URL such as http://127.0.0.1:11434, got ${JSON.stringify(opts.ollama)}`, { exitCode: 2 });
    if (withIntents && opts.ollama === undefined) {
      // The intent pass asks a local model (Ollama): slow and not repeatable, so only when asked for.
      process.stderr.write(
        `hark replay: note: ${withIntents} segment(s) have intent-pass rows (model proposals); without --ollama replay does not run the intent pass, so what it committed shows as missing\n`,
      );
    }
    if (!textOnly)
      hearing = await audioHearing({
        config,
        secrets,
        source,
        vad: opts.vad !== false,
        ...(mode ? { mode } : {}),
        ...(opts.model ? { modelPath: opts.model } : {}),
        ...(opts.deepgramUrl ? { deepgramUrl: opts.deepgramUrl } : {}),
        logger,
      });
    const withDate = spansDays(range.segments.map((s) => s.startedAt));
    const verdicts: Verdict[] = [];
    await runReplay({
      config,
      segments: range.segments,
      horizonMs: range.horizonMs,
      hear: hearing ? hearing.hear : textHearing(),
      scratchDir,
      ...(opts.ollama !== undefined ? { ollama: opts.ollama } : {}),
      log: logger.child({ component: 'router' }),
      onResult: (r) => {
        const v = judge(r);
        verdicts.push(v);
        if (opts.json) out(JSON.stringify(jsonRecord(v)));
        else if (opts.all || v.status === 'differs') out(formatLine(v, { withDate }));
      },
    });
    const summary = summarise(verdicts);
    out(opts.json ? JSON.stringify({ type: 'summary', ...summary }) : formatSummary(summary, textOnly ? 'text-only' : 'full'));
  } finally {
    await hearing?.close();
    source.close();
    rmSync(scratchDir, { recursive: true, force: true });
  }
}

/** `--json`: one object per segment (these keys are a contract for scripts). */
function jsonRecord(v: Verdict) {
  const r = v.replay;
  return {
    type: 'segment',
    id: r.id,
    startedAt: new Date(r.startedAt).toISOString(),
    status: v.status,
    differences: v.differences,
    input: r.skipped ? null : r.input,
    note: r.note,
    skipped: r.skipped,
    old: { texts: r.old.heard.texts, languages: r.old.heard.languages ?? [], dropped: r.old.heard.dropped, engine: r.old.heard.engine, actions: r.old.actions },
    new: r.new
      ? {
          texts: r.new.heard.texts,
          languages: r.new.heard.languages ?? [],
          dropped: r.new.heard.dropped,
          engine: r.new.heard.engine,
          vad: r.new.vad,
          actions: r.new.actions,
          submissions: r.new.submissions,
          ignored: r.new.ignored,
          said: r.new.said,
          saidAfterMs: r.new.saidAfterMs,
          trailingSilenceMs: r.new.trailingSilenceMs,
          stacks: r.new.stacks,
        }
      : null,
  };
}
