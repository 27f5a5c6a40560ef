import { bench, describe } from 'vitest';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { DeepgramDouble } from '../support/deepgram-server.js';
import { HarkProcess } from '../support/hark-process.js';
import { contains } from '../support/loud-room.js';
import { TINY_MODEL, outputDir, requireFile } from '../support/paths.js';
import { scene, writeScene, type Scene } from '../support/speech.js';

/**
 * Wake-word commands of about 1.5, 3 and 5 s of speech, each starting with the wake phrase,
 * through a real `hark run --input` paced like a microphone, in wake-word mode (the default).
 *   (a) local-only, Whisper with the test model (no weights: it answers blank, but its whole graph
 *       runs): VAD close → segment handled (`segment.handled.latencyMs`, measured inside hark).
 *       Target ≤ 100 ms p50: the wake-phrase check and the whole's transcript are done before the close.
 *   (b) local-first with the Deepgram double giving the words (Whisper blank, as in the loud room):
 *       end of speech → the action. Target ≤ hangover (600 ms) + 150 ms.
 * The end of speech is the last sample above the noise floor of each phrase; its wall time is the
 * recording's start (capture.up) plus the end of the 32 ms chunk that holds it.
 * Not part of `make test`: `npx vitest bench --run test/bench/open-check.bench.ts`. The machine's load
 * average is printed with each result: on a shared machine the numbers move with it.
 */
const COMMANDS: { cls: string; text: string }[] = [
  { cls: '1.5 s', text: 'computer, repeat' },
  { cls: '1.5 s', text: 'computer, stop' },
  { cls: '1.5 s', text: 'computer, eight minute timer' },
  { cls: '3 s', text: 'computer, set a timer for ten minutes' },
  { cls: '3 s', text: 'computer, set a timer for three minutes for the pasta' },
  { cls: '3 s', text: 'computer, set a timer for eight minutes for the potatoes' },
  { cls: '5 s', text: 'computer, please set a timer for nine minutes for the brown rice' },
  { cls: '5 s', text: 'computer, could you set a timer for thirteen minutes for the brown rice please' },
  { cls: '5 s', text: 'computer, could you set a timer for fourteen minutes for the sweet potatoes please' },
];
const GAP_MS = 2500;
const CHUNK = 512;
const RATE = 16;

function speechEnd(s: Scene, i: number): number {
  const p = s.phrases[i]!;
  let end = p.end;
  while (end > p.start && Math.abs(s.pcm[end - 1]!) < 1200) end--;
  return end;
}
const chunkEndMs = (sample: number) => (Math.ceil(sample / CHUNK) * CHUNK) / RATE;
const pct = (xs: number[], p: number) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]! : NaN);

interface Row {
  cls: string;
  speechSec: number;
  closeToHandledMs: number | null;
  fate: string | null;
  endToActionMs: number | null;
}

async function runOnce(name: string, s: Scene, wav: string, mode: 'local-only' | 'local-first'): Promise<Row[]> {
  const dir = outputDir(`bench-open-check-${name}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  let deepgram: DeepgramDouble | null = null;
  const args = ['--db', join(dir, 'hark.db'), '--port', '0', '--stt-mode', mode, '--model', requireFile(TINY_MODEL), '--input', wav, '--exit-at-end'];
  if (mode === 'local-first') {
    deepgram = await DeepgramDouble.start({ apiKey: 'bench-key' });
    // The double hears a command only in audio that holds it (a window 0.3 s into its speech).
    const windows = s.phrases.map((p) => s.pcm.slice(p.start + 4800, p.start + 4864));
    deepgram.hear = (pcm) => {
      const i = windows.findIndex((w) => contains(pcm, w));
      return i >= 0 ? { text: COMMANDS[i]!.text } : null;
    };
    args.push('--deepgram-url', deepgram.url);
  }
  // No follow-up window: each command is said as a first one, wake phrase and all (within the window
  // after an action, what is said is taken as meant for hark and transcribed whole at its pause).
  writeFileSync(
    join(dir, 'hark.yaml'),
    `router:\n  followUpMs: 0\nstt:\n  whisper:\n    threads: 2\nspeech:\n  device: "null"\nactions:\n  dataDir: ${JSON.stringify(dir)}\n`,
  );
  const hark = new HarkProcess(args, { ...process.env, DEEPGRAM_API_KEY: 'bench-key', HARK_CONFIG: join(dir, 'hark.yaml') });
  await hark.waitFor((e) => e.type === 'capture.up', 60_000, 'capture');
  const t0 = hark.receivedAt[hark.events.findIndex((e) => e.type === 'capture.up')]!;
  await hark.exited;
  await deepgram?.close();
  // Every event with the wall time it arrived, for a look afterwards.
  writeFileSync(join(dir, 'events.jsonl'), hark.events.map((e, k) => JSON.stringify({ at: hark.receivedAt[k]! - t0, ...e })).join('\n') + '\n');
  const closed = hark.of('segment.closed');
  const handled = hark.of('segment.handled');
  const rows: Row[] = COMMANDS.map((c, i) => ({
    cls: c.cls,
    speechSec: Math.round(((speechEnd(s, i) - s.phrases[i]!.start) / 16_000) * 100) / 100,
    closeToHandledMs: null,
    fate: null,
    endToActionMs: null,
  }));
  for (const h of handled) {
    const c = closed.find((x) => x.index === h.segment);
    if (!c) continue;
    // The command this segment holds: the last one whose speech ends before the segment does.
    let i = -1;
    for (let j = 0; j < COMMANDS.length; j++) if (speechEnd(s, j) / RATE <= Number(c.endMs) + 1) i = j;
    if (i < 0 || rows[i]!.fate !== null) continue;
    rows[i]!.closeToHandledMs = Math.round(Number(h.latencyMs));
    rows[i]!.fate = String(h.fate);
    const k = hark.events.findIndex((e, n) => e.type === 'action' && n > hark.events.indexOf(c));
    if (k >= 0 && Array.isArray(h.actions) && h.actions.length > 0)
      rows[i]!.endToActionMs = Math.round(hark.receivedAt[k]! - (t0 + chunkEndMs(speechEnd(s, i))));
  }
  return rows;
}

const results: string[] = [];
function report(label: string, rows: Row[], pick: (r: Row) => number | null): void {
  const load = loadavg()[0]!.toFixed(1);
  const line = (cls: string, rs: Row[]) => {
    const xs = rs.map(pick).filter((x): x is number => x !== null);
    return `  ${cls.padEnd(6)} p50 ${String(pct(xs, 50)).padStart(5)} ms, max ${String(Math.max(...xs)).padStart(5)} ms, n=${xs.length}/${rs.length} [${rs.map((r) => `${r.speechSec}s:${pick(r) ?? '-'}${r.fate && r.fate !== 'dispatched' ? `(${r.fate})` : ''}`).join(' ')}]`;
  };
  const classes = [...new Set(rows.map((r) => r.cls))];
  results.push(
    [
      `${label} (load average ${load}):`,
      ...classes.map((c) =>
        line(
          c,
          rows.filter((r) => r.cls === c),
        ),
      ),
      line('all', rows),
    ].join('\n'),
  );
  process.stderr.write(`\n${results.at(-1)}\n`);
  writeFileSync(join(outputDir('bench-results'), 'open-check.txt'), results.join('\n') + '\n');
}

const parts: (string | number)[] = [1500];
for (const c of COMMANDS) parts.push(c.text, GAP_MS);
const s = await scene(parts, { kind: 'brownnoise', amplitude: 0.01 });
const wav = await writeScene(s, 'open-check');

describe('wake-word commands of 1.5, 3 and 5 s (real hark run --input, the test model)', () => {
  const once = { iterations: 1, warmupIterations: 0, time: 0, warmupTime: 0 };
  bench(
    '(a) local-only: VAD close → handled',
    async () => report('(a) local-only, VAD close → handled', await runOnce('local', s, wav, 'local-only'), (r) => r.closeToHandledMs),
    once,
  );
  bench(
    '(b) local-first, the Deepgram double: end of speech → action',
    async () => report('(b) local-first, end of speech → action', await runOnce('cloud', s, wav, 'local-first'), (r) => r.endToActionMs),
    once,
  );
});
