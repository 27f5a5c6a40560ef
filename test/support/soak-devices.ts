import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A microphone and a speaker for a long `hark run` on its own capture path (issue 31): put `dir` first
 * on PATH and hark's AlsaCapture (node-record-lpcm16 → arecord) and AplayStream (aplay) run unchanged,
 * the echo canceller in force as on a device.
 *  - arecord plays `audio.raw` once, `speed` times real time, then silence: one ALSA period (125 ms of
 *    audio, 4000 bytes) at a time, as arecord with no -B/-F writes. Its timeline is wall time since the
 *    first start (the `origin` file), so a recorder restarted by hark's watchdog picks up where the room
 *    is now, and what was "said" meanwhile is lost, as with a real microphone. It is Node, not bash: at
 *    8× a bash loop would start 64 `dd`s a second on a machine that is already loaded.
 *  - aplay swallows what it is given: AplayStream paces its writes to the clock itself.
 */
const ARECORD = (raw: string, origin: string, speed: number, log: string) => `import { appendFileSync, existsSync, openSync, readSync, writeFileSync, readFileSync, fstatSync } from 'node:fs';
const PERIOD = 4000;
const periodMs = 125 / ${speed};
appendFileSync(${JSON.stringify(log)}, process.pid + ' ' + Date.now() + '\\n');
if (!existsSync(${JSON.stringify(origin)})) writeFileSync(${JSON.stringify(origin)}, String(Date.now()));
const t0 = Number(readFileSync(${JSON.stringify(origin)}, 'utf8'));
const fd = openSync(${JSON.stringify(raw)}, 'r');
const periods = Math.floor(fstatSync(fd).size / PERIOD);
const buf = Buffer.alloc(PERIOD);
// Like the real arecord: SIGTERM ends it with status 1.
process.on('SIGTERM', () => process.exit(1));
process.stdout.on('error', () => process.exit(1));
let next = Math.floor((Date.now() - t0) / periodMs);
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
  /** Each arecord started: pid and wall ms. */
  starts(): { pid: number; at: number }[];
}

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
  return {
    dir,
    origin: () => {
      try {
        return Number(readFileSync(originFile, 'utf8'));
      } catch {
        return null;
      }
    },
    starts: () =>
      readFileSync(log, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => {
          const [pid, at] = l.split(' ').map(Number);
          return { pid: pid!, at: at! };
        }),
  };
}

function script(path: string, text: string): void {
  writeFileSync(path, text);
  chmodSync(path, 0o755);
}
