import type { Command } from 'commander';
import { stringify } from 'yaml';
import { action, loadConfigFor, out } from './common.js';

export function register(program: Command): void {
  program
    .command('config')
    .description('print the effective configuration (defaults filled in); exits 2 if the file is invalid')
    .option('-c, --config <file>', 'config file (default: $HARK_CONFIG, /etc/hark/hark.yaml, ./hark.yaml)')
    .option('--json', 'print JSON instead of YAML')
    .action(
      action((opts: { config?: string; json?: boolean }) => {
        const { config: loaded, source, secrets } = loadConfigFor(opts);
        // A token written in the file is still a secret: show that it is set, never its value.
        const config = loaded.debug.token ? { ...loaded, debug: { ...loaded.debug, token: '(set, hidden)' } } : loaded;
        if (opts.json) {
          out(JSON.stringify({ source, config, secrets: redact(secrets) }, null, 2));
          return;
        }
        out(`# source: ${source ?? '(no file found; built-in defaults)'}`);
        for (const [k, v] of Object.entries(redact(secrets))) out(`# secret ${k}: ${v}`);
        process.stdout.write(stringify(config));
      }),
    );
}

function redact(secrets: object): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(secrets)) if (typeof v === 'string' && v) out[k] = 'set (from environment)';
  return out;
}
