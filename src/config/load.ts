import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseDocument } from 'yaml';
import type { z } from 'zod';
import { HarkError, errorMessage } from '../core/errors.js';
import { configSchema, type HarkConfig } from './schema.js';
import { readSecrets, type Secrets } from '../core/secrets.js';

export const SYSTEM_CONFIG = '/etc/hark/hark.yaml';

export interface LoadedConfig {
  config: HarkConfig;
  /** The file the config came from, or null when no file was found and defaults apply. */
  source: string | null;
  secrets: Secrets;
}

/** Exit code for a config that cannot be used. */
export const CONFIG_EXIT = 2;

/** Which file to read: --config, then $HARK_CONFIG, then /etc/hark/hark.yaml, then ./hark.yaml. */
/** `systemConfig` is a parameter so the order can be checked on a machine that has hark installed (a Pi has /etc/hark/hark.yaml). */
export function findConfigFile(
  explicit: string | undefined,
  env: NodeJS.ProcessEnv,
  cwd: string,
  systemConfig = SYSTEM_CONFIG,
): { path: string | null; required: boolean } {
  if (explicit) return { path: resolve(cwd, explicit), required: true };
  if (env.HARK_CONFIG) return { path: resolve(cwd, env.HARK_CONFIG), required: true };
  if (existsSync(systemConfig)) return { path: systemConfig, required: true };
  const local = resolve(cwd, 'hark.yaml');
  if (existsSync(local)) return { path: local, required: true };
  return { path: null, required: false };
}

/** Validate an already-parsed object. Throws a HarkError listing every problem by path. */
export function validateConfig(raw: unknown, sourceName: string): HarkConfig {
  const value = raw === null || raw === undefined ? {} : raw;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new HarkError(`${sourceName}: the top level must be a mapping of sections (capture:, vad:, ...)`, { exitCode: CONFIG_EXIT });
  }
  const result = configSchema.safeParse(value);
  if (result.success) return result.data;
  const lines = formatIssues(result.error.issues);
  throw new HarkError(`${sourceName}: invalid config\n` + lines.map((l) => `  ${l}`).join('\n'), { exitCode: CONFIG_EXIT });
}

export function formatIssues(issues: readonly z.core.$ZodIssue[]): string[] {
  const out: string[] = [];
  for (const issue of issues) {
    const base = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) out.push(`${base ? base + '.' : ''}${key}: unknown setting`);
      continue;
    }
    out.push(`${base || '(top level)'}: ${issue.message}`);
  }
  return out;
}

export function parseConfigText(text: string, sourceName: string): HarkConfig {
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length > 0) {
    const first = doc.errors[0]!;
    const where = first.linePos?.[0] ? ` (line ${first.linePos[0].line}, column ${first.linePos[0].col})` : '';
    throw new HarkError(`${sourceName}: not valid YAML${where}: ${first.message.split('\n')[0]}`, { exitCode: CONFIG_EXIT });
  }
  let raw: unknown;
  try {
    // toJS() expands aliases: a "billion laughs" file throws here (yaml's alias limit), not above.
    raw = doc.toJS();
  } catch (err) {
    throw new HarkError(`${sourceName}: not valid YAML: ${errorMessage(err).split('\n')[0]}`, { exitCode: CONFIG_EXIT });
  }
  return validateConfig(raw, sourceName);
}

export function loadConfig(opts: { path?: string; env?: NodeJS.ProcessEnv; cwd?: string } = {}): LoadedConfig {
  const env = opts.env ?? process.env;
  const { path } = findConfigFile(opts.path, env, opts.cwd ?? process.cwd());
  const secrets = readSecrets(env);
  if (!path) return { config: validateConfig({}, '(defaults)'), source: null, secrets };
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new HarkError(`cannot read config ${path}: ${errorMessage(err)}`, { exitCode: CONFIG_EXIT });
  }
  return { config: parseConfigText(text, path), source: path, secrets };
}
