import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { HARK_BIN } from './paths.js';
import type { Room } from './room-devices.js';

/** `hark clocks` in a simulated room (its arecord and aplay first on PATH), with dir/hark.yaml and dir/hark.db. */
export function harkClocks(
  room: Room,
  dir: string,
  seconds: number,
  extra: string[] = ['--stt-mode', 'cloud-only'],
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [HARK_BIN, 'clocks', '--db', join(dir, 'hark.db'), '--seconds', String(seconds), ...extra], {
      env: { ...process.env, PATH: `${room.dir}:${process.env.PATH}`, HARK_CONFIG: join(dir, 'hark.yaml'), DEEPGRAM_API_KEY: 'e2e-key' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    // Bounded: a hark that never ends its measurement is killed a minute after it should have given up.
    const kill = setTimeout(() => child.kill('SIGKILL'), (seconds + 60) * 1000);
    child.on('exit', (code) => (clearTimeout(kill), resolve({ code, out, err })));
  });
}
