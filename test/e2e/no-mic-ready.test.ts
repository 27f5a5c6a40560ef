import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { HarkProcess } from '../support/hark-process.js';
import { TINY_MODEL, outputDir } from '../support/paths.js';

/**
 * No microphone at start: the fake arecord fails to open the device every time.
 * A fake systemd listens on NOTIFY_SOCKET (a unix datagram socket; Node has none, so python3 binds it
 * and prints each datagram as a line). hark must say READY=1 once its store and debug page are up —
 * with STATUS=microphone down — and keep feeding the watchdog while the capture supervisor retries,
 * instead of never becoming ready (a restart loop every TimeoutStartSec under systemd).
 */
const LISTENER = `
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
print("listening", flush=True)
while True:
    print(s.recv(65536).decode().replace("\\n", "|"), flush=True)
`;

describe('hark run with no microphone under systemd', () => {
  let hark: HarkProcess;
  let listener: ChildProcess;
  const got: { at: number; msg: string }[] = [];
  let started = 0;

  beforeAll(async () => {
    const dir = outputDir('e2e-no-mic-ready');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(join(dir, 'bin'), { recursive: true });
    writeFileSync(join(dir, 'bin', 'arecord'), `#!/bin/bash\necho 'arecord: main:831: audio open error: No such file or directory' >&2\nexit 1\n`);
    chmodSync(join(dir, 'bin', 'arecord'), 0o755);
    const sock = join(dir, 'notify.sock');
    listener = spawn('python3', ['-u', '-c', LISTENER, sock], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve) =>
      createInterface({ input: listener.stdout! }).on('line', (l) => (l === 'listening' ? resolve() : got.push({ at: Date.now(), msg: l }))),
    );
    writeFileSync(join(dir, 'hark.yaml'), `capture:\n  restartInitialMs: 300\n  restartMaxMs: 1200\nspeech:\n  device: "null"\n`);
    started = Date.now();
    hark = new HarkProcess(['--db', join(dir, 'hark.db'), '--port', '0', '--model', TINY_MODEL, '--stt-mode', 'local-only'], {
      ...process.env,
      PATH: `${join(dir, 'bin')}:${process.env.PATH}`,
      HARK_CONFIG: join(dir, 'hark.yaml'),
      NOTIFY_SOCKET: sock,
      WATCHDOG_USEC: '1000000', // hark feeds it every 500 ms
    });
    await hark.waitFor((e) => e.type === 'daemon.ready', 30_000, 'hark to start');
    // several retries at the capped backoff, long enough to see the watchdog keep coming
    await new Promise((r) => setTimeout(r, 6000));
  }, 60_000);

  afterAll(async () => {
    hark?.kill('SIGTERM');
    await hark?.exited;
    listener?.kill();
  });

  it('keeps retrying the microphone, logging each failed attempt once', () => {
    const downs = hark.of('capture.down').length;
    expect(downs).toBeGreaterThanOrEqual(3);
    expect(hark.of('capture.up')).toHaveLength(0);
    // journal lines: one per attempt (the daemon and the capture adapter both logged it before)
    const logged = hark.stderr.filter((l) => /capture down/.test(l)).length;
    expect(Math.abs(logged - downs)).toBeLessThanOrEqual(1);
  });

  it('says READY=1 with the microphone down', () => {
    const ready = got.find((g) => g.msg.split('|').includes('READY=1'));
    expect(ready, JSON.stringify(got.slice(0, 5))).toBeDefined();
    expect(ready!.msg).toMatch(/STATUS=(microphone down \(.*audio open error.*\)|waiting for audio)/);
    expect(got.some((g) => /STATUS=microphone down \(arecord exited with code 1: .*audio open error/.test(g.msg))).toBe(true);
  });

  it('feeds the watchdog all along while the supervisor retries', () => {
    const dogs = got.filter((g) => g.msg === 'WATCHDOG=1').map((g) => g.at);
    expect(dogs.length).toBeGreaterThanOrEqual(6);
    // no gap anywhere near WATCHDOG_USEC, up to the end of the window
    const gaps = dogs.slice(1).map((t, i) => t - dogs[i]!);
    expect(Math.max(...gaps)).toBeLessThan(1000);
    expect(Date.now() - dogs.at(-1)!).toBeLessThan(1500);
    expect(dogs[0]! - started).toBeLessThan(30_000);
  });
});
