import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { readWavFile } from '../../src/audio/wav.js';
import type { SegmentWrite } from '../../src/store/records.js';
import { JFK_WAV, outputDir, requireFile } from '../support/paths.js';

export const RATE = 16_000;
export const PREROLL = 8000; // 500 ms, the default vad.prerollMs

let jfk: Int16Array | undefined;
export async function jfkPcm(): Promise<Int16Array> {
  jfk ??= (await readWavFile(requireFile(JFK_WAV))).pcm;
  return jfk;
}

/** Where speech starts and ends in jfk.wav (seconds), and what was said: cut as the segmenter would. */
export const JFK_PHRASES = [
  { vad: 0.32, end: 2.45, text: 'And so my fellow Americans,' },
  { vad: 3.3, end: 4.4, text: 'ask not' },
  { vad: 5.6, end: 7.2, text: 'what your country can do for you,' },
  { vad: 7.7, end: 11.0, text: 'ask what you can do for your country.' },
] as const;

/** A segment exactly as the pre-roll splice makes it: history before the trigger, then live audio. */
export function cutSegment(
  pcm: Int16Array,
  vadSec: number,
  endSec: number,
  prerollMax = PREROLL,
): { pcm: Int16Array; prerollSamples: number; startSample: number; vadStartSample: number; endSample: number } {
  const vadStartSample = Math.round(vadSec * RATE);
  const endSample = Math.min(pcm.length, Math.round(endSec * RATE));
  const startSample = Math.max(0, vadStartSample - prerollMax);
  return { pcm: pcm.slice(startSample, endSample), prerollSamples: vadStartSample - startSample, startSample, vadStartSample, endSample };
}

/**
 * The misplaced pre-roll on purpose (docs/decisions.md#the-pre-roll-ring-is-addressed-by-absolute-sample):
 * the pre-roll comes from a quiet stretch elsewhere in the history and the live part starts mid-word,
 * so the level jumps at the splice.
 */
export function splicedWithJump(pcm: Int16Array): { pcm: Int16Array; prerollSamples: number } {
  const quietEnd = Math.round(4.8 * RATE);
  let loud = Math.round(7.0 * RATE);
  for (let i = loud, best = 0; i < Math.round(7.2 * RATE); i++) {
    if (Math.abs(pcm[i]!) > best) {
      best = Math.abs(pcm[i]!);
      loud = i;
    }
  }
  const out = new Int16Array(PREROLL + RATE);
  out.set(pcm.subarray(quietEnd - PREROLL, quietEnd), 0);
  out.set(pcm.subarray(loud, loud + RATE), PREROLL);
  return { pcm: out, prerollSamples: PREROLL };
}

/** The four JFK phrases as full segment writes (transcript, utterance, intent, action), oldest first. */
export async function jfkWrites(startedAt = Date.UTC(2025, 0, 6, 9, 0, 0)): Promise<SegmentWrite[]> {
  const pcm = await jfkPcm();
  return JFK_PHRASES.map((p, i) => {
    const cut = cutSegment(pcm, p.vad, p.end);
    return {
      segment: { ...cut, startedAt: startedAt + (cut.startSample * 1000) / RATE, index: i, closeReason: 'hangover', maxProb: 0.97, openedBy: 'vad' },
      transcripts: [{ engine: 'whisper', rawText: ` ${p.text}`, text: p.text, tokens: [{ id: 50364, text: '[_BEG_]' }], sttMs: 380 + i * 10 }],
      utterance: { id: `utt-${i}`, text: p.text, rawText: ` ${p.text}`, engine: 'whisper', sttMs: 380 + i * 10 },
      intents: [{ kind: 'proposal' as const, intent: 'note', target: 'file', slots: { text: p.text }, confidence: 0.8, model: 'rules', latencyMs: 1.5 }],
      actions: [{ name: 'note.append', args: { text: p.text }, outcome: 'ok', latencyMs: 3 }],
    };
  });
}

/** A scratch directory under test-output/<suite>/ (kept after the run to look at). */
export function scratch(suite: string): string {
  return mkdtempSync(join(outputDir(suite), 'run-'));
}

/**
 * A segment as the pipeline closes it over hark's playback. `pcm` is what the canceller left
 * (a JFK phrase); `raw` is that plus hark's "voice" (a loud warble) inside the playback spans, so the
 * raw track visibly carries what the canceller took out.
 */
export async function overPlaybackWrite(startedAt = Date.UTC(2025, 0, 6, 9, 0, 0)): Promise<SegmentWrite> {
  const [w] = await jfkWrites(startedAt);
  const cleaned = w!.segment.pcm;
  const playback = [
    { start: 0, end: 4096 },
    { start: 33600, end: 38400 },
  ];
  const raw = cleaned.slice();
  for (const p of playback)
    for (let i = p.start; i < p.end; i++) raw[i] = Math.max(-32768, Math.min(32767, cleaned[i]! + Math.round(12000 * Math.sin(i / 7) * Math.sin(i / 900))));
  return { ...w!, segment: { ...w!.segment, echo: { raw, playback } } };
}
