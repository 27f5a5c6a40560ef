import { isAbsolute, resolve } from 'node:path';
import type { TargetConfig } from '../config.js';
import type { EffectSink } from '../../../core/effects.js';
import { FileTarget } from './file.js';
import { HA_TARGET, HomeAssistantTarget, type ConversationSink } from './home-assistant.js';
import { INTENT_TARGET, IntentTarget, type IntentSink } from './intent.js';
import { SpeakTarget } from './speak.js';
import type { Delivery, Target } from './target.js';
import { WebhookTarget } from './webhook.js';

export interface BuildTargetsOptions {
  /** Relative file paths resolve here (actions.dataDir for the daemon, the out dir in simulate). */
  dataDir: string;
  /** Where the speak target's words go. */
  emit: EffectSink;
  /** Override for file paths (simulate keeps every file inside its out dir). */
  filePath?: (configured: string) => string;
  /** Override for webhooks (simulate does not call them unless asked). */
  webhook?: (name: string, cfg: Extract<TargetConfig, { type: 'webhook' }>) => Target;
  /**
   * The intent pass, when it runs: added as the target named "intent". `fallbacks` maps a frame to
   * the target its text goes to when the model cannot be reached (its own configured target).
   */
  intent?: { sink: IntentSink; fallbacks: Record<string, string>; direct?: (d: Delivery) => boolean };
  /**
   * Home Assistant's conversation agent, when ha.conversation is configured: the target named
   * "home-assistant". `fallbacks` maps a frame to the target it had before (it keeps what Home
   * Assistant declines).
   */
  homeAssistant?: { sink: ConversationSink; fallbacks: Record<string, string> };
}

export function buildTargets(targets: Record<string, TargetConfig>, opts: BuildTargetsOptions): Map<string, Target> {
  const out = new Map<string, Target>();
  /** A frame's own target, looked up when it is needed (the map is complete by then). */
  const ownTarget = (fallbacks: Record<string, string>) => (frame: string | undefined) => (frame && fallbacks[frame] ? out.get(fallbacks[frame]) : undefined);
  for (const [name, cfg] of Object.entries(targets)) {
    switch (cfg.type) {
      case 'file': {
        const path = opts.filePath ? opts.filePath(cfg.path) : isAbsolute(cfg.path) ? cfg.path : resolve(opts.dataDir, cfg.path);
        out.set(name, new FileTarget(name, path));
        break;
      }
      case 'webhook':
        out.set(
          name,
          opts.webhook?.(name, cfg) ??
            new WebhookTarget(name, {
              url: cfg.url,
              timeoutMs: cfg.timeoutMs,
              retries: cfg.retries,
              backoffMs: cfg.backoffMs,
              ...(cfg.headers ? { headers: cfg.headers } : {}),
            }),
        );
        break;
      case 'speak':
        out.set(name, new SpeakTarget(name, opts.emit));
        break;
    }
  }
  if (opts.homeAssistant) {
    const { sink, fallbacks } = opts.homeAssistant;
    out.set(HA_TARGET, new HomeAssistantTarget(HA_TARGET, sink, ownTarget(fallbacks)));
  }
  if (opts.intent) {
    const { sink, fallbacks, direct } = opts.intent;
    out.set(INTENT_TARGET, new IntentTarget(INTENT_TARGET, sink, ownTarget(fallbacks), direct));
  }
  return out;
}

export type { Target, Delivery } from './target.js';
export { DeliveryError } from './target.js';
export { INTENT_TARGET, type IntentSink, type IntentOutcome } from './intent.js';
export { HA_TARGET, type ConversationSink } from './home-assistant.js';
