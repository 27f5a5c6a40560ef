import type { Command } from 'commander';
import { loadConfigFor, out, action } from './common.js';
import { HarkError } from '../core/errors.js';
import type { LoadedConfig } from '../config/load.js';
import type { Check, CheckResult, DoctorContext } from '../doctor/check.js';
import { execForDoctor } from '../doctor/exec.js';
import { allChecks } from '../doctor/registry.js';
import { assessWhisperBuild, whisperBuildFacts } from '../doctor/whisper-build.js';

interface DoctorOpts {
  config?: string;
  json?: boolean;
}

const MARK = { ok: 'ok  ', warn: 'WARN', fail: 'FAIL' } as const;

export async function runChecks(checks: Check[], ctx: DoctorContext): Promise<(CheckResult & { id: string; title: string })[]> {
  const results: (CheckResult & { id: string; title: string })[] = [];
  for (const c of checks) {
    try {
      results.push({ id: c.id, title: c.title, ...(await c.run(ctx)) });
    } catch (err) {
      results.push({ id: c.id, title: c.title, status: 'fail', detail: `the check itself failed: ${(err as Error).message}`, fix: 'report this as a bug' });
    }
  }
  return results;
}

/** Print results; exit non-zero if anything failed. */
export function report(results: (CheckResult & { id: string; title: string })[], json: boolean | undefined): void {
  if (json) out(JSON.stringify({ ok: results.every((r) => r.status !== 'fail'), checks: results }, null, 2));
  else {
    for (const r of results) {
      out(`[${MARK[r.status]}] ${r.title}: ${r.detail}`);
      if (r.fix && r.status !== 'ok') out(`       fix: ${r.fix}`);
    }
  }
  if (results.some((r) => r.status === 'fail')) process.exitCode = 1;
}

export function doctorContext(opts: { config?: string }): { ctx: DoctorContext; configError: string | null } {
  let loaded: LoadedConfig | null = null;
  let configError: string | null = null;
  try {
    loaded = loadConfigFor(opts);
  } catch (err) {
    if (!(err instanceof HarkError)) throw err;
    configError = err.message;
  }
  return { ctx: { loaded, configError, env: process.env, exec: execForDoctor }, configError };
}

export function register(program: Command): Command {
  const doctor = program
    .command('doctor')
    .description('check the microphone, speaker, models, services, GPIO, disk and database, and explain each fix')
    .option('-c, --config <file>', 'config file')
    .option('--json', 'machine-readable results')
    .action(
      action(async (opts: DoctorOpts) => {
        const { ctx } = doctorContext(opts);
        report(await runChecks(allChecks(), ctx), opts.json);
      }),
    );
  doctor
    .command('whisper')
    .description('compare the SIMD features whisper.cpp was compiled with to those this CPU has, and name the rebuild command; exits 1 if it cannot run here')
    .option('--json', 'print the result as JSON')
    .action(
      action((_opts: { json?: boolean }, cmd: Command) => {
        const opts = cmd.optsWithGlobals<{ json?: boolean }>();
        const a = assessWhisperBuild(whisperBuildFacts());
        if (opts.json) out(JSON.stringify(a, null, 2));
        else {
          out(`[${MARK[a.status]}] whisper.cpp build: ${a.detail}`);
          if (a.fix) out(`       fix: ${a.fix}`);
        }
        if (a.status === 'fail') process.exitCode = 1;
      }),
    );
  return doctor;
}
