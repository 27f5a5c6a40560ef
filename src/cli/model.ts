import type { Command } from 'commander';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { errorMessage } from '../core/errors.js';
import { DEFAULT_MODEL_BASE_URL, MODEL_CATALOG, modelFileName } from '../stt/models/catalog.js';
import { fetchModel, mb, type FetchProgress } from '../stt/models/fetch.js';
import { checkModelFile, resolveModelPath } from '../stt/whisper/model-file.js';
import { action, loadConfigFor, out } from './common.js';

interface FetchOpts {
  dir?: string;
  baseUrl?: string;
  sha256?: string;
  force?: boolean;
  config?: string;
}

/** A progress bar on a terminal; a line per 10 % otherwise (journald, CI, the installer's log). */
function progressPrinter(file: string): (p: FetchProgress) => void {
  const tty = process.stderr.isTTY === true;
  const started = Date.now();
  let lastDraw = 0;
  let lastTenth = -1;
  return (p) => {
    const frac = p.total ? p.received / p.total : null;
    const now = Date.now();
    const rate = (p.received - p.resumedFrom) / Math.max(0.001, (now - started) / 1000);
    if (tty) {
      if (now - lastDraw < 100 && p.received !== p.total) return;
      lastDraw = now;
      const width = 30;
      const bar = frac === null ? '' : `[${'#'.repeat(Math.round(frac * width)).padEnd(width, '.')}] ${(frac * 100).toFixed(0).padStart(3)}%  `;
      process.stderr.write(`\r${file}  ${bar}${mb(p.received)}${p.total ? ` / ${mb(p.total)}` : ''}  ${mb(rate)}/s   `);
      if (p.received === p.total) process.stderr.write('\n');
      return;
    }
    const tenth = frac === null ? Math.floor(p.received / 10e6) : Math.floor(frac * 10);
    if (tenth !== lastTenth) {
      lastTenth = tenth;
      process.stderr.write(`${file}: ${frac === null ? '' : `${(frac * 100).toFixed(0)}% `}${mb(p.received)}${p.total ? ` of ${mb(p.total)}` : ''}\n`);
    }
  };
}

export function register(program: Command): void {
  const model = program.command('model').description('Whisper model files: fetch a pinned model, list what is known and present');

  model
    .command('fetch')
    .description("download ggml-<name>.bin from whisper.cpp's published models, with resume and a pinned sha256")
    .argument('<name>', `model name (${Object.keys(MODEL_CATALOG).join(', ')})`)
    .option('--dir <dir>', 'where to put it (default: stt.whisper.modelsDir)')
    .option('--base-url <url>', `where to download from (default: $HARK_MODEL_BASE_URL or ${DEFAULT_MODEL_BASE_URL})`)
    .option('--sha256 <hex>', 'expected sha256 (required for a model not in the pinned table)')
    .option('--force', 'download again even if a verified copy is present')
    .option('-c, --config <file>', 'config file')
    .action(
      action(async (name: string, opts: FetchOpts) => {
        const { config } = loadConfigFor(opts);
        const dir = opts.dir ?? config.stt.whisper.modelsDir;
        const baseUrl = opts.baseUrl ?? process.env.HARK_MODEL_BASE_URL ?? DEFAULT_MODEL_BASE_URL;
        const file = modelFileName(name);
        const r = await fetchModel({
          name,
          dir,
          baseUrl,
          ...(opts.sha256 ? { sha256: opts.sha256 } : {}),
          ...(opts.force ? { force: true } : {}),
          onProgress: progressPrinter(file),
        });
        if (r.alreadyPresent) out(`${r.path}: already present and verified (sha256 ${r.sha256})`);
        else out(`${r.path}: downloaded${r.resumedFrom ? ` (resumed at ${mb(r.resumedFrom)})` : ''}, ${mb(r.bytes)}, sha256 ${r.sha256} verified`);
        const configured = resolveModelPath(config.stt.whisper.model, config.stt.whisper.modelsDir);
        if (configured !== r.path) out(`note: stt.whisper.model is ${config.stt.whisper.model} (${configured}); set it to ${name} to use this one`);
      }),
    );

  model
    .command('list')
    .description('the pinned models, and which are present in the models directory')
    .option('--dir <dir>', 'models directory (default: stt.whisper.modelsDir)')
    .option('-c, --config <file>', 'config file')
    .action(
      action((opts: { dir?: string; config?: string }) => {
        const { config } = loadConfigFor(opts);
        const dir = opts.dir ?? config.stt.whisper.modelsDir;
        const configured = resolveModelPath(config.stt.whisper.model, config.stt.whisper.modelsDir);
        for (const e of Object.values(MODEL_CATALOG)) {
          const path = join(dir, modelFileName(e.name));
          let state = 'not fetched';
          if (existsSync(path)) {
            try {
              checkModelFile(path);
              state = statSync(path).size === e.bytes ? 'present' : 'present (not the pinned size)';
            } catch (err) {
              state = `broken: ${errorMessage(err).split(';')[0]}`;
            }
          }
          out(`${path === configured ? '*' : ' '} ${e.name.padEnd(14)} ${mb(e.bytes).padStart(9)}  ${state.padEnd(12)}  ${e.note}`);
        }
        out(`(models in ${dir}; * = stt.whisper.model)`);
      }),
    );
}
