import type { Command } from 'commander';
import { samplesToMs } from '../audio/pcm.js';
import { readWavFile } from '../audio/wav.js';
import { Bus } from '../core/bus.js';
import { createLogger } from '../core/log.js';
import { STT_MODES } from '../stt/config.js';
import { createStt } from '../stt/create.js';
import type { SegmentTranscript } from '../stt/events.js';
import type { Segment } from '../vad/segment.js';
import { segmentWavFile } from '../vad/segment-file.js';
import { sttOverrides } from './stt-options.js';
import { action, loadConfigFor, out } from './common.js';

interface TranscribeOpts {
  sttMode?: string;
  model?: string;
  deepgramUrl?: string;
  vad?: boolean;
  json?: boolean;
  config?: string;
  verbose?: boolean;
}

const sec = (samples: number) => (samplesToMs(samples) / 1000).toFixed(2);

/** One segment's outcome as `hark transcribe --json` prints it (these keys are a contract for scripts). */
export function transcribeRecord(s: Segment, r: SegmentTranscript) {
  const h = r.hearing;
  const u = h.kind === 'heard' ? h.utterance : null;
  const lastAttempt = r.attempts[r.attempts.length - 1];
  return {
    segment: s.index,
    startMs: Math.round(samplesToMs(s.startSample)),
    endMs: Math.round(samplesToMs(s.endSample)),
    /** Why the VAD segment ended (hangover, max-duration, end-of-stream). */
    closeReason: s.closeReason,
    text: u?.text ?? '',
    rawText: u?.rawText ?? (h.kind === 'dropped' ? h.rawText : ''),
    engine: u?.engine ?? (h.kind === 'dropped' ? h.engine : null) ?? lastAttempt?.engine ?? null,
    fallbackReason: u?.fallbackReason ?? null,
    sttMs: r.sttMs,
    dropped: u === null,
    dropReason: h.kind === 'dropped' ? h.reason : null,
    maxProb: Math.round(s.maxProb * 1000) / 1000,
    utterances: u ? [{ id: u.id, text: u.text, rawText: u.rawText, closeReason: u.closeReason ?? null, dropReason: null, engine: u.engine }] : [],
    attempts: r.attempts.map((a) => ({
      engine: a.engine,
      outcome: a.outcome,
      sttMs: a.sttMs,
      rawText: a.rawText,
      error: a.error ?? null,
      droppedReason: a.droppedReason ?? null,
    })),
  };
}

function textLine(rec: ReturnType<typeof transcribeRecord>, s: Segment): string {
  const head = `#${String(rec.segment).padStart(3, '0')}  ${sec(s.startSample)}s-${sec(s.endSample)}s  ${rec.engine ?? '-'}  ${rec.sttMs} ms  `;
  const body = rec.dropped ? `(dropped: ${rec.dropReason}${rec.rawText ? `; raw ${JSON.stringify(rec.rawText)}` : ''})` : JSON.stringify(rec.text);
  return head + body + (rec.fallbackReason ? `  [fallback: ${rec.fallbackReason}]` : '');
}

export function register(program: Command): void {
  program
    .command('transcribe')
    .description('segment a WAV file with the real VAD and transcribe each segment; one line per segment, blank and dropped ones too')
    .argument('<file.wav>', 'recording (any PCM/float WAV; converted to 16 kHz mono)')
    .option('--stt-mode <mode>', `${STT_MODES.join(', ')} (default: the config's stt.mode)`)
    .option('--model <path>', 'ggml Whisper model file (default: stt.whisper.model in stt.whisper.modelsDir)')
    .option('--deepgram-url <url>', 'Deepgram base URL, e.g. ws://127.0.0.1:8080 for a local server (default: stt.deepgram.url)')
    .option('--no-vad', 'take the whole file as one segment')
    .option('--json', 'one JSON object per segment: segment, text, rawText, engine, fallbackReason, sttMs, closeReason, dropReason, utterances, attempts')
    .option('-c, --config <file>', 'config file')
    .option('-v, --verbose', 'log what the engines do to stderr')
    .action(
      action(async (file: string, opts: TranscribeOpts) => {
        const { config, secrets } = loadConfigFor(opts);
        const { mode } = sttOverrides(opts);
        // Decode first: a bad file is reported before a model is loaded.
        const wav = await readWavFile(file);
        const logger = createLogger({ level: opts.verbose ? 'info' : 'warn', json: config.log.json });
        const stt = await createStt({
          config: config.stt,
          secrets,
          languages: config.language.languages,
          bus: new Bus(),
          logger,
          ...(mode ? { mode } : {}),
          ...(opts.model ? { modelPath: opts.model } : {}),
          ...(opts.deepgramUrl ? { deepgramUrl: opts.deepgramUrl } : {}),
        });
        let count = 0;
        const print = (s: Segment, r: SegmentTranscript) => {
          count++;
          const rec = transcribeRecord(s, r);
          out(opts.json ? JSON.stringify(rec) : textLine(rec, s));
        };
        try {
          if (opts.vad === false) {
            const s: Segment = {
              index: 0,
              pcm: wav.pcm,
              prerollSamples: 0,
              startSample: 0,
              vadStartSample: 0,
              endSample: wav.pcm.length,
              closeReason: 'end-of-stream',
              maxProb: 1,
              openedBy: 'vad',
            };
            // No VAD scored it: the whole file counts as speech for the fallback policy.
            print(s, await stt.transcriber.transcribe({ index: 0, pcm: wav.pcm }));
          } else {
            const { dropped } = await segmentWavFile(file, config.vad, {
              onSegment: async (s) => print(s, await stt.transcriber.transcribe(s)),
              onVadError: (e) => process.stderr.write(`hark: ${e.message}\n`),
            });
            if (!opts.json) {
              out(
                `${count} segment(s)${dropped.length ? `, ${dropped.length} too short to transcribe` : ''}, ${sec(wav.pcm.length)}s of audio, stt ${stt.describe}`,
              );
            }
          }
        } finally {
          await stt.close();
        }
      }),
    );
}
