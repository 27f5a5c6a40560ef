import { SAMPLE_RATE } from '../audio/pcm.js';
import { Bus } from '../core/bus.js';
import type { Logger } from '../core/log.js';
import type { Secrets } from '../core/secrets.js';
import { createStt, type SttStack } from '../stt/create.js';
import type { SegmentTranscript } from '../stt/events.js';
import type { SttMode } from '../stt/fallback-policy.js';
import type { SttConfig } from '../stt/config.js';
import { createVad } from '../vad/create.js';
import { segmenterOptions } from '../vad/options.js';
import { segmentPcm } from '../vad/pipeline.js';
import type { Vad } from '../vad/vad.js';
import type { VadConfig } from '../vad/config.js';
import type { Heard, VadOutcome } from './outcome.js';
import { routerVocabulary } from '../command/vocabulary.js';
import type { RouterConfig } from '../command/config.js';
import type { Hear, HearResult } from './runner.js';
import type { ReplaySource, StoredSegment } from './source.js';

/** A segment the daemon never transcribed on purpose: there is nothing to compare it with. */
const CANCELLED = 'push-to-talk cancelled';

/**
 * --text-only: the stored utterance (the cleaned text the router got) is the input. A segment whose
 * transcript was dropped gave the router nothing then and gives it nothing now: skipped, not "same".
 */
export function textHearing(): Hear {
  return async (s) => fromStoredText(s, null);
}

function fromStoredText(s: StoredSegment, note: string | null): HearResult {
  if (s.cancelled) return { skip: CANCELLED };
  if (s.old.heard.texts.length === 0) return { skip: note ? `no audio stored and nothing was heard` : 'nothing was heard' };
  return { input: 'text', heard: s.old.heard, vad: null, note };
}

/** The sections the hearing side reads: speech-to-text as configured, the new VAD settings, the router's words as vocabulary. */
export interface HearingSections {
  stt: SttConfig;
  vad: VadConfig;
  router: Pick<RouterConfig, 'frames'>;
  /** The languages the engines listen for. */
  language: { languages: readonly string[] };
}

export interface AudioHearingOptions {
  config: HearingSections;
  secrets: Secrets;
  source: ReplaySource;
  /** Re-cut the stored audio with the new vad settings (default true). */
  vad: boolean;
  mode?: SttMode;
  modelPath?: string;
  deepgramUrl?: string;
  logger: Logger;
}

export interface AudioHearing {
  hear: Hear;
  close(): Promise<void>;
}

/**
 * Full mode: the stored PCM through the new config's VAD and segmenter, then speech-to-text as the
 * daemon builds it (Whisper from the config or --model; Deepgram only when configured and keyed).
 * Speech-to-text keeps real time (its deadlines and timeouts are real); only the router's clock
 * is virtual.
 */
export async function audioHearing(o: AudioHearingOptions): Promise<AudioHearing> {
  // Speech-to-text first: a missing model or key is a clear error before any VAD is loaded.
  const stt = await createStt({
    config: o.config.stt,
    secrets: o.secrets,
    languages: o.config.language.languages,
    bus: new Bus(),
    logger: o.logger,
    ...(o.mode ? { mode: o.mode } : {}),
    ...(o.modelPath ? { modelPath: o.modelPath } : {}),
    ...(o.deepgramUrl ? { deepgramUrl: o.deepgramUrl } : {}),
  });
  stt.setVocabulary(routerVocabulary(o.config.router.frames));
  let vad: Vad | null = null;
  try {
    if (o.vad) vad = await createVad(o.config.vad);
  } catch (err) {
    await stt.close();
    throw err;
  }
  const hear: Hear = async (s) => {
    if (s.cancelled) return { skip: CANCELLED };
    const pcm = s.sampleRate === SAMPLE_RATE ? o.source.audio(s.id) : null;
    if (!pcm) {
      const why =
        s.sampleRate !== SAMPLE_RATE ? `audio is ${s.sampleRate} Hz` : s.audio === 'disk-full' ? 'no audio stored (disk was full)' : 'no audio stored';
      return fromStoredText(s, `${why}: replayed from its stored text`);
    }
    return hearAudio(s, pcm, vad, stt, o.config);
  };
  return {
    hear,
    async close() {
      await stt.close();
      await vad?.close();
    },
  };
}

async function hearAudio(s: StoredSegment, pcm: Int16Array, vad: Vad | null, stt: SttStack, config: HearingSections): Promise<HearResult> {
  let pieces: { pcm: Int16Array; maxProb: number | undefined }[] = [{ pcm, maxProb: s.maxProb ?? undefined }];
  let vadOutcome: VadOutcome | null = null;
  if (vad && s.openedBy === 'ptt') {
    vadOutcome = { result: 'ptt', pieces: 1 };
  } else if (vad) {
    vad.reset();
    const cut = await segmentPcm(pcm, { vad, segmenter: segmenterOptions(config.vad) });
    const maxProb = Math.round(Math.max(0, ...cut.segments.map((c) => c.maxProb)) * 1000) / 1000;
    if (cut.segments.length === 0) {
      const d = cut.dropped[0];
      const reason = d
        ? `${Math.round(d.speechMs)} ms of speech, under vad.minSegmentMs ${config.vad.minSegmentMs}`
        : `no ${config.vad.minSpeechMs} ms run of frames at vad.threshold ${config.vad.threshold}`;
      return { input: 'audio', heard: { texts: [], dropped: 'no segment', engine: null }, vad: { result: 'dropped', pieces: 0, reason }, note: null };
    }
    if (cut.segments.length === 1) {
      // Still one segment: transcribe the stored audio itself. The stored cut came from the live
      // stream with the VAD's full history; a fresh VAD over only these samples lands a frame or
      // two differently even with identical settings, and feeding that would make every segment
      // look changed. What the new settings decide here is whether there is a segment at all.
      vadOutcome = { result: 'kept', pieces: 1, maxProb };
    } else {
      pieces = cut.segments.map((c) => ({ pcm: c.pcm, maxProb: c.maxProb }));
      vadOutcome = { result: 'split', pieces: pieces.length, maxProb };
    }
  }
  const results: SegmentTranscript[] = [];
  for (const [i, p] of pieces.entries()) {
    results.push(
      await stt.transcriber.transcribe({
        index: pieces.length > 1 ? `${s.id}.${i + 1}` : s.id,
        pcm: p.pcm,
        ...(p.maxProb !== undefined ? { maxProb: p.maxProb } : {}),
      }),
    );
  }
  return { input: 'audio', heard: heardFrom(results), vad: vadOutcome, note: null };
}

/** The daemon hands the router each segment's heard utterance; the rest say why nothing was heard. */
export function heardFrom(results: readonly SegmentTranscript[]): Heard {
  const texts: string[] = [];
  const languages: (string | null)[] = [];
  const dropped: string[] = [];
  for (const r of results) {
    if (r.hearing.kind === 'heard') {
      texts.push(r.hearing.utterance.text);
      languages.push(r.hearing.utterance.language ?? null);
    } else dropped.push(r.hearing.reason);
  }
  const first = results.find((r) => r.hearing.kind === 'heard' || r.hearing.engine);
  const engine = first ? (first.hearing.kind === 'heard' ? first.hearing.utterance.engine : first.hearing.engine) : null;
  return { texts, languages, dropped: texts.length ? null : [...new Set(dropped)].join('; ') || 'nothing heard', engine };
}
