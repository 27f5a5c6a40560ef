import { readFileSync } from 'node:fs';

/**
 * Kernel functions a process sleeps in while it waits to read its stdin: a pipe (pipe_read, older
 * kernels' pipe_wait), or the Unix socket Node's spawn gives a child as stdin
 * (unix_stream_read_generic): without that one the check never succeeded for hark's own aplay.
 */
const READING = /^(pipe_(read|wait)|unix_stream_read_generic|unix_stream_data_wait)$/;

/**
 * Linux: the process, or one of its children (a wrapper script's), is asleep reading its stdin (it
 * has nothing else to read). /proc/<pid>/wchan names the kernel function it sleeps in.
 * null where /proc cannot say (not Linux).
 */
export function waitingOnPipe(pid: number): boolean | null {
  const reading = (p: number | string): boolean | null => {
    try {
      return READING.test(readFileSync(`/proc/${p}/wchan`, 'utf8').trim());
    } catch {
      return null;
    }
  };
  const self = reading(pid);
  if (self === null || self) return self;
  try {
    const kids = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
    return kids.some((k) => reading(k) === true);
  } catch {
    return false;
  }
}
