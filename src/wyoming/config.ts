import { z } from 'zod';
import { ms, intBetween, section, text } from '../core/config-fields.js';
import { parseServerUrl } from './server-url.js';

/**
 * Wyoming speech services (Home Assistant's wyoming-faster-whisper, wyoming-piper): one owner for
 * both halves. `stt.wyoming` is the speech-to-text engine named `wyoming` in stt.engines;
 * `speech.wyoming` is the voice (espeak-ng speaks whenever it is away).
 */

/** `tcp://host:port`, or '' where the service is optional. */
function server(optional: boolean) {
  return z
    .string({ error: 'must be a server address (tcp://host:port)' })
    .default('')
    .superRefine((v, ctx) => {
      if (v === '' && optional) return;
      if (v === '') return void ctx.addIssue({ code: 'custom', message: 'must be a server address (tcp://host:port), e.g. tcp://10.0.0.5:10300' });
      const r = parseServerUrl(v);
      if ('error' in r) ctx.addIssue({ code: 'custom', message: r.error });
    });
}

export const wyomingSttSection = section({
  /** The speech-to-text server, e.g. tcp://speech.lan:10300 (wyoming-faster-whisper's port). Needed when stt.engines names wyoming. */
  server: server(true),
  /**
   * Spoken language sent with each transcribe. '' : the device's language (language.languages) when
   * it has one; none when it has several, so the server detects it and names it in its transcript.
   */
  language: text(''),
  /** A model name for the server to use (transcribe{name}); '' lets the server use its own. */
  model: text(''),
  /** A connection not up by then counts as a failure (the next engine takes the segment). */
  connectTimeoutMs: ms(1000, 50, 60_000),
  /** Fails over when the transcript takes longer than deadlineBaseMs + deadlinePerSecondMs × segment seconds after the segment closes. */
  deadlineBaseMs: ms(2000, 100, 600_000),
  deadlinePerSecondMs: ms(500, 0, 60_000),
  /** Samples per audio-chunk event (1024 is the Wyoming reference's own). */
  chunkSamples: intBetween(160, 16_000, 1024),
});

export const wyomingVoiceSection = section({
  /** The voice server, e.g. tcp://speech.lan:10200 (wyoming-piper's port). '' : hark speaks with espeak-ng only. */
  server: server(true),
  /** The server's voice (synthesize{voice{name}}), e.g. en_US-lessac-medium; '' uses the server's default. */
  voice: text(''),
  /**
   * The server's voice for a reply in each other language of the device (language.languages), e.g.
   * {es: es_ES-davefx-medium}. A reply in a language named nowhere here is said by espeak-ng in that
   * language's voice (speech.voices): the server's voice would read Spanish with English sounds.
   */
  voices: z
    .record(z.string(), z.string({ error: 'must be the name of a voice on the server' }).trim().min(1, 'must not be empty'), {
      error: 'must map language codes to voice names',
    })
    .default({}),
  /** A connection not up by then: espeak-ng says it instead. */
  connectTimeoutMs: ms(1000, 50, 60_000),
  /** No audio this long after asking: espeak-ng says it instead. */
  firstChunkTimeoutMs: ms(3000, 100, 60_000),
  /** Audio stopped arriving for this long mid-answer: hark hangs up and espeak-ng says the whole answer (a half-said answer is a lost one). */
  chunkGapTimeoutMs: ms(3000, 100, 60_000),
});

export type WyomingSttConfig = z.infer<typeof wyomingSttSection>;
export type WyomingVoiceConfig = z.infer<typeof wyomingVoiceSection>;
