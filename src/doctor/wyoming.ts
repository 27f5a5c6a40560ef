import type { Check, CheckResult, CheckStatus } from './check.js';
import { engineOrder } from '../stt/fallback-policy.js';
import { describeServer } from '../wyoming/connection.js';
import { summarizeInfo, type WyomingInfo } from '../wyoming/info.js';
import { parseServerUrl } from '../wyoming/server-url.js';

const RANK: Record<CheckStatus, number> = { ok: 0, warn: 1, fail: 2 };

/**
 * `hark doctor`: the configured Wyoming servers — reachable, what their info says, and whether the
 * configured model and voice are among what they offer. The speech-to-text server down is a failure
 * only when no engine follows it; the voice server down is a warning (espeak-ng speaks instead).
 */
export const wyomingCheck: Check = {
  id: 'wyoming',
  title: 'Wyoming speech services',
  async run(ctx) {
    const config = ctx.loaded?.config;
    if (!config) return { status: 'warn', detail: 'not checked: the config could not be loaded', fix: 'fix the config first' };
    const order = engineOrder(config.stt.mode, config.stt.engines);
    const sttUsed = order.includes('wyoming');
    const voice = config.speech.wyoming;
    if (!sttUsed && !voice.server) return { status: 'ok', detail: 'not used (no wyoming in stt.engines, no speech.wyoming.server)' };
    const results: CheckResult[] = [];
    const data: Record<string, unknown> = {};

    if (sttUsed) {
      const w = config.stt.wyoming;
      const last = order[order.length - 1] === 'wyoming';
      const parsed = w.server ? parseServerUrl(w.server) : null;
      if (!parsed || 'error' in parsed)
        results.push({
          status: 'fail',
          detail: `speech-to-text: stt.engines names wyoming but ${parsed ? parsed.error : 'stt.wyoming.server is not set'}`,
          fix: 'set stt.wyoming.server: tcp://host:10300',
        });
      else {
        const r = await ask(parsed.server, w.connectTimeoutMs);
        if ('error' in r) {
          results.push({
            status: last ? 'fail' : 'warn',
            detail: `speech-to-text: ${r.error}${last ? '' : `; ${order[order.indexOf('wyoming') + 1]} takes the segments`}`,
            fix: `start the service there (docker run -p 10300:10300 rhasspy/wyoming-whisper --model tiny-int8 --language en), or check the address and firewall`,
          });
        } else {
          const info = r.info;
          data.stt = { server: parsed.server.url, models: info.models.map((m) => m.name), streams: info.streamsTranscripts };
          if (info.asrPrograms.length === 0)
            results.push({
              status: 'fail',
              detail: `speech-to-text: ${parsed.server.url} offers no speech-to-text program (${summarizeInfo(info)})`,
              fix: 'point stt.wyoming.server at the wyoming-faster-whisper port (10300 by default)',
            });
          else if (w.model && !info.models.some((m) => m.name === w.model))
            results.push({
              status: 'warn',
              detail: `speech-to-text: ${parsed.server.url} has no model "${w.model}" (has: ${info.models.map((m) => m.name).join(', ') || 'none listed'})`,
              fix: 'set stt.wyoming.model to one of those, or empty for the server’s own',
            });
          else results.push({ status: 'ok', detail: `speech-to-text ${parsed.server.url}: ${summarizeInfo(info)}` });
        }
      }
    }

    if (voice.server) {
      const parsed = parseServerUrl(voice.server);
      if ('error' in parsed) results.push({ status: 'fail', detail: `voice: ${parsed.error}`, fix: 'set speech.wyoming.server: tcp://host:10200' });
      else {
        const r = await ask(parsed.server, voice.connectTimeoutMs);
        if ('error' in r)
          results.push({
            status: 'warn',
            detail: `voice: ${r.error}; espeak-ng speaks instead`,
            fix: 'start the service there (docker run -p 10200:10200 rhasspy/wyoming-piper --voice en_US-lessac-medium), or check the address and firewall',
          });
        else {
          const info = r.info;
          const names = info.voices.map((v) => v.name);
          data.voice = { server: parsed.server.url, voices: names };
          if (info.ttsPrograms.length === 0)
            results.push({
              status: 'fail',
              detail: `voice: ${parsed.server.url} offers no text-to-speech program (${summarizeInfo(info)})`,
              fix: 'point speech.wyoming.server at the wyoming-piper port (10200 by default)',
            });
          else if (voice.voice && names.length > 0 && !names.includes(voice.voice))
            results.push({
              status: 'warn',
              detail: `voice: ${parsed.server.url} has no voice "${voice.voice}" (has: ${names.slice(0, 8).join(', ')})`,
              fix: 'set speech.wyoming.voice to one of those, or empty for the server’s default',
            });
          else results.push({ status: 'ok', detail: `voice ${parsed.server.url}: ${summarizeInfo(info)}` });
        }
      }
    }

    const worst = results.reduce<CheckStatus>((s, r) => (RANK[r.status] > RANK[s] ? r.status : s), 'ok');
    const fixes = results.filter((r) => r.status !== 'ok' && r.fix).map((r) => r.fix!);
    return { status: worst, detail: results.map((r) => r.detail).join('; '), ...(fixes.length ? { fix: fixes.join('; ') } : {}), data };
  },
};

async function ask(server: Parameters<typeof describeServer>[0], connectTimeoutMs: number): Promise<{ info: WyomingInfo } | { error: string }> {
  try {
    return { info: await describeServer(server, { connectTimeoutMs: Math.max(connectTimeoutMs, 1000), timeoutMs: 3000 }) };
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
}
