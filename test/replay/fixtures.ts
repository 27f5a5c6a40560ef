import { spawn } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { samplesToMs } from '../../src/audio/pcm.js';
import { validateConfig } from '../../src/config/load.js';
import type { ActionInput, IntentInput } from '../../src/store/records.js';
import { Store } from '../../src/store/store.js';
import { createVad } from '../../src/vad/create.js';
import { segmenterOptions } from '../../src/vad/options.js';
import { segmentPcm } from '../../src/vad/pipeline.js';
import type { Segment } from '../../src/vad/segment.js';
import { HARK_BIN } from '../support/paths.js';
import { scene } from '../support/speech.js';

/**
 * Segment logs for replay tests, written through the real Store as the daemon writes them
 * (Conversation.record): real espeak-ng speech cut by the real VAD and segmenter, the transcript
 * and utterance Whisper would give, the actions that fired, and the actions that fired later from
 * a timer (stored without a segment). Times are wall-clock ms, laid out like a kitchen's morning.
 */

/** One segment as the daemon handled it. */
export interface Spoken {
  /** Wall-clock ms at which the segment's first sample was captured. */
  at: number;
  /** What espeak-ng says (and so what is in the stored audio). */
  phrase: string;
  /** What Whisper made of it: the stored transcript and utterance (null: dropped as blank). */
  heard: string | null;
  actions?: ActionInput[];
  /** Fired from a timer after the segment was written: at (ms after the segment was written), row. */
  later?: { afterMs: number; action: ActionInput }[];
  /** A push-to-talk press cancelled by a tap: the daemon logs it with a "cancelled" transcript. */
  cancelled?: boolean;
  /** Rows the intent pass (Ollama) stored. */
  intents?: IntentInput[];
  /** Written while audio storage was off (disk-full mode keeps the text only). */
  noAudio?: boolean;
  /** The language speech-to-text named (stored on the utterance). */
  language?: string;
}

const vadConfig = validateConfig({}, 'test').vad;

/** The phrase as the segmenter cuts it out of [400 ms silence, phrase, 900 ms silence]. */
export async function cutPhrase(phrase: string): Promise<Segment> {
  const s = await scene([400, phrase, 900]);
  const vad = await createVad(vadConfig);
  try {
    const { segments } = await segmentPcm(s.pcm, { vad, segmenter: segmenterOptions(vadConfig) });
    if (segments.length !== 1) throw new Error(`expected one segment for "${phrase}", got ${segments.length}`);
    return segments[0]!;
  } finally {
    await vad.close();
  }
}

/** Whisper's stt time on the Pi, give or take: the row is written this long after the segment ends. */
const STT_MS = 300;

/** Write the segments (in order) to a new log at `path`, closed cleanly as `hark run` leaves it. */
export async function writeLog(path: string, spoken: readonly Spoken[]): Promise<{ ids: number[]; audioBytes: number }> {
  let now = 0;
  const open = (storeAudio: boolean) => new Store({ path, housekeeping: null, backgroundCheckpoint: false, wallNow: () => now, storeAudio });
  const ids: number[] = [];
  let audioBytes = 0;
  for (const sp of spoken) {
    const seg = await cutPhrase(sp.phrase);
    const store = open(!sp.noAudio);
    try {
      now = sp.at + Math.round(samplesToMs(seg.pcm.length)) + STT_MS;
      const uttId = randomUUID();
      const transcripts = sp.cancelled
        ? [{ engine: 'none', rawText: '', text: '', droppedReason: 'push-to-talk cancelled (tap or mute hold)' }]
        : sp.heard === null
          ? [{ engine: 'whisper', rawText: '[BLANK_AUDIO]', text: '', sttMs: STT_MS, droppedReason: 'blank audio' }]
          : [{ engine: 'whisper', rawText: ` ${sp.heard}`, text: sp.heard, sttMs: STT_MS }];
      const rec = store.recordSegment({
        segment: { ...seg, ...(sp.cancelled ? { openedBy: 'ptt', closeReason: 'ptt-release' } : {}), startedAt: sp.at, source: 'mic' },
        transcripts,
        ...(sp.heard && !sp.cancelled
          ? {
              utterance: {
                id: uttId,
                text: sp.heard,
                rawText: ` ${sp.heard}`,
                engine: 'whisper',
                sttMs: STT_MS,
                ...(sp.language ? { language: sp.language } : {}),
              },
            }
          : {}),
        ...(sp.intents ? { intents: sp.intents } : {}),
        actions: (sp.actions ?? []).map((a) => ({ latencyMs: 2, ...a, utteranceId: sp.heard ? uttId : null })),
      });
      if (!rec) throw new Error('segment not written');
      ids.push(rec.id);
      if (rec.audio === 'stored') audioBytes += seg.pcm.byteLength;
      const written = now;
      for (const l of sp.later ?? []) {
        now = written + l.afterMs;
        store.addAction(l.action);
      }
    } finally {
      store.close();
    }
  }
  return { ids, audioBytes };
}

export function writeConfig(dir: string, name: string, config: unknown): string {
  const path = join(dir, name);
  // JSON is YAML: the config loader reads it as the technician's file.
  writeFileSync(path, JSON.stringify(config, null, 2));
  return path;
}

export function sha256(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

export function sideFiles(path: string): string[] {
  return ['-wal', '-shm', '-journal'].filter((s) => existsSync(path + s));
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The real CLI (bin/hark.js over dist/), as a technician runs it. */
export function hark(args: string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 60_000): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    // A clean environment: no HARK_CONFIG or DEEPGRAM_API_KEY from the machine running the tests.
    const base: NodeJS.ProcessEnv = { TZ: 'UTC' };
    for (const k of ['PATH', 'HOME', 'HARK_SHARED']) if (process.env[k] !== undefined) base[k] = process.env[k];
    const child = spawn(process.execPath, [HARK_BIN, ...args], {
      env: { ...base, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`hark ${args.join(' ')} timed out after ${timeoutMs} ms\n${stderr}`));
    }, timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
