import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { outputDir } from './paths.js';

/**
 * A stand-in aplay for timing the first sound after quiet (test/speech/aplay-first-sound.test.ts,
 * test/bench/first-sound.bench.ts): a wrapper script, as the room's aplay is, whose child (head) sits
 * in read(2) on the stdin hark gave it (a Unix socket) until the first byte comes; the wall-clock time
 * of that byte is logged, and a line when the process ends. Made afresh in test-output/<name>.
 */
export function standInAplay(name: string): { bin: string; firstBytes(): string[]; exits(): number } {
  const dir = outputDir(name);
  rmSync(dir, { recursive: true, force: true });
  outputDir(name);
  const firsts = join(dir, 'first-bytes');
  const exits = join(dir, 'exits');
  const bin = join(dir, 'aplay');
  writeFileSync(
    bin,
    `#!/bin/bash
head -c 1 > /dev/null
printf '%s\\n' "$EPOCHREALTIME" >> ${JSON.stringify(firsts)}
cat > /dev/null
printf 'x\\n' >> ${JSON.stringify(exits)}
`,
  );
  chmodSync(bin, 0o755);
  return { bin, firstBytes: () => lines(firsts), exits: () => lines(exits).length };
}

function lines(path: string): string[] {
  return existsSync(path) ? readFileSync(path, 'utf8').trim().split('\n').filter(Boolean) : [];
}

/** A 440 Hz tone of `ms` at 16 kHz; a phase of 1 rad, so the first sample is not zero. */
export function tone(ms: number): Int16Array {
  return new Int16Array(Math.round(ms * 16)).map((_, i) => Math.round(Math.sin((2 * Math.PI * 440 * i) / 16_000 + 1) * 8000));
}

/** Poll `get` every `stepMs` until it gives a value; throws naming `what` after `ms`. */
export async function until<T>(what: string, get: () => T | undefined, ms = 5000, stepMs = 10): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = get();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, stepMs));
  }
}

/**
 * A stand-in aplay that keeps what hark hands it: each process's stdin (raw s16le) in a file of its
 * own, numbered in the order they started (test/speech/alarm-level.test.ts). Made afresh in
 * test-output/<name>.
 */
export function recordingAplay(name: string): { bin: string; clips(): Int16Array[] } {
  const dir = outputDir(name);
  rmSync(dir, { recursive: true, force: true });
  outputDir(name);
  const bin = join(dir, 'aplay');
  const done = join(dir, 'done');
  writeFileSync(bin, `#!/bin/bash\nf=${JSON.stringify(dir)}/clip-$(date +%s%N).raw\ncat > "$f"\nprintf '%s\\n' "$f" >> ${JSON.stringify(done)}\n`);
  chmodSync(bin, 0o755);
  return {
    bin,
    clips: () =>
      lines(done).map((f) => {
        const b = readFileSync(f);
        return new Int16Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.length - (b.length % 2)));
      }),
  };
}
