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
 * test/support/mallinfo-probe.c built for this run (where a C compiler is at hand; else null and the
 * report goes without malloc's figures): the environment that preloads it into hark, and its samples.
 */
export function mallinfoProbe(dir: string, sampleMs: number): { env: Record<string, string>; read(pid: number): { t: number; inUse: number; free: number }[] } | null {
  const so = join(dir, 'mallinfo-probe.so');
  try {
    execFileSync('cc', ['-O2', '-shared', '-fPIC', '-o', so, join(ROOT, 'test/support/mallinfo-probe.c'), '-lpthread'], { stdio: 'pipe' });
  } catch (err) {
    console.warn(`no malloc figures: cannot build the mallinfo probe (${(err as Error).message.split('\n')[0]})`);
    return null;
  }
  const file = join(dir, 'mallinfo');
  return {
    // Children (arecord, espeak-ng, aplay) inherit it too and write files of their own, unread.
    env: { LD_PRELOAD: so, MALLINFO_FILE: file, MALLINFO_MS: String(sampleMs) },
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
