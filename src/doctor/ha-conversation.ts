import type { Check, CheckResult } from './check.js';
import { errorMessage } from '../core/errors.js';
import { HaCallError, HaClient } from '../ha/conversation/client.js';

/**
 * `hark doctor`: does ha.conversation.url answer as Home Assistant, and does it accept the token
 * in HARK_HA_TOKEN? GET /api/ with the token answers {"message": "API running."}; a 401 means the
 * token. One request, bounded by ha.conversation.timeoutMs.
 */
export const haConversationCheck: Check = {
  id: 'ha-conversation',
  title: 'Home Assistant (conversation agent)',
  async run(ctx): Promise<CheckResult> {
    const cfg = ctx.loaded?.config.ha.conversation;
    if (!cfg) return { status: 'warn', detail: 'not checked: the config could not be loaded', fix: 'fix the config first' };
    if (!cfg.url) return { status: 'ok', detail: 'off (ha.conversation.url is not set)' };
    const token = ctx.loaded!.secrets.haToken;
    if (!token) {
      return {
        status: 'fail',
        detail: `ha.conversation.url is ${cfg.url}, but HARK_HA_TOKEN is not set`,
        fix: 'in Home Assistant: your profile → Security → Long-lived access tokens → Create token; put HARK_HA_TOKEN=<token> in /etc/hark/hark.env',
      };
    }
    const client = new HaClient({ url: cfg.url, token, timeoutMs: cfg.timeoutMs });
    try {
      const message = await client.running();
      const agent = cfg.agentId ? `agent ${cfg.agentId}` : 'the default agent';
      return {
        status: 'ok',
        detail: `${cfg.url} answers "${message}" and accepts the token; requests go to ${agent}${cfg.language ? ` in ${cfg.language}` : ''}`,
      };
    } catch (err) {
      const kind = err instanceof HaCallError ? err.kind : 'unreachable';
      const message = errorMessage(err);
      if (kind === 'unauthorized')
        return {
          status: 'fail',
          detail: `${cfg.url} refused the token in HARK_HA_TOKEN`,
          fix: 'make a new long-lived access token in your Home Assistant profile (Security tab) and put it in /etc/hark/hark.env as HARK_HA_TOKEN',
        };
      if (kind === 'garbled' || kind === 'http')
        return {
          status: 'fail',
          detail: message,
          fix: `check ha.conversation.url: it must be Home Assistant's base address (http://HOST:8123), not a page under it`,
        };
      return {
        status: 'fail',
        detail: message,
        fix: `check ha.conversation.url, the network, and that Home Assistant runs there (curl -s ${cfg.url}/api/ -H "Authorization: Bearer $HARK_HA_TOKEN")`,
      };
    }
  },
};
