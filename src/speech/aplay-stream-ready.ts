import { readFileSync } from 'node:fs';

/**
 * Linux: the process, or one of its children (a wrapper script's), is asleep reading a pipe (its
 * stdin: it has nothing else to read). /proc/<pid>/wchan names the kernel function it sleeps in.
 * null where /proc cannot say (not Linux).
 */
export function waitingOnPipe(pid: number): boolean | null {
  const reading = (p: number | string): boolean | null => {
    try {
      return /pipe_(read|wait)/.test(readFileSync(`/proc/${p}/wchan`, 'utf8'));
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
