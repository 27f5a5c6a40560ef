import { readFileSync, readlinkSync } from 'node:fs';

/**
 * read(2)'s number where hark runs (/proc/<pid>/syscall gives the call a process sleeps in by number):
 * x86-64, 64-bit ARM (Pi OS), 32-bit ARM (32-bit Pi OS, also under a 64-bit kernel), i386, RISC-V.
 */
const READ_SYSCALL: Partial<Record<string, number>> = { x64: 0, arm64: 63, arm: 3, ia32: 3, riscv64: 63 };

/**
 * Where the call cannot be read (no /proc/<pid>/syscall, another architecture): the kernel function a
 * reader sleeps in, by name. Any *read* (pipe_read, 6.18's anon_pipe_read, unix_stream_read_generic:
 * Node gives a child's stdin as a Unix socket, not a pipe), and older kernels' waits (pipe_wait,
 * unix_stream_data_wait).
 */
const READ_WAIT = /read|pipe_wait|unix_stream_data_wait/;

function text(path: string): string | null {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return null;
  }
}

function link(path: string): string | null {
  try {
    return readlinkSync(path);
  } catch {
    return null;
  }
}

/** Child pids of a process (needs CONFIG_PROC_CHILDREN, which Debian's and Pi OS's kernels have). */
function children(pid: number | string): string[] {
  return text(`/proc/${pid}/task/${pid}/children`)?.split(/\s+/).filter(Boolean) ?? [];
}

/**
 * Linux: the process, or one of its descendants (a wrapper script's aplay), is asleep reading the
 * stdin the process was given: blocked in read(2) on fd 0, and its fd 0 is that same pipe or socket.
 * aplay reads its stdin only once it has opened and set up the card, so from then on what is written
 * plays at once rather than queueing behind its start-up. By the call and the open file, not by kernel
 * function names, which differ between kernels and between a pipe and a socket (this check looked for
 * pipe_read only, never saw Node's socket, and every first reply waited out the 1 s timeout). Falls back
 * to the names where the call cannot be read. null where /proc cannot say (not Linux, gone).
 */
export function waitingOnStdin(pid: number): boolean | null {
  const stdin = link(`/proc/${pid}/fd/0`);
  if (stdin === null) return null;
  const readNr = READ_SYSCALL[process.arch];
  const reading = (p: number | string): boolean => {
    // Its fd 0 is not what hark writes to (a pipeline's second stage reads a pipe there): not ready.
    if (link(`/proc/${p}/fd/0`) !== stdin) return false;
    // "<nr> <arg0> ..." while blocked in a call; "running", or "-1 ..." when not in one.
    const call = text(`/proc/${p}/syscall`)?.split(' ');
    if (call && call.length > 2) {
      // The first argument is the fd. Not enough alone: sleep's clock_nanosleep has 0 there too (its
      // clock), so the call's number, or failing that the function's name, must say read.
      if (call[0] === '-1' || Number(call[1]) !== 0) return false;
      if (readNr !== undefined) return Number(call[0]) === readNr;
    } else if (call?.[0] === 'running') return false;
    return READ_WAIT.test(text(`/proc/${p}/wchan`) ?? '');
  };
  // Depth-first over the process tree, a few levels deep (a script, its shell, its aplay).
  const search = (p: number | string, depth: number): boolean => reading(p) || (depth > 0 && children(p).some((k) => search(k, depth - 1)));
  return search(pid, 3);
}
