import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import Database from 'better-sqlite3';
import { bench, describe } from 'vitest';
import { validateConfig } from '../../src/config/load.js';
import { createVad } from '../../src/vad/create.js';
import { segmenterOptions } from '../../src/vad/options.js';
import { segmentPcm } from '../../src/vad/pipeline.js';
import { cpuQuota } from '../support/cpu-quota.js';
import { DeepgramDouble } from '../support/deepgram-server.js';
import { buildRecording } from '../support/loud-room.js';
import { HARK_BIN, ROOT, TINY_MODEL, outputDir } from '../support/paths.js';
import { soakDevices } from '../support/soak-devices.js';
import { cpuSeconds, mallinfoProbe, pct, procMemory } from '../support/soak-measure.js';
import { allocSitesProbe, siteSeries, symbolize, type SiteDump } from '../support/alloc-sites.js';
import { harkUnit } from '../support/unit-env.js';

/**
 * The loud room (test/support/loud-room.ts: librivox talk over brown noise, "computer set a
 * timer for N minutes" once a minute) through the device's own capture path: the real `hark run`
 * without --input, a fake `arecord` on PATH playing the recording in real time (SOAK_SPEED=1) or
 * faster (to find leaks sooner), a fake `aplay` swallowing hark's sound, the echo canceller in force,
 * in the environment systemd/hark.service gives hark. Local Whisper first with the weightless test
 * model, the words from the Deepgram double (as in test/bench/loud-room.bench.ts).
 *
 * Prints: minutes of talk; RSS and RssAnon (/proc: the floor of each SOAK_STEP_MIN minutes of talk, i.e.
 * memory between inferences, its median and its peak) and V8's heap, external and arrayBuffers (a probe
 * preloaded into hark); segments stored / closed / what the recording gives offline (the same
 * VAD and segmenter run on the file); each command's end of speech → timer.set and how many within 3 s
 * and 6 s; CPU seconds per minute of talk; recorder restarts; the load average.
 *
 *   SOAK_MINUTES (10)  minutes of talk          SOAK_SPEED (1)   times real time
 *   SOAK_QUOTA (none)  % of one core (cgroup v1, root)   SOAK_STEP_MIN (5)   report step
 *   SOAK_SNAPSHOTS     minutes of talk at which to write a V8 heap snapshot (e.g. "2,10"; open two in
 *                      Chrome's DevTools, Memory, "Comparison") and hark's /proc/<pid>/smaps beside it
 *   SOAK_GC_SEC        a full garbage collection this often in each of hark's threads (a diagnostic:
 *                      what still grows then is referenced, a leak; what does not was garbage)
 *   SOAK_HARK_BIN      another build's bin/hark.js (a worktree at another commit, its dist built) run
 *                      instead of this one, for a before/after on the same recording and bench
 *   SOAK_LABEL         a word added to the output directory's name (two runs side by side)
 *   SOAK_SITES=1       preload test/support/alloc-sites.c, a sampling heap profiler: every SOAK_STEP_MIN
 *                      the live native memory by call stack; the report gives ArrayBuffer backing
 *                      stores apart from the rest, and the stacks that grew most after the first step
 * `make capture-soak MINUTES=60 SPEED=1 QUOTA=25`. Not part of `make test`.
 */
const MINUTES = Number(process.env.SOAK_MINUTES ?? 10);
const SPEED = Number(process.env.SOAK_SPEED ?? 1);
const QUOTA = process.env.SOAK_QUOTA ? Number(process.env.SOAK_QUOTA) : null;
const STEP = Number(process.env.SOAK_STEP_MIN ?? 5);
const SNAPSHOTS = (process.env.SOAK_SNAPSHOTS ?? '').split(',').filter(Boolean).map(Number);
const GC_SEC = Number(process.env.SOAK_GC_SEC ?? 0);
const BIN = process.env.SOAK_HARK_BIN ? resolve(process.env.SOAK_HARK_BIN) : HARK_BIN;
const LABEL = process.env.SOAK_LABEL ? `-${process.env.SOAK_LABEL}` : '';
const SITES = process.env.SOAK_SITES === '1';
const RATE = 16_000;
const SAMPLE_MS = 2000;
/** A segment holds a command when it has all of it but this much (a quiet edge of espeak's clip). */
const HELD = RATE / 5;
/** After the recording's end: the last segment's hangover, its transcription and its write. */
const TAIL_MS = 20_000;

interface Sample {
  /** Minutes of talk played by then. */
  talkMin: number;
  rssMb: number;
  anonMb: number;
  threads: number;
}

const mb = (kb: number) => Math.round(kb / 102.4) / 10;

/** What the recording gives, cut offline by the same VAD and segmenter hark runs with its defaults. */
async function expectedSegments(pcm: Int16Array): Promise<number> {
  const config = validateConfig({}, 'defaults');
  const vad = await createVad(config.vad);
  const { segments } = await segmentPcm(pcm, { vad, segmenter: segmenterOptions(config.vad) });
  await vad.close();
  return segments.length;
}

/**
 * The profiler's dumps as the report gives them: per step of talk, the estimated live MB in
 * ArrayBuffer backing stores and in the rest of malloc; and the stacks outside ArrayBuffers that grew
 * most from the first step to the last, named by addr2line.
 */
function allocSitesReport(dumps: SiteDump[], talkMinAt: (t: number) => number) {
  const last = dumps[dumps.length - 1];
  if (!last) return null;
  const firstFrames = symbolize(
    dumps.flatMap((d) => d.sites.map((s) => s.frames[0] ?? '')),
    last.maps,
  );
  const backing = (frame: string) => (firstFrames.get(frame) ?? '').includes('NodeArrayBufferAllocator');
  const { series, growth } = siteSeries(dumps, backing, 1);
  const names = symbolize(
    growth.flatMap((g) => g.frames),
    last.maps,
  );
  return {
    perStep: series.map((x) => ({ talkMin: Math.round(talkMinAt(x.t) * 10) / 10, arrayBufferMb: x.arrayBufferMb, otherMb: x.otherMb })),
    grewMostAfterFirstStep: growth.map((g) => ({ mb: g.mb, frames: g.frames.map((f) => names.get(f) ?? f) })),
  };
}
describe('the capture path over a long loud room', () => {
  bench(
    `${MINUTES} min of talk through a fake arecord at ${SPEED}× real time${QUOTA ? `, in a ${QUOTA}% CPU quota` : ''}`,
    async () => {
      const dir = outputDir(`bench-capture-soak-${MINUTES}m-x${SPEED}${QUOTA ? `-q${QUOTA}` : ''}${LABEL}`);
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      const rec = buildRecording(dir, MINUTES);
      rmSync(rec.wav); // the fake arecord reads its own raw copy; the WAV only cost disk
      const devices = soakDevices(join(dir, 'devices'), rec.pcm, SPEED);
      const deepgram = await DeepgramDouble.start({ apiKey: 'bench-key' });
      // The double hears a command in a segment that holds it. Not by its bytes: on this path the echo
      // canceller rewrites the microphone while hark plays (a ringing timer says "Timer done." every
      // 6 s), so the segment is found among those hark reported closed (same length, the latest) and
      // its capture positions are mapped onto the recording. A command cut in two by a close is heard
      // in neither piece, as its words would be lost to a real engine.
      deepgram.hear = (pcm) => {
        const seg = events.findLast((x) => x.e.type === 'segment.closed' && x.e.samples === pcm.length)?.e;
        if (!seg) return null;
        const from = devices.recordingSample(Number(seg.startMs) * (RATE / 1000));
        const to = from + pcm.length;
        const i = rec.commands.findIndex((c) => from <= c.startSample + HELD && to >= c.endSample - HELD);
        return i >= 0 ? { text: rec.commands[i]!.text } : null;
      };
      writeFileSync(
        join(dir, 'hark.yaml'),
        `store:\n  path: ${JSON.stringify(join(dir, 'hark.db'))}\nstt:\n  mode: local-first\n  whisper:\n    model: ${JSON.stringify(TINY_MODEL)}\n  deepgram:\n    url: ${JSON.stringify(deepgram.url)}\nactions:\n  dataDir: ${JSON.stringify(dir)}\n`,
      );
      const unit = harkUnit();
      const probeFile = join(dir, 'probe.jsonl');
      const loadAtStart = loadavg()[0]!;
      const mallinfo = mallinfoProbe(dir, SAMPLE_MS);
      const sites = SITES ? allocSitesProbe(dir, (STEP * 60_000) / SPEED) : null;
      const preload = [mallinfo?.so, sites?.so].filter(Boolean).join(' ');
      const child = spawn(
        process.execPath,
        [
          ...(GC_SEC > 0 ? ['--expose-gc'] : []),
          '--require',
          join(ROOT, 'test/support/memory-probe.cjs'),
          '--heapsnapshot-signal=SIGUSR2',
          BIN,
          'run',
          '-c',
          join(dir, 'hark.yaml'),
          '--port',
          '0',
          '--json',
        ],
        {
          cwd: dir,
          env: {
            ...process.env,
            ...unit.env,
            ...(mallinfo?.env ?? {}),
            ...(sites?.env ?? {}),
            ...(preload ? { LD_PRELOAD: preload } : {}),
            PATH: `${devices.dir}:${process.env.PATH}`,
            DEEPGRAM_API_KEY: 'bench-key',
            HARK_PROBE_FILE: probeFile,
            HARK_PROBE_MS: String(SAMPLE_MS),
            HARK_PROBE_GC_MS: String(GC_SEC * 1000),
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      const quota = QUOTA === null ? null : cpuQuota(`hark-capture-soak-${process.pid}`, QUOTA);
      if (QUOTA !== null && !quota) throw new Error('a CPU quota was asked for and cannot be set here');
      quota?.add(child.pid!);
      const events: { t: number; e: Record<string, unknown> }[] = [];
      createInterface({ input: child.stdout }).on('line', (line) => {
        try {
          events.push({ t: Date.now(), e: JSON.parse(line) as Record<string, unknown> });
        } catch {
          /* not an event */
        }
      });
      const stderr: string[] = [];
      createInterface({ input: child.stderr }).on('line', (l) => stderr.push(l) > 200 && stderr.shift());
      const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));

      const talkMinAt = (t: number) => {
        const o = devices.origin();
        return o === null ? 0 : ((t - o) * SPEED) / 60_000;
      };
      const samples: Sample[] = [];
      const snapshots = [...SNAPSHOTS];
      const sampler = setInterval(() => {
        const m = procMemory(child.pid!);
        const talkMin = talkMinAt(Date.now());
        if (m && Number.isFinite(m.rssKb)) samples.push({ talkMin, rssMb: mb(m.rssKb), anonMb: mb(m.anonKb), threads: m.threads });
        if (snapshots.length && talkMin >= snapshots[0]!) {
          // The mappings too: which of them grew (the main heap, a thread's arena, a library's) says whose memory it is.
          try {
            writeFileSync(join(dir, `smaps-${snapshots[0]}min.txt`), readFileSync(`/proc/${child.pid}/smaps`));
          } catch {
            /* exited */
          }
          snapshots.shift();
          child.kill('SIGUSR2');
        }
      }, SAMPLE_MS);
      let cpu = 0;
      const cpuSampler = setInterval(() => (cpu = cpuSeconds(child.pid!) ?? cpu), 1000);
      // The recording's whole length, once it has started, and the tail.
      const talkMs = (MINUTES * 60_000) / SPEED;
      const done = (async () => {
        while (devices.origin() === null) await new Promise((r) => setTimeout(r, 500));
        await new Promise((r) => setTimeout(r, devices.origin()! + talkMs + TAIL_MS - Date.now()));
      })();
      const early = await Promise.race([done.then(() => null), exited]);
      if (early !== null) throw new Error(`hark exited (${early}) before the recording ended:\n${stderr.slice(-20).join('\n')}`);
      const cpuAtEnd = cpu;
      child.kill('SIGTERM');
      await exited;
      clearInterval(sampler);
      clearInterval(cpuSampler);
      quota?.remove();
      await deepgram.close();
      const loadAtEnd = loadavg()[0]!;

      const origin = devices.origin()!;
      const latencies = rec.commands.map((c) => {
        const set = events.find(
          (x) => x.e.type === 'action' && x.e.name === 'timer.set' && (x.e.args as { seconds?: number } | undefined)?.seconds === c.seconds,
        );
        return set ? Math.round(set.t - (origin + (c.endSample / RATE / SPEED) * 1000)) : null;
      });
      const probe = readFileSync(probeFile, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { t: number; thread: number; heapUsed: number; external: number; arrayBuffers: number })
        // The main thread's isolate, where the path runs (workers: aplay's feeder, the store's checkpointer).
        .filter((p) => p.thread === 0);
      const malloc = mallinfo?.read(child.pid!) ?? [];
      const steps: Record<string, unknown>[] = [];
      for (let m = STEP; m <= MINUTES + 1e-9; m += STEP) {
        const inStep = samples.filter((s) => s.talkMin > m - STEP && s.talkMin <= m);
        const probes = probe.filter((p) => talkMinAt(p.t) > m - STEP && talkMinAt(p.t) <= m);
        const mallocs = malloc.filter((x) => talkMinAt(x.t) > m - STEP && talkMinAt(x.t) <= m);
        if (!inStep.length) continue;
        const M = (xs: number[]) => Math.round(pct(xs, 0.5) / 1048576);
        steps.push({
          talkMin: m,
          // Whisper's per-inference buffers come and go (+40 MB here): the floor is memory between inferences.
          rssFloorMb: pct(
            inStep.map((s) => s.rssMb),
            0.1,
          ),
          rssMedianMb: pct(
            inStep.map((s) => s.rssMb),
            0.5,
          ),
          rssPeakMb: Math.max(...inStep.map((s) => s.rssMb)),
          anonFloorMb: pct(
            inStep.map((s) => s.anonMb),
            0.1,
          ),
          anonMedianMb: pct(
            inStep.map((s) => s.anonMb),
            0.5,
          ),
          threads: Math.max(...inStep.map((s) => s.threads)),
          heapUsedMb: M(probes.map((p) => p.heapUsed)),
          externalMb: M(probes.map((p) => p.external)),
          arrayBuffersMb: M(probes.map((p) => p.arrayBuffers)),
          // What malloc holds in use (native caches and leaks), apart from what it keeps freed.
          ...(mallocs.length ? { mallocInUseMb: M(mallocs.map((x) => x.inUse)), mallocFreeMb: M(mallocs.map((x) => x.free)) } : {}),
        });
      }
      const allocSites = sites ? allocSitesReport(sites.read(child.pid!), talkMinAt) : null;
      const db = new Database(join(dir, 'hark.db'), { readonly: true });
      const stored = db.prepare('SELECT COUNT(*) FROM segments').pluck().get() as number;
      db.close();
      const closed = events.filter((x) => x.e.type === 'segment.closed').length;
      const expected = await expectedSegments(rec.pcm);
      const acted = latencies.filter((l) => l !== null);
      const report = {
        minutesOfTalk: MINUTES,
        speed: SPEED,
        quotaPct: QUOTA,
        forcedGcSec: GC_SEC || null,
        memory: steps,
        segments: { stored, closed, handled: events.filter((x) => x.e.type === 'segment.handled').length, expectedOffline: expected },
        commands: {
          count: rec.commands.length,
          actedOn: acted.length,
          within3s: acted.filter((l) => l! <= 3000).length,
          within6s: acted.filter((l) => l! <= 6000).length,
          latenciesMs: latencies,
        },
        cpuSecPerTalkMin: Math.round((cpuAtEnd / MINUTES) * 10) / 10,
        recorderStarts: devices.starts().length,
        captureDowns: events.filter((x) => x.e.type === 'capture.down').map((x) => x.e.reason),
        heapSnapshots: readdirSync(dir).filter((f) => f.endsWith('.heapsnapshot')),
        ...(allocSites ? { allocSites } : {}),
        pid: child.pid,
        load: [Math.round(loadAtStart * 10) / 10, Math.round(loadAtEnd * 10) / 10],
        note: 'memory per step of talk: floor (10th percentile: between inferences), median and peak of /proc samples every 2 s; heap figures: the main thread, median; load: 1-minute load average at start and end',
      };
      writeFileSync(join(dir, 'report.json'), JSON.stringify(report, null, 2));
      writeFileSync(join(dir, 'samples.json'), JSON.stringify(samples));
      writeFileSync(join(dir, 'events.jsonl'), events.map((x) => JSON.stringify({ t: x.t, ...x.e })).join('\n') + '\n');
      console.log(JSON.stringify(report, null, 2));
      if (!existsSync(join(dir, 'hark.db'))) throw new Error('no store written');
    },
    { iterations: 1, warmupIterations: 0, time: 0, warmupTime: 0 },
  );
});
