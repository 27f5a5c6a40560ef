import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A microphone and a speaker for a long `hark run` on its own capture path: put `dir` first
 * on PATH and hark's AlsaCapture (node-record-lpcm16 → arecord) and AplayStream (aplay) run unchanged,
 * the echo canceller in force as on a device.
 *  - arecord plays `audio.raw` once, `speed` times real time, then silence: one ALSA period (125 ms of
 *    audio, 4000 bytes) at a time, as arecord with no -B/-F writes. Its timeline is wall time since the
 *    first start (the `origin` file), so a recorder restarted by hark's watchdog picks up where the room
 *    is now, and what was "said" meanwhile is lost, as with a real microphone. It is Node, not bash: at
 *    8× a bash loop would start 64 `dd`s a second on a machine that is already loaded.
 *  - aplay swallows what it is given: AplayStream paces its writes to the clock itself.
 */
const ARECORD = (
  raw: string,
  origin: string,
  speed: number,
  log: string,
) => `import { appendFileSync, existsSync, openSync, readSync, writeFileSync, readFileSync, fstatSync } from 'node:fs';
const PERIOD = 4000;
const periodMs = 125 / ${speed};
if (!existsSync(${JSON.stringify(origin)})) writeFileSync(${JSON.stringify(origin)}, String(Date.now()));
const t0 = Number(readFileSync(${JSON.stringify(origin)}, 'utf8'));
const fd = openSync(${JSON.stringify(raw)}, 'r');
const periods = Math.floor(fstatSync(fd).size / PERIOD);
const buf = Buffer.alloc(PERIOD);
let next = Math.floor((Date.now() - t0) / periodMs);
// Where this run starts in the recording, and where it stopped: hark's capture positions run on across
// restarts, the recording does not (see SoakDevices.recordingSample).
const first = next;
appendFileSync(${JSON.stringify(log)}, 'start ' + process.pid + ' ' + Date.now() + ' ' + first + '\\n');
const stop = () => {
  appendFileSync(${JSON.stringify(log)}, 'stop ' + process.pid + ' ' + (next - first) + '\\n');
  process.exit(1); // like the real arecord on SIGTERM
};
process.on('SIGTERM', stop);
process.stdout.on('error', stop);
const tick = () => {
  const due = Math.floor((Date.now() - t0) / periodMs);
  for (; next <= due; next++) {
    if (next < periods) readSync(fd, buf, 0, PERIOD, next * PERIOD);
    else buf.fill(0);
    process.stdout.write(buf);
  }
  setTimeout(tick, Math.max(1, t0 + next * periodMs - Date.now()));
};
tick();
`;

export interface SoakDevices {
  dir: string;
  /** Wall ms at which the recording's sample 0 was written (the first arecord's start), or null before. */
  origin(): number | null;
  /** Each arecord started: pid, wall ms, the recording period it started at, and periods written (null: still running). */
  starts(): { pid: number; at: number; firstPeriod: number; periods: number | null }[];
  /** The recording's sample under hark's capture position `p` (which runs on across recorder restarts). */
  recordingSample(p: number): number;
}

/** Samples in one period the fake arecord writes. */
const PERIOD_SAMPLES = 2000;

export function soakDevices(dir: string, pcm: Int16Array, speed: number, node = process.execPath): SoakDevices {
  mkdirSync(dir, { recursive: true });
  const raw = join(dir, 'audio.raw');
  const originFile = join(dir, 'origin');
  const log = join(dir, 'arecord.log');
  writeFileSync(raw, Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength));
  writeFileSync(log, '');
  writeFileSync(join(dir, 'arecord.mjs'), ARECORD(raw, originFile, speed, log));
  script(join(dir, 'arecord'), `#!/bin/sh\nexec ${JSON.stringify(node)} ${JSON.stringify(join(dir, 'arecord.mjs'))} "$@"\n`);
  script(join(dir, 'aplay'), '#!/bin/sh\nexec cat > /dev/null\n');
  const starts = () => {
    const lines = readFileSync(log, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => l.split(' '));
    return lines
      .filter((l) => l[0] === 'start')
      .map(([, pid, at, first]) => {
        const stop = lines.find((l) => l[0] === 'stop' && l[1] === pid);
        return { pid: Number(pid), at: Number(at), firstPeriod: Number(first), periods: stop ? Number(stop[2]) : null };
      });
  };
  return {
    dir,
    origin: () => {
      try {
        return Number(readFileSync(originFile, 'utf8'));
      } catch {
        return null;
      }
    },
    starts,
    recordingSample: (p) => {
      // Each run's audio follows the last's in capture positions; in the recording it starts where the room was.
      let before = 0;
      const runs = starts();
      for (const [i, r] of runs.entries()) {
        const len = (r.periods ?? Infinity) * PERIOD_SAMPLES;
        if (p < before + len || i === runs.length - 1) return r.firstPeriod * PERIOD_SAMPLES + (p - before);
        before += len;
      }
      return p;
    },
  };
}

function script(path: string, text: string): void {
  writeFileSync(path, text);
  chmodSync(path, 0o755);
}
