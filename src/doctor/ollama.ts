import type { Check } from './check.js';
import { errorMessage } from '../core/errors.js';
import { OllamaClient, modelPulled } from '../intent/ollama-client.js';
import { ModelUnavailable } from '../intent/proposal-model.js';

const GB = 1e9;

/**
 * `hark doctor`: is Ollama up at intent.host, and is intent.model pulled? Uses the same client the
 * daemon does. Ollama not running is a warning (hark works without the intent pass, and says so
 * when asked); Ollama running without the model is a failure, since the pass is clearly wanted.
 */
export const ollamaCheck: Check = {
  id: 'ollama',
  title: 'Ollama (intent model)',
  async run(ctx) {
    const cfg = ctx.loaded?.config.intent;
    if (!cfg) return { status: 'warn', detail: 'not checked: the config could not be loaded', fix: 'fix the config first' };
    if (!cfg.enabled) return { status: 'ok', detail: 'intent pass off (intent.enabled: false)' };
    const client = new OllamaClient({
      host: cfg.host,
      model: cfg.model,
      keepAlive: cfg.keepAlive,
      timeoutMs: cfg.timeoutMs,
      retries: 0,
      backoffMs: 0,
      warmUpTimeoutMs: cfg.warmUpTimeoutMs,
    });
    let version: string;
    try {
      version = await client.version();
    } catch (err) {
      const why = err instanceof ModelUnavailable ? err.message : errorMessage(err);
      return {
        status: 'warn',
        detail: `no Ollama at ${cfg.host} (${why}); requests will be told it cannot be reached`,
        fix: `install and start it: curl -fsSL https://ollama.com/install.sh | sh && sudo systemctl enable --now ollama; then ollama pull ${cfg.model} (or set intent.enabled: false)`,
      };
    }
    let pulled;
    try {
      pulled = await client.models();
    } catch (err) {
      return {
        status: 'fail',
        detail: `Ollama ${version} at ${cfg.host} did not list its models: ${errorMessage(err)}`,
        fix: 'sudo systemctl restart ollama; journalctl -u ollama',
      };
    }
    const found = modelPulled(cfg.model, pulled);
    if (!found) {
      const have = pulled.map((m) => m.name);
      return {
        status: 'fail',
        detail: `Ollama ${version} is up, but ${cfg.model} is not pulled${have.length ? ` (pulled: ${have.join(', ')})` : ' (no models pulled)'}`,
        fix: `ollama pull ${cfg.model}`,
      };
    }
    const size = found.size ? `, ${(found.size / GB).toFixed(1)} GB` : '';
    return { status: 'ok', detail: `Ollama ${version} at ${cfg.host}; ${found.name} pulled${size}` };
  },
};
