import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A fake `arecord` for end-to-end runs of `hark run`: put `dir` first on PATH. Each start takes the
 * next line of its plan:
 *   play         stream audio.raw from where the last run stopped, in real time, then silence,
 *                forever — a microphone in a quiet kitchen;
 *   die-after:N  stream N pieces, print an ALSA read error and exit 1 — the USB mic pulled out.
 * Like the real arecord it exits 1 on SIGTERM, and it writes what one ALSA period holds at a time: with
 * no -B/-F, arecord takes the device's buffer time capped at 500 ms, reads periods of a quarter of it
 * (125 ms, 4000 bytes at 16 kHz s16 mono) and writes each as it comes. Bash, so it starts in
 * milliseconds on a loaded machine.
 */
const SCRIPT = (dir: string, pieceBytes: number, pieceSec: string) => `#!/bin/bash
dir=${JSON.stringify(dir)}
raw="$dir/audio.raw"
trap 'exit 1' TERM
echo "$$ $*" >> "$dir/runs.log"
n=$(wc -l < "$dir/runs.log")
plan=$(sed -n "\${n}p" "$dir/plan.txt"); [ -n "$plan" ] || plan=$(tail -n 1 "$dir/plan.txt")
mode=\${plan%%:*}; arg=\${plan#*:}
offset=$(cat "$dir/offset" 2>/dev/null || echo 0)
pieces=$(( $(stat -c %s "$raw") / ${pieceBytes} ))
sent=0
while :; do
  if [ "$mode" = die-after ] && [ "$sent" -ge "$arg" ]; then
    echo 'arecord: pcm_read:2221: read error: No such device' >&2
    exit 1
  fi
  if [ "$offset" -lt "$pieces" ]; then
    dd if="$raw" bs=${pieceBytes} skip="$offset" count=1 status=none
    offset=$((offset + 1)); echo "$offset" > "$dir/offset"
  else
    head -c ${pieceBytes} /dev/zero
  fi
  sent=$((sent + 1))
  sleep ${pieceSec}
done
`;

export interface FakeMic {
  dir: string;
  /** Samples per write: die-after counts these. */
  pieceSamples: number;
  runs(): string[];
}

/** One ALSA period of arecord's default setup: 125 ms. */
export const ARECORD_PERIOD_SAMPLES = 2000;

export function fakeMic(dir: string, audio: Int16Array, plan: string[], pieceSamples = ARECORD_PERIOD_SAMPLES): FakeMic {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'audio.raw'), Buffer.from(audio.buffer, audio.byteOffset, audio.byteLength));
  writeFileSync(join(dir, 'plan.txt'), plan.join('\n') + '\n');
  writeFileSync(join(dir, 'runs.log'), '');
  writeFileSync(join(dir, 'offset'), '0');
  writeFileSync(join(dir, 'arecord'), SCRIPT(dir, pieceSamples * 2, (pieceSamples / 16000).toFixed(4)));
  chmodSync(join(dir, 'arecord'), 0o755);
  return {
    dir,
    pieceSamples,
    runs: () => readFileSync(join(dir, 'runs.log'), 'utf8').split('\n').filter(Boolean),
  };
}
