import type { z } from 'zod';
import { oneOf, flag, section } from './config-fields.js';

export const logSection = section({
  level: oneOf(['debug', 'info', 'warn', 'error'] as const, 'info'),
  /** JSON lines (for journald and log shippers) instead of key=value text. */
  json: flag(false),
});

export type LogConfig = z.infer<typeof logSection>;
