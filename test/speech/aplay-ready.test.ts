import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { waitingOnStdin } from '../../src/speech/aplay-stream-ready.js';

/**
 * The check that a new aplay is ready to be fed: asleep reading the stdin hark gave
 * it. Node gives a child's stdin as a Unix socket, not a pipe; the check looked for a pipe only, never
 * succeeded, and every first reply after quiet waited out its 1 s timeout. Nor may it say ready for a
 * process that is not reading what hark writes: audio written then would queue behind its start-up for
 * the process's whole life, a latency the echo reference does not know about.
 */
const children: ReturnType<typeof spawn>[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

function start(bin: string, args: string[]): number {
  const c = spawn(bin, args, { stdio: ['pipe', 'ignore', 'ignore'] });
  children.push(c);
  return c.pid!;
}

async function readyWithin(pid: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (waitingOnStdin(pid)) return true;
    await new Promise((r) => setTimeout(r, 10));
  }
  return false;
}

describe('aplay is seen waiting for its first samples', () => {
  it("a real aplay on ALSA's null device, its stdin from Node (a socket)", async () => {
    expect(await readyWithin(start('aplay', ['-q', '-D', 'null', '-t', 'raw', '-f', 'S16_LE', '-r', '16000', '-c', '1']), 3000)).toBe(true);
  });

  it("a wrapper script's child reading the script's stdin", async () => {
    expect(await readyWithin(start('sh', ['-c', 'cat > /dev/null; exit 0']), 3000)).toBe(true);
  });

  it('a process sleeping (its stdin open, not read) is not taken for ready', async () => {
    expect(await readyWithin(start('sleep', ['5']), 300)).toBe(false);
  });

  it('a child reading a pipe of its own, not what hark writes, is not taken for ready', async () => {
    expect(await readyWithin(start('sh', ['-c', 'sleep 5 | cat > /dev/null']), 300)).toBe(false);
  });
});
