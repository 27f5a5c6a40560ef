import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { JFK_WAV } from '../support/paths.js';
import { sox, tempDir } from './helpers.js';

/**
 * What one run of the fake arecord does (one entry per start; the last repeats):
 *  - `burst:N`   write N pieces of 1001 bytes of jfk as raw s16le (so samples straddle pieces), print
 *                an ALSA read error and exit 1 — a USB microphone pulled out mid-sentence;
 *  - `stall:N`   write N pieces, then stay alive saying nothing — a wedged driver;
 *  - `fail`      print an ALSA open error and exit 1 at once — no such device;
 *  - `stream`    write jfk in real time, a 1023-byte piece every ~32 ms;
 *  - `deaf`      like stream but ignores SIGTERM — only SIGKILL stops it.
 * Like the real arecord, it exits 1 on SIGTERM. Bash, not node: it must start in milliseconds even on
 * a loaded machine, or the capture watchdog would (rightly) kill it before its first byte.
 */
export type FakeMode = `burst:${number}` | `stall:${number}` | 'fail' | 'stream' | 'deaf';

export interface FakeArecord {
  /** Put this first on PATH. */
  dir: string;
  raw: Buffer;
  /** Every start so far: pid and argv. */
  runs(): Array<{ pid: number; args: string[] }>;
  remove(): void;
}

const SCRIPT = (dir: string) => `#!/bin/bash
dir=${JSON.stringify(dir)}
raw="$dir/jfk.raw"
runs=()
[[ -f "$dir/runs.log" ]] && mapfile -t runs < "$dir/runs.log"
n=\${#runs[@]}
echo "$$ $*" >> "$dir/runs.log"
mapfile -t plan < "$dir/plan.txt"
(( n >= \${#plan[@]} )) && n=$(( \${#plan[@]} - 1 ))
IFS=: read -r mode arg <<< "\${plan[n]}"
if [[ $mode == deaf ]]; then trap '' TERM; else trap 'exit 1' TERM; fi
case $mode in
  fail)
    echo 'ALSA lib pcm_hw.c:1829:(_snd_pcm_hw_open) Invalid value for card' >&2
    echo 'arecord: main:831: audio open error: No such file or directory' >&2
    exit 1 ;;
  burst)
    dd if="$raw" bs=1001 count="$arg" status=none
    echo 'arecord: pcm_read:2221: read error: No such device' >&2
    exit 1 ;;
  stall)
    dd if="$raw" bs=1001 count="$arg" status=none
    exec sleep 3600 ;;
  *)
    pieces=$(( $(stat -c %s "$raw") / 1023 ))
    i=0
    while :; do
      dd if="$raw" bs=1023 skip=$i count=1 status=none
      i=$(( (i + 1) % pieces ))
      sleep 0.032
    done ;;
esac
`;

export function installFakeArecord(plan: FakeMode[]): FakeArecord {
  const dir = tempDir('fake-arecord');
  const rawPath = join(dir, 'jfk.raw');
  writeFileSync(rawPath, sox(JFK_WAV, '-t', 'raw', '-'));
  writeFileSync(join(dir, 'plan.txt'), plan.join('\n') + '\n');
  const script = join(dir, 'arecord');
  writeFileSync(script, SCRIPT(dir));
  chmodSync(script, 0o755);
  const log = join(dir, 'runs.log');
  return {
    dir,
    raw: readFileSync(rawPath),
    remove: () => rmSync(dir, { recursive: true, force: true }),
    runs: () =>
      existsSync(log)
        ? readFileSync(log, 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((l) => {
              const [pid, ...args] = l.split(' ');
              return { pid: Number(pid), args };
            })
        : [],
  };
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
