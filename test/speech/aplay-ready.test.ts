import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { waitingOnPipe } from '../../src/speech/aplay-stream-ready.js';

/**
 * Issue 32 item 1: the check that aplay is ready to be fed. Node gives a child's stdin as a Unix
 * socket, not a pipe: a blocked reader sleeps in unix_stream_read_generic. The check looked for
 * pipe_read only, never succeeded, and every first reply after quiet waited out its 1 s timeout.
 */
const children: ReturnType<typeof spawn>[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

async function blockedWithin(pid: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (waitingOnPipe(pid)) return true;
    await new Promise((r) => setTimeout(r, 10));
  }
  return false;
}

describe('aplay is seen waiting for its first samples', () => {
  it('a real aplay on ALSA\'s null device, its stdin from Node (a socket)', async () => {
    const aplay = spawn('aplay', ['-q', '-D', 'null', '-t', 'raw', '-f', 'S16_LE', '-r', '16000', '-c', '1'], { stdio: ['pipe', 'ignore', 'ignore'] });
    children.push(aplay);
    expect(await blockedWithin(aplay.pid!, 3000)).toBe(true);
  });

  it('a process busy elsewhere (sleeping, not reading its stdin) is not taken for ready', async () => {
    const sleeper = spawn('sleep', ['5'], { stdio: ['pipe', 'ignore', 'ignore'] });
    children.push(sleeper);
    expect(await blockedWithin(sleeper.pid!, 300)).toBe(false);
  });
});
