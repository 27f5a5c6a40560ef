import { WavFileSource } from '../audio/capture-wav.js';
import { readWavFile } from '../audio/wav.js';
import type { VadConfig } from './config.js';
import { createVad } from './create.js';
import { segmenterOptions } from './options.js';
import { SegmentPipeline, type PipelineEvents } from './pipeline.js';
import type { Segment } from './segment.js';

export type Dropped = PipelineEvents['dropped'][0];

/**
 * Run a WAV file through the same capture-to-segment path the microphone uses (a file source,
 * the framer, the configured VAD, the segmenter), as fast as the VAD allows.
 * Calls `onSegment` as each segment closes, in order.
 */
export async function segmentWavFile(
  path: string,
  vadConfig: VadConfig,
  handlers: { onSegment?: (s: Segment) => void | Promise<void>; onDropped?: (d: Dropped) => void; onVadError?: (e: Error) => void } = {},
): Promise<{ segments: Segment[]; dropped: Dropped[]; totalSamples: number }> {
  // Decode first so a bad file fails before the VAD model is loaded.
  const { pcm } = await readWavFile(path);
  const vad = await createVad(vadConfig);
  try {
    const pipeline = new SegmentPipeline({ vad, segmenter: segmenterOptions(vadConfig) });
    const segments: Segment[] = [];
    const dropped: Dropped[] = [];
    const pending: Promise<void>[] = [];
    pipeline.on('segment', (s) => {
      segments.push(s);
      if (handlers.onSegment) pending.push(Promise.resolve(handlers.onSegment(s)));
    });
    pipeline.on('dropped', (d) => {
      dropped.push(d);
      handlers.onDropped?.(d);
    });
    pipeline.on('error', (e) => handlers.onVadError?.(e));
    const source = new WavFileSource(pcm, { pace: 'fast', chunkSamples: 4096 });
    source.on('data', (chunk) => void pipeline.push(chunk));
    const ended = new Promise<void>((resolve) => source.once('end', resolve));
    await source.start();
    await ended;
    await pipeline.end();
    await Promise.all(pending);
    return { segments, dropped, totalSamples: pcm.length };
  } finally {
    await vad.close();
  }
}
