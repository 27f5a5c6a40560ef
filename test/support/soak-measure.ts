import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './paths.js';

/** What a long benchmark reads of a running hark from outside it: /proc, and malloc's own view. */

export function procMemory(pid: number): { rssKb: number; anonKb: number; threads: number } | null {
  try {
    const s = readFileSync(`/proc/${pid}/status`, 'utf8');
    const get = (k: string) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(s)?.[1] ?? NaN);
    return { rssKb: get('VmRSS'), anonKb: get('RssAnon'), threads: get('Threads') };
  } catch {
    return null;
  }
}

export function cpuSeconds(pid: number): number | null {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return null;
  }
}

/** The value a fraction `q` of the way up the sorted samples. */
export const pct = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) * q)]! : NaN;
};

/**
 * test/support/<name>.c built into `dir` as a library to preload (LD_PRELOAD) into hark, or null
 * (with a warning naming what the report goes without) where no C compiler is at hand.
 */
export function buildPreload(dir: string, name: string, without: string): string | null {
  const so = join(dir, `${name}.so`);
  try {
    execFileSync('cc', ['-O2', '-shared', '-fPIC', '-o', so, join(ROOT, 'test/support', `${name}.c`), '-lpthread'], { stdio: 'pipe' });
    return so;
  } catch (err) {
    console.warn(`no ${without}: cannot build test/support/${name}.c (${(err as Error).message.split('\n')[0]})`);
    return null;
  }
}

/**
 * test/support/mallinfo-probe.c built for this run (else null and the report goes without malloc's
 * figures): the library to preload into hark, the environment it reads, and its samples.
 */
export function mallinfoProbe(
  dir: string,
  sampleMs: number,
): { so: string; env: Record<string, string>; read(pid: number): { t: number; inUse: number; free: number }[] } | null {
  const so = buildPreload(dir, 'mallinfo-probe', 'malloc figures');
  if (!so) return null;
  const file = join(dir, 'mallinfo');
  return {
    so,
    // Children (arecord, espeak-ng, aplay) inherit it too and write files of their own, unread.
    env: { MALLINFO_FILE: file, MALLINFO_MS: String(sampleMs) },
    read: (pid) => {
      try {
        return readFileSync(`${file}.${pid}`, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => l.split(' ').map(Number))
          .map(([t, , inUse, free]) => ({ t: t!, inUse: inUse!, free: free! }));
      } catch {
        return [];
      }
    },
  };
}
