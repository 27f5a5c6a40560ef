import { STT_MODES } from '../stt/config.js';
import { HarkError } from '../core/errors.js';
import type { SttMode } from '../stt/fallback-policy.js';

/** `--stt-mode` and `--deepgram-url`, as `hark run`, `transcribe` and `replay` take them: checked, or exit 2. */
export function sttOverrides(opts: { sttMode?: string; deepgramUrl?: string }): { mode?: SttMode; deepgramUrl?: string } {
  const out: { mode?: SttMode; deepgramUrl?: string } = {};
  if (opts.sttMode !== undefined) {
    if (!(STT_MODES as readonly string[]).includes(opts.sttMode))
      throw new HarkError(`--stt-mode must be one of ${STT_MODES.join(', ')}, got "${opts.sttMode}"`, { exitCode: 2 });
    out.mode = opts.sttMode as SttMode;
  }
  if (opts.deepgramUrl !== undefined) {
    if (!/^(wss?|https?):\/\/[^\s/]+/.test(opts.deepgramUrl))
      throw new HarkError(`--deepgram-url must be a ws:// or wss:// URL, got "${opts.deepgramUrl}"`, { exitCode: 2 });
    out.deepgramUrl = opts.deepgramUrl;
  }
  return out;
}
