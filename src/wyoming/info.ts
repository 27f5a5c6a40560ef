/**
 * What a Wyoming server says it offers (`describe` → `info`): its speech-to-text programs with their
 * models, its voices, and whether it streams transcripts. Read leniently — servers add fields — but
 * only what hark uses is kept. Pure.
 */
export interface WyomingModel {
  name: string;
  languages: string[];
}

export interface WyomingVoice {
  name: string;
  languages: string[];
  /** Multi-speaker voices (Piper's libritts): the speaker names. */
  speakers: string[];
}

export interface WyomingInfo {
  /** Names of the speech-to-text programs (wyoming-faster-whisper, ...). */
  asrPrograms: string[];
  models: WyomingModel[];
  /** A speech-to-text program says it sends transcript-start/chunk/stop. */
  streamsTranscripts: boolean;
  ttsPrograms: string[];
  voices: WyomingVoice[];
}

export function parseInfo(data: Record<string, unknown>): WyomingInfo {
  const info: WyomingInfo = { asrPrograms: [], models: [], streamsTranscripts: false, ttsPrograms: [], voices: [] };
  for (const p of list(data.asr)) {
    if (!isInstalled(p)) continue;
    info.asrPrograms.push(str(p.name) || 'asr');
    if (p.supports_transcript_streaming === true) info.streamsTranscripts = true;
    for (const m of list(p.models)) if (isInstalled(m) && str(m.name)) info.models.push({ name: str(m.name), languages: strings(m.languages) });
  }
  for (const p of list(data.tts)) {
    if (!isInstalled(p)) continue;
    info.ttsPrograms.push(str(p.name) || 'tts');
    for (const v of list(p.voices)) {
      if (!isInstalled(v) || !str(v.name)) continue;
      const speakers = list(v.speakers)
        .map((s) => str(s.name))
        .filter(Boolean);
      info.voices.push({ name: str(v.name), languages: strings(v.languages), speakers });
    }
  }
  return info;
}

/** One line for logs and `hark doctor`: "asr faster-whisper (models: tiny-int8); tts piper (2 voices)". */
export function summarizeInfo(info: WyomingInfo): string {
  const parts: string[] = [];
  if (info.asrPrograms.length)
    parts.push(
      `speech-to-text ${info.asrPrograms.join(', ')} (models: ${info.models.map((m) => m.name).join(', ') || 'none listed'}${info.streamsTranscripts ? '; streams transcripts' : ''})`,
    );
  if (info.ttsPrograms.length) {
    const names = info.voices.slice(0, 5).map((v) => v.name);
    const more = info.voices.length > 5 ? `, +${info.voices.length - 5} more` : '';
    parts.push(`voice ${info.ttsPrograms.join(', ')} (voices: ${names.join(', ') || 'none listed'}${more})`);
  }
  return parts.join('; ') || 'no speech-to-text or voice programs';
}

type Obj = Record<string, unknown>;

function list(v: unknown): Obj[] {
  return Array.isArray(v) ? v.filter((x): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x)) : [];
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/** Servers mark models and voices not downloaded yet as installed: false; absent means installed. */
function isInstalled(o: Obj): boolean {
  return o.installed !== false;
}
