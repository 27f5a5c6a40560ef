import type { z } from 'zod';
import { flag, intBetween, ms, nonEmpty, section, text } from '../core/config-fields.js';

export const debugSection = section({
  /** Serve the audio debug viewer. */
  enabled: flag(true),
  /** 127.0.0.1: reach it through an SSH tunnel. Any other address needs a token. */
  host: nonEmpty('127.0.0.1'),
  port: intBetween(1, 65_535, 8080),
  /** Needed to bind beyond loopback. HARK_DEBUG_TOKEN in the environment wins over this. */
  token: text(''),
  /** SSE keep-alive comment interval. */
  heartbeatMs: ms(15_000, 1000, 300_000),
});

export type DebugConfig = z.infer<typeof debugSection>;
