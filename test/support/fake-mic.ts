import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A fake `arecord` for end-to-end runs of `hark run`: put `dir` first on PATH. Each start takes the
 * next line of its plan:
 *   play         stream audio.raw from where the last run stopped, in real time (1024-byte pieces
 *                every 32 ms), then silence, forever — a microphone in a quiet kitchen;
 *   die-after:N  stream N pieces, print an ALSA read error and exit 1 — the USB mic pulled out.
 * Like the real arecord it exits 1 on SIGTERM. Bash, so it starts in milliseconds on a loaded machine.
 */
const SCRIPT = (dir: string) => `#!/bin/bash
dir=${JSON.stringify(dir)}
raw="$dir/audio.raw"
trap 'exit 1' TERM
echo "$$ $*" >> "$dir/runs.log"
n=$(wc -l < "$dir/runs.log")
plan=$(sed -n "\${n}p" "$dir/plan.txt"); [ -n "$plan" ] || plan=$(tail -n 1 "$dir/plan.txt")
mode=\${plan%%:*}; arg=\${plan#*:}
offset=$(cat "$dir/offset" 2>/dev/null || echo 0)
pieces=$(( $(stat -c %s "$raw") / 1024 ))
sent=0
while :; do
  if [ "$mode" = die-after ] && [ "$sent" -ge "$arg" ]; then
    echo 'arecord: pcm_read:2221: read error: No such device' >&2
    exit 1
  fi
  if [ "$offset" -lt "$pieces" ]; then
    dd if="$raw" bs=1024 skip="$offset" count=1 status=none
    offset=$((offset + 1)); echo "$offset" > "$dir/offset"
  else
    head -c 1024 /dev/zero
  fi
  sent=$((sent + 1))
  sleep 0.032
done
`;

export interface FakeMic {
  dir: string;
  runs(): string[];
}

export function fakeMic(dir: string, audio: Int16Array, plan: string[]): FakeMic {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'audio.raw'), Buffer.from(audio.buffer, audio.byteOffset, audio.byteLength));
  writeFileSync(join(dir, 'plan.txt'), plan.join('\n') + '\n');
  writeFileSync(join(dir, 'runs.log'), '');
  writeFileSync(join(dir, 'offset'), '0');
  writeFileSync(join(dir, 'arecord'), SCRIPT(dir));
  chmodSync(join(dir, 'arecord'), 0o755);
  return {
    dir,
    runs: () => readFileSync(join(dir, 'runs.log'), 'utf8').split('\n').filter(Boolean),
  };
}
