import { Command } from 'commander';
import { createRequire } from 'node:module';
import { register as registerConfig } from './commands/config.js';
import { register as registerSegment } from './commands/segment.js';

const pkg = createRequire(import.meta.url)('../package.json') as { version: string };

/**
 * hark's command line. Each command lives in src/commands/<name>.ts and registers itself here;
 * the composition of the running daemon is in src/daemon/.
 */
export function buildProgram(): Command {
  const program = new Command('hark')
    .description('voice-command appliance: listens, understands, confirms, acts, and logs what it heard')
    .version(pkg.version)
    .showHelpAfterError('(run `hark --help` for the commands)');
  registerConfig(program);
  registerSegment(program);
  return program;
}

await buildProgram().parseAsync(process.argv);
