import { bench, describe } from 'vitest';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HarkProcess } from '../support/hark-process.js';
import { TINY_MODEL, outputDir, requireFile } from '../support/paths.js';
import { scene, writeScene, type Scene } from '../support/speech.js';

/**
 * From the end of speech to the transcript being ready, in a real `hark run --input` (paced like a
 * microphone) with local Whisper (the tiny.en test model: no weights, but its whole graph runs):
 *   (a) push-to-talk: the button is released (over HTTP) at the last sample of the phrase;
 *   (b) VAD close without preemptive transcription (stt.preemptiveMs 0): hangover, then Whisper;
 *   (c) VAD close with it (200 ms): Whisper starts at the pause, so the transcript is ready at the close.
 * The end of speech is known exactly: the last sample above the noise floor of each generated phrase,
 * whose wall time is the recording's start (capture.up) plus the end of the 32 ms chunk holding it.
 * Ready = the `stt.segment` event. Target for (c): p50 ≤ hangover (600 ms) + 50 ms.
 */
const PHRASES = [
  'computer set a timer for five minutes',
  'computer cancel the timer',
  'start dictation',
  'computer what is on the order list',
  'switch voice',
  'computer set a timer for ten minutes',
  'never mind',
  'computer stop',
];
const GAP_MS = 1600;
const CHUNK = 512;

function speechEnd(s: Scene, i: number): number {
  const p = s.phrases[i]!;
  let end = p.end;
  while (end > p.start && Math.abs(s.pcm[end - 1]!) < 300) end--;
  return end;
}
function speechStart(s: Scene, i: number): number {
  const p = s.phrases[i]!;
  let start = p.start;
  while (start < p.end && Math.abs(s.pcm[start]!) < 300) start++;
  return start;
}
const chunkEndMs = (sample: number) => (Math.ceil(sample / CHUNK) * CHUNK) / 16;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

async function runOnce(name: string, s: Scene, wav: string, opts: { preemptiveMs: number; ptt: boolean }): Promise<number[]> {
  const dir = outputDir(`bench-speech-end-${name}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'hark.yaml'),
    `stt:\n  preemptiveMs: ${opts.preemptiveMs}\n  whisper:\n    threads: 2\nspeech:\n  device: "null"\nactions:\n  dataDir: ${JSON.stringify(dir)}\n`,
  );
  const hark = new HarkProcess(
    ['--db', join(dir, 'hark.db'), '--port', '0', '--stt-mode', 'local-only', '--model', requireFile(TINY_MODEL), '--input', wav, '--exit-at-end'],
    {
      ...process.env,
      HARK_CONFIG: join(dir, 'hark.yaml'),
    },
  );
  const url = String((await hark.waitFor((e) => e.type === 'debug.listening', 30_000, 'debug server')).url);
  await hark.waitFor((e) => e.type === 'capture.up', 30_000, 'capture');
  const t0 = hark.receivedAt[hark.events.findIndex((e) => e.type === 'capture.up')]!;
  const releasedAt: number[] = [];
  if (opts.ptt) {
    const press = (state: string) =>
      fetch(new URL('/api/button', url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ state }) });
    for (let i = 0; i < PHRASES.length; i++) {
      const downAt = t0 + speechStart(s, i) / 16 - 150;
      const upAt = t0 + chunkEndMs(speechEnd(s, i));
      await new Promise((r) => setTimeout(r, Math.max(0, downAt - Date.now())));
      await press('down');
      await new Promise((r) => setTimeout(r, Math.max(0, upAt - Date.now())));
      releasedAt.push(Date.now());
      await press('up');
    }
  }
  await hark.exited;
  const closed = hark.events.filter((e) => e.type === 'segment.closed');
  const out: number[] = [];
  hark.events.forEach((e, k) => {
    if (e.type !== 'stt.segment') return;
    const c = closed.find((x) => x.index === e.segmentId);
    if (!c) return;
    const endMs = Number(c.endMs);
    // The phrase this segment holds: the last one whose speech ends before the segment does.
    let i = -1;
    for (let j = 0; j < PHRASES.length; j++) if (speechEnd(s, j) / 16 <= endMs + 1) i = j;
    if (i < 0) return;
    const end = opts.ptt ? releasedAt[i]! : t0 + chunkEndMs(speechEnd(s, i));
    out.push(hark.receivedAt[k]! - end);
  });
  return out;
}

const results: string[] = [];
function report(label: string, xs: number[]): void {
  results.push(`${label}: p50 ${pct(xs, 50).toFixed(0)} ms, p95 ${pct(xs, 95).toFixed(0)} ms, n=${xs.length}`);
  process.stderr.write(`\n${results.at(-1)}\n`);
  writeFileSync(join(outputDir('bench-results'), 'speech-end.txt'), results.join('\n') + '\n');
}

const parts: (string | number)[] = [1000];
for (const p of PHRASES) parts.push(p, GAP_MS);
const s = await scene(parts);
const wav = await writeScene(s, 'speech-end');

describe('end of speech → transcript ready (real hark run --input, local Whisper, test model)', () => {
  const once = { iterations: 1, warmupIterations: 0, time: 0, warmupTime: 0 };
  bench('(a) push-to-talk release', async () => report('(a) push-to-talk release', await runOnce('ptt', s, wav, { preemptiveMs: 200, ptt: true })), once);
  bench(
    '(b) VAD close, no preemptive transcription',
    async () => report('(b) VAD close, preemptiveMs 0', await runOnce('vad', s, wav, { preemptiveMs: 0, ptt: false })),
    once,
  );
  bench(
    '(c) VAD close, preemptive transcription',
    async () => report('(c) VAD close, preemptiveMs 200', await runOnce('pre', s, wav, { preemptiveMs: 200, ptt: false })),
    once,
  );
});
