import { spawn, type ChildProcess } from 'node:child_process';

/**
 * systemd's notify protocol (READY=1, WATCHDOG=1, STATUS=...). The protocol is a datagram on the unix
 * socket named by $NOTIFY_SOCKET, and Node has no unix datagram sockets. Spawning `systemd-notify` per
 * message races (the sender is gone before systemd can attribute it to the unit), so one small
 * python3 co-process lives as long as hark and forwards each line of its stdin as one datagram.
 * python3 is on every Raspberry Pi OS image; nothing needs compiling.
 */
const FORWARDER = `
import os, socket, sys
addr = os.environ["NOTIFY_SOCKET"]
if addr.startswith("@"):
    addr = "\\0" + addr[1:]
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
for line in sys.stdin:
    msg = line.rstrip("\\n").replace("\\\\n", "\\n")
    try:
        s.sendto(msg.encode(), addr)
    except OSError as e:
        print("sd-notify: " + str(e), file=sys.stderr, flush=True)
`;

export interface Notifier {
  send(message: string): void;
  close(): void;
  /** Watchdog interval systemd asked for (half of WATCHDOG_USEC), or null. */
  readonly watchdogMs: number | null;
}

export function createNotifier(env: NodeJS.ProcessEnv = process.env, onError?: (msg: string) => void): Notifier {
  const socket = env.NOTIFY_SOCKET;
  const usec = Number(env.WATCHDOG_USEC);
  // WATCHDOG_PID names the process that must send; if it is another process, the watchdog is not ours.
  const forUs = !env.WATCHDOG_PID || Number(env.WATCHDOG_PID) === process.pid;
  const watchdogMs = Number.isFinite(usec) && usec > 0 && forUs ? Math.max(500, Math.floor(usec / 2000)) : null;
  if (!socket) return { send: () => {}, close: () => {}, watchdogMs: null };

  let child: ChildProcess | null = spawn('python3', ['-u', '-c', FORWARDER], {
    stdio: ['pipe', 'ignore', 'pipe'],
    env: { NOTIFY_SOCKET: socket, PATH: env.PATH ?? '/usr/bin:/bin' },
  });
  child.stderr?.on('data', (d: Buffer) => onError?.(d.toString().trim()));
  child.on('error', (err) => {
    onError?.(`cannot start the systemd notify forwarder (python3): ${err.message}`);
    child = null;
  });
  child.on('exit', () => {
    child = null;
  });
  // The forwarder must never keep hark alive or block its exit.
  child.unref();
  (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  return {
    watchdogMs,
    send(message: string) {
      if (!child?.stdin?.writable) return;
      child.stdin.write(message.replace(/\n/g, '\\n') + '\n');
    },
    close() {
      child?.stdin?.end();
      child = null;
    },
  };
}
