import type { Secrets } from '../core/secrets.js';
import type { DebugConfig } from './config.js';

/** HARK_DEBUG_TOKEN (the environment) wins over `debug.token` in the file; empty means none. */
export function debugToken(cfg: Pick<DebugConfig, 'token'>, secrets: Secrets): string | undefined {
  return secrets.debugToken || cfg.token.trim() || undefined;
}
