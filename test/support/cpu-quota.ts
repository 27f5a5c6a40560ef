import { existsSync, mkdirSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A CPU quota of `pct` % of one core for one process, as a cgroup v1 `cpu` group (root only; this
 * machine has cgroup v1). A Pi 4 is several times slower than this machine per core: 25 % of one of
 * its cores makes Whisper slower than real time, which is the case a benchmark wants to show.
 * null, with the reason printed, where no such group can be made.
 */
export function cpuQuota(name: string, pct: number): { add(pid: number): void; remove(): void } | null {
  const dir = `/sys/fs/cgroup/cpu/${name}`;
  try {
    if (!existsSync(dir)) mkdirSync(dir);
    writeFileSync(join(dir, 'cpu.cfs_period_us'), '100000');
    writeFileSync(join(dir, 'cpu.cfs_quota_us'), String(Math.round(pct * 1000)));
  } catch (err) {
    console.warn(`no cgroup v1 CPU quota here (${(err as Error).message})`);
    return null;
  }
  return {
    add: (pid) => writeFileSync(join(dir, 'cgroup.procs'), String(pid)),
    remove: () => {
      try {
        rmdirSync(dir);
      } catch (err) {
        console.warn(`could not remove ${dir}: ${(err as Error).message}`);
      }
    },
  };
}
