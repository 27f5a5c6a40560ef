import type { LoadedConfig } from '../config/load.js';

export type CheckStatus = 'ok' | 'warn' | 'fail';

export interface CheckResult {
  status: CheckStatus;
  /** What was found, in a line. */
  detail: string;
  /** What to do about it (for warn and fail). */
  fix?: string;
  /** Structured findings for `hark doctor --json` (optional). */
  data?: Record<string, unknown>;
}

export interface DoctorContext {
  /** The loaded config, or null when it is invalid (the config check reports why). */
  loaded: LoadedConfig | null;
  /** Why the config could not be loaded, when it could not. */
  configError: string | null;
  env: NodeJS.ProcessEnv;
  /** Run a program and collect its output; never throws (a missing program is code 127). */
  exec(cmd: string, args: string[], opts?: { timeoutMs?: number }): Promise<{ code: number; stdout: string; stderr: string }>;
}

/** One thing `hark doctor` checks: it explains what it found and, when something is wrong, the fix. */
export interface Check {
  id: string;
  title: string;
  run(ctx: DoctorContext): Promise<CheckResult>;
}
