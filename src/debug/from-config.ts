import type { Secrets } from '../core/secrets.js';
import type { HarkConfig } from '../config/schema.js';

/** HARK_DEBUG_TOKEN (the environment) wins over `debug.token` in the file; empty means none. */
export function debugToken(cfg: HarkConfig['debug'], secrets: Secrets): string | undefined {
  return secrets.debugToken || cfg.token.trim() || undefined;
}
