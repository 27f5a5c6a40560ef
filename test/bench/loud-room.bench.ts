import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, rmdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { bench, describe } from 'vitest';
import { DeepgramDouble } from '../support/deepgram-server.js';
import { buildRecording, contains, type Command } from '../support/loud-room.js';
import { TINY_MODEL, outputDir } from '../support/paths.js';
import { harkUnit } from '../support/unit-env.js';

/**
 * A loud room. A recording of continuous talk (pocketsphinx-testdata's librivox readings,
 * chained) over kitchen noise (brown noise), with "computer set a timer for N minutes" (espeak-ng)
 * once a minute, the talk pausing around it. Played through a real `hark run --input`, paced like a
 * microphone: local Whisper first (the test model answers blank), the words from the Deepgram double,
 * which knows where each command lies in the recording and hears it only in audio that holds it (as
 * a real install falls back to the cloud when Whisper returns nothing on clear speech).
 *
 * Once at full speed, once inside a cgroup v1 CPU quota (LOUD_ROOM_QUOTA_PCT of one core, default 25)
 * that makes Whisper slower than real time. LOUD_ROOM_MINUTES (default 10) sets the length;
 * LOUD_ROOM_RUNS=full or =quota runs one of the two.
 * Not part of `make test`: `npx vitest bench --run test/bench/loud-room.bench.ts`.
 * Prints, per run: each command's end of speech → timer.set, the largest queue depth, peak and
 * minute-by-minute RSS, segments stored vs closed, CPU seconds per minute of talk, the cloud's
 * requests and why segments went to it, and the machine's load average (this machine is shared).
 */

const RATE = 16_000;
const MINUTES = Number(process.env.LOUD_ROOM_MINUTES ?? 10);
const QUOTA_PCT = Number(process.env.LOUD_ROOM_QUOTA_PCT ?? 25);
const HARK = join(import.meta.dirname, '../../bin/hark.js');

interface RunResult {
  label: string;
  latencies: (number | null)[];
  maxDepth: number;
  rssMb: number[];
  peakRssMb: number;
  closed: number;
  stored: number;
  cpuSecPerTalkMin: number;
  skipped: Record<string, number>;
  /** Requests the cloud answered (each costs money): one per segment at most. */
  cloudRequests: number;
  /** Whisper inferences whose answer a segment's transcript records (openings and wholes). */
  whisperRuns: number;
  /** Whisper inferences started at a pause (stt.preemptive started): used ones are in whisperRuns too. */
  preemptive: { started: number; used: number; discarded: number };
  /** Why segments went to the cloud: Whisper blank/failed on the opening, Whisper busy, other. */
  fallbacks: Record<string, number>;
  /** Each command's way to its words (its utterance's fallback reason, shortened). */
  commandVia: (string | null)[];
  /** The machine's 1-minute load average at the start and the end of the run. */
  load: [number, number];
}

/** A fallback reason in a word, for the report. */
function kind(reason: string): string {
  if (reason.includes('busy with')) return 'whisper busy';
  if (reason.includes('would answer past its deadline')) return 'whisper forecast late';
  if (reason.endsWith(', on its opening')) return reason.includes('deadline') ? 'opening past its deadline' : 'opening blank';
  if (reason.includes('deadline')) return 'whole past its deadline';
  if (reason.includes('on clear speech')) return 'whole blank';
  return 'other';
}

function cgroup(name: string, quotaPct: number): string | null {
  const dir = `/sys/fs/cgroup/cpu/${name}`;
  try {
    if (!existsSync(dir)) mkdirSync(dir);
    writeFileSync(join(dir, 'cpu.cfs_period_us'), '100000');
    writeFileSync(join(dir, 'cpu.cfs_quota_us'), String(Math.round(quotaPct * 1000)));
    return dir;
  } catch (err) {
    console.warn(`loud-room: no cgroup v1 CPU quota here (${(err as Error).message}): the quota run is skipped`);
    return null;
  }
}

async function run(label: string, rec: { wav: string; commands: Command[]; pcm: Int16Array }, quotaPct: number | null): Promise<RunResult | null> {
  const dir = outputDir(`bench-loud-room-${label}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const group = quotaPct === null ? null : cgroup(`hark-loud-room-${process.pid}`, quotaPct);
  if (quotaPct !== null && !group) return null;
  const loadAtStart = loadavg()[0]!;
  const deepgram = await DeepgramDouble.start({ apiKey: 'bench-key' });
  let cloudRequests = 0;
  const windows = rec.commands.map((c) => rec.pcm.slice(c.startSample + Math.round(0.3 * RATE), c.startSample + Math.round(0.3 * RATE) + 64));
  deepgram.hear = (pcm) => {
    cloudRequests++;
    const i = windows.findIndex((w) => contains(pcm, w));
    return i >= 0 ? { text: rec.commands[i]!.text } : null;
  };
  const port = 20000 + (process.pid % 20000);
  writeFileSync(
    join(dir, 'hark.yaml'),
    `store:\n  path: ${JSON.stringify(join(dir, 'hark.db'))}\nstt:\n  mode: local-first\n  whisper:\n    model: ${JSON.stringify(TINY_MODEL)}\n  deepgram:\n    url: ${JSON.stringify(deepgram.url)}\nspeech:\n  device: "null"\ndebug:\n  port: ${port}\nactions:\n  dataDir: ${JSON.stringify(dir)}\n`,
  );
  const child = spawn(process.execPath, [HARK, 'run', '-c', join(dir, 'hark.yaml'), '--input', rec.wav, '--json', '--exit-at-end'], {
    // The environment systemd/hark.service gives hark (its malloc settings), read from the unit so it cannot fall behind it.
    env: { ...process.env, ...harkUnit().env, DEEPGRAM_API_KEY: 'bench-key' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (group) writeFileSync(join(group, 'cgroup.procs'), String(child.pid));
  const events: { t: number; e: Record<string, unknown> }[] = [];
  let buf = '';
  child.stdout.on('data', (d: Buffer) => {
    buf += d.toString();
    let nl: number;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      try {
        events.push({ t: performance.now(), e: JSON.parse(line) as Record<string, unknown> });
      } catch {
        /* not an event */
      }
    }
  });
  child.stderr.resume();
  const rss: { t: number; kb: number }[] = [];
  const started = performance.now();
  const sampler = setInterval(() => {
    try {
      const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
      if (m) rss.push({ t: performance.now() - started, kb: Number(m[1]) });
    } catch {
      /* exited */
    }
  }, 1000);
  let cpuTicks = 0;
  const cpuSampler = setInterval(() => {
    try {
      const f = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      cpuTicks = Number(f[11]) + Number(f[12]);
    } catch {
      /* exited */
    }
  }, 1000);
  await new Promise((r) => child.on('exit', r));
  clearInterval(sampler);
  clearInterval(cpuSampler);
  await deepgram.close();
  if (group) {
    try {
      rmdirSync(group);
    } catch (err) {
      console.warn(`loud-room: could not remove ${group}: ${(err as Error).message}`);
    }
  }
  // The recording starts when capture does: the first capture.up.
  const t0 = events.find((x) => x.e.type === 'capture.up')?.t ?? started;
  const latencies = rec.commands.map((c) => {
    const set = events.find((x) => x.e.type === 'action' && x.e.name === 'timer.set' && (x.e.args as { seconds?: number } | undefined)?.seconds === c.seconds);
    return set ? Math.round(set.t - (t0 + (c.endSample / RATE) * 1000)) : null;
  });
  const handled = events.filter((x) => x.e.type === 'segment.handled').length;
  const depth = Math.max(0, ...events.filter((x) => x.e.type === 'stt.queue').map((x) => Number(x.e.depth)));
  const skipped: Record<string, number> = {};
  for (const x of events.filter((x) => x.e.type === 'segment.skipped')) skipped[String(x.e.reason)] = (skipped[String(x.e.reason)] ?? 0) + 1;
  const db = new Database(join(dir, 'hark.db'), { readonly: true });
  const stored = db.prepare('SELECT COUNT(*) FROM segments').pluck().get() as number;
  db.close();
  const perMinute: number[] = [];
  for (let m = 1; m <= MINUTES; m++) {
    const inMin = rss.filter((s) => s.t >= (m - 1) * 60_000 && s.t < m * 60_000);
    if (inMin.length) perMinute.push(Math.round(Math.max(...inMin.map((s) => s.kb)) / 1024));
  }
  const fallbacks: Record<string, number> = {};
  let whisperRuns = 0;
  for (const x of events.filter((x) => x.e.type === 'stt.segment')) {
    const attempts = (x.e.attempts as { engine: string; outcome: string; fallbackReason?: string }[] | undefined) ?? [];
    whisperRuns += attempts.filter((a) => a.engine === 'whisper' && a.outcome !== 'skipped').length;
    const cloud = attempts.find((a) => a.engine === 'deepgram');
    if (cloud?.fallbackReason) fallbacks[kind(cloud.fallbackReason)] = (fallbacks[kind(cloud.fallbackReason)] ?? 0) + 1;
  }
  const preemptive = { started: 0, used: 0, discarded: 0 };
  for (const x of events.filter((x) => x.e.type === 'stt.preemptive')) preemptive[x.e.outcome as keyof typeof preemptive]++;
  const commandVia = rec.commands.map((c) => {
    const u = events.find((x) => x.e.type === 'utterance.final' && String(x.e.text).toLowerCase().includes(c.text.slice('computer '.length)));
    return u ? (typeof u.e.fallbackReason === 'string' ? kind(u.e.fallbackReason) : String(u.e.engine)) : null;
  });
  return {
    label,
    latencies,
    maxDepth: depth,
    rssMb: perMinute,
    peakRssMb: Math.round(Math.max(...rss.map((s) => s.kb)) / 1024),
    closed: handled,
    stored,
    cpuSecPerTalkMin: Math.round((cpuTicks / 100 / MINUTES) * 10) / 10,
    skipped,
    cloudRequests,
    whisperRuns,
    preemptive,
    fallbacks,
    commandVia,
    load: [Math.round(loadAtStart * 10) / 10, Math.round(loadavg()[0]! * 10) / 10],
  };
}

describe('a loud room', () => {
  bench(
    `${MINUTES} min of talk with a command a minute, full speed then in a ${QUOTA_PCT}% CPU quota`,
    async () => {
      const dir = outputDir('bench-loud-room');
      mkdirSync(dir, { recursive: true });
      const rec = buildRecording(dir, MINUTES);
      const results: RunResult[] = [];
      const runs = (
        [
          ['full-speed', null],
          [`quota-${QUOTA_PCT}pct`, QUOTA_PCT],
        ] as const
      ).filter(([label]) => !process.env.LOUD_ROOM_RUNS || process.env.LOUD_ROOM_RUNS.split(',').some((r) => label.startsWith(r)));
      for (const [label, quota] of runs) {
        const r = await run(label, rec, quota);
        if (r) results.push(r);
      }
      const report = {
        minutes: MINUTES,
        commands: rec.commands.map((c) => ({ text: c.text, endSec: Math.round((c.endSample / RATE) * 10) / 10 })),
        results,
        note: "each run's load: the machine's 1-minute load average at its start and end",
      };
      writeFileSync(join(dir, 'report.json'), JSON.stringify(report, null, 2));
      console.log(JSON.stringify(report, null, 2));
    },
    { iterations: 1, warmupIterations: 0, time: 0, warmupTime: 0 },
  );
});
