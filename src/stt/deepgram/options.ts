import { SAMPLE_RATE } from '../../audio/pcm.js';

export interface DeepgramListenOptions {
  model: string;
  language: string;
  interimResults: boolean;
  utteranceEndMs: number;
  vadEvents: boolean;
  endpointingMs: number;
  smartFormat: boolean;
}

/**
 * The live-listen query parameters (Deepgram's names): hark always sends its one internal format,
 * 16 kHz mono linear16. The SDK types these as strings ("true"/"false"), and so does the URL.
 */
export function listenParams(o: DeepgramListenOptions): Record<string, string> {
  const p: Record<string, string> = {
    model: o.model,
    language: o.language,
    encoding: 'linear16',
    sample_rate: String(SAMPLE_RATE),
    channels: '1',
    interim_results: String(o.interimResults),
    smart_format: String(o.smartFormat),
    vad_events: String(o.vadEvents),
    endpointing: o.endpointingMs > 0 ? String(o.endpointingMs) : 'false',
  };
  // Deepgram refuses utterance_end_ms without interim results.
  if (o.utteranceEndMs > 0 && o.interimResults) p.utterance_end_ms = String(o.utteranceEndMs);
  return p;
}
