import type { Command } from 'commander';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { writeWavFile } from '../audio/wav.js';
import { samplesToMs, samplesToMsRounded as ms } from '../audio/pcm.js';
import { HarkError } from '../core/errors.js';
import type { Segment } from '../vad/segment.js';
import { segmentWavFile } from '../vad/segment-file.js';
import { segmentSummary } from '../vad/summary.js';
import { action, loadConfigFor, out } from './common.js';

interface SegmentOpts {
  vad?: string;
  json?: boolean;
  outDir?: string;
  config?: string;
}

function segmentLine(s: Segment): string {
  const sec = (samples: number) => (samplesToMs(samples) / 1000).toFixed(2);
  return (
    `#${String(s.index).padStart(3, '0')}  ${sec(s.startSample)}s-${sec(s.endSample)}s` +
    `  speech from ${sec(s.vadStartSample)}s  pre-roll ${ms(s.prerollSamples)} ms` +
    `  ${s.closeReason}  max p=${s.maxProb.toFixed(2)}`
  );
}

export function register(program: Command): void {
  program
    .command('segment')
    .description('cut a WAV file into speech segments with the real VAD and segmenter; one line per segment')
    .argument('<file.wav>', 'recording to segment (any PCM/float WAV; converted to 16 kHz mono)')
    .option('--vad <engine>', "silero or webrtc (default: the config's vad.engine)")
    .option('--json', 'one JSON object per segment: index, startMs, vadStartMs, endMs, prerollMs, samples, closeReason, maxProb')
    .option('--out-dir <dir>', 'also write each segment (pre-roll included) as seg-000.wav, seg-001.wav, ...')
    .option('-c, --config <file>', 'config file')
    .action(
      action(async (file: string, opts: SegmentOpts) => {
        const { config } = loadConfigFor(opts);
        const vad = { ...config.vad };
        if (opts.vad !== undefined) {
          if (opts.vad !== 'silero' && opts.vad !== 'webrtc') throw new HarkError(`--vad must be silero or webrtc, got "${opts.vad}"`, { exitCode: 2 });
          vad.engine = opts.vad;
        }
        if (opts.outDir) {
          try {
            mkdirSync(opts.outDir, { recursive: true });
          } catch (err) {
            throw new HarkError(`cannot create --out-dir ${opts.outDir}: ${(err as Error).message}`);
          }
        }
        const { segments, dropped, totalSamples } = await segmentWavFile(file, vad, {
          onSegment: async (s) => {
            out(opts.json ? JSON.stringify(segmentSummary(s)) : segmentLine(s));
            if (opts.outDir) await writeWavFile(join(opts.outDir, `seg-${String(s.index).padStart(3, '0')}.wav`), s.pcm);
          },
          onDropped: (d) => {
            if (!opts.json)
              out(`       (dropped at ${(samplesToMs(d.vadStartSample) / 1000).toFixed(2)}s: ${d.reason}, ${Math.round(d.speechMs)} ms of speech)`);
          },
          onVadError: (e) => process.stderr.write(`hark: ${e.message}\n`),
        });
        if (!opts.json) {
          out(`${segments.length} segment(s), ${dropped.length} dropped, ${(samplesToMs(totalSamples) / 1000).toFixed(2)}s of audio, vad ${vad.engine}`);
        }
      }),
    );
}
