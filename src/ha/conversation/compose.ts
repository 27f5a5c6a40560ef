import { HA_TARGET, type ConversationSink } from '../../command/actions/targets/home-assistant.js';
import type { Secrets } from '../../core/secrets.js';
import type { RouterConfig } from '../../command/config.js';
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/log.js';
import { HaConversation, type HaActionStore } from './agent.js';
import { HaClient } from './client.js';
import type { HaConversationConfig } from './config.js';
import { routeFramesTo } from '../../command/route-frames.js';

/**
 * Everything the command core needs to hand what hark's rules do not take to Home Assistant:
 * the agent (a CommandCore plugin), the router config with ha.conversation.frames' submissions
 * pointed at the `home-assistant` target, and the sink for that target. The daemon and
 * `hark simulate --ha` both build it here. Null when ha.conversation.url is not set.
 */
export interface HaConversationRuntime {
  agent: HaConversation;
  router: RouterConfig;
  /** For buildTargets({ homeAssistant }). */
  target: { sink: ConversationSink; fallbacks: Record<string, string> };
}

/** The sections Home Assistant's agent reads: its own, and the frames it is routed from. */
export interface HaConversationSections {
  ha: { conversation: HaConversationConfig };
  router: RouterConfig;
}

export function createHaConversation(opts: {
  config: HaConversationSections;
  secrets: Secrets;
  clock: Clock;
  log: Logger;
  store?: HaActionStore;
  url?: string;
  router?: RouterConfig;
}): HaConversationRuntime | null {
  const c = { ...opts.config.ha.conversation, ...(opts.url ? { url: opts.url.replace(/\/+$/, '') } : {}) };
  if (!c.url) return null;
  const log = opts.log.child({ component: 'home-assistant' });
  if (!opts.secrets.haToken) log.warn('ha.conversation.url is set but HARK_HA_TOKEN is not: every request will be refused (hark doctor)');
  const client = new HaClient({ url: c.url, token: opts.secrets.haToken, timeoutMs: c.timeoutMs });
  const agent = new HaConversation({ config: c, client, clock: opts.clock, log, ...(opts.store ? { store: opts.store } : {}) });
  const { router, fallbacks } = routeToHa(opts.router ?? opts.config.router, c.frames);
  return { agent, router, target: { sink: agent, fallbacks } };
}

/**
 * Point each of `frames` at the Home Assistant target (the intent pass, when it runs, is put in
 * front of it); returns the new frames and where each pointed before.
 */
export function routeToHa(router: RouterConfig, frames: readonly string[]): { router: RouterConfig; fallbacks: Record<string, string> } {
  return routeFramesTo(router, frames, HA_TARGET);
}
