import { Command } from 'commander';
import { createRequire } from 'node:module';
import { register as registerConfig } from './commands/config.js';
import { register as registerSegment } from './commands/segment.js';
import { register as registerRun } from './commands/run.js';
import { register as registerDoctor } from './commands/doctor.js';
import { registerDoctorGpio } from './commands/doctor-gpio.js';
import { register as registerViewer } from './commands/viewer.js';
import { register as registerSimulate } from './commands/simulate.js';
import { register as registerTranscribe } from './commands/transcribe.js';
import { register as registerModel } from './commands/model.js';
import { register as registerReplay } from './commands/replay.js';

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
  registerRun(program);
  registerDoctorGpio(registerDoctor(program));
  registerViewer(program);
  registerSimulate(program);
  registerTranscribe(program);
  registerModel(program);
  registerReplay(program);
  return program;
}

// `hark segment x.wav --json | head -1`: the reader went away; that is an ordinary end, not a crash.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});

await buildProgram().parseAsync(process.argv);
