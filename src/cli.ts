import { Command } from 'commander';
import { createRequire } from 'node:module';
import { register as registerConfig } from './cli/config.js';
import { register as registerSegment } from './cli/segment.js';
import { register as registerRun } from './cli/run.js';
import { register as registerDoctor } from './cli/doctor.js';
import { registerDoctorGpio } from './cli/doctor-gpio.js';
import { register as registerViewer } from './cli/viewer.js';
import { register as registerSimulate } from './cli/simulate.js';
import { register as registerTranscribe } from './cli/transcribe.js';
import { register as registerModel } from './cli/model.js';
import { register as registerReplay } from './cli/replay.js';
import { register as registerClocks } from './cli/clocks.js';

const pkg = createRequire(import.meta.url)('../package.json') as { version: string };

/**
 * hark's command line. Each command lives in src/cli/<name>.ts and registers itself here;
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
  registerClocks(program);
  return program;
}

// `hark segment x.wav --json | head -1`: the reader went away; that is an ordinary end, not a crash.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});

await buildProgram().parseAsync(process.argv);
