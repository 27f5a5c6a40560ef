import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allocSitesProbe, siteSeries, symbolize } from './alloc-sites.js';
import { outputDir } from './paths.js';

/**
 * The soak's heap profiler (alloc-sites.c) must tell memory kept from memory freed, or it reports a
 * leak where there is none: a C program keeps 2,000 blocks of 1,000 bytes from one function and
 * allocates, reallocates and frees 200,000 from another, through the profiler, and the dump shows
 * the first function's 2 MB (sampled: within a third) and next to nothing from the second.
 */
const PROGRAM = `
#include <stdlib.h>
#include <unistd.h>
static void *kept[2000];
__attribute__((noinline)) void keep(void) { for (int i = 0; i < 2000; i++) kept[i] = malloc(1000); }
__attribute__((noinline)) void churn(void) {
  static void *ring[64];
  for (int i = 0; i < 200000; i++) { int k = i % 64; free(ring[k]); ring[k] = realloc(malloc(300), 1000); }
  for (int k = 0; k < 64; k++) free(ring[k]);
}
int main(void) { keep(); churn(); usleep(700000); return kept[0] == 0; }
`;

describe('the allocation-site profiler', () => {
  it('finds the blocks a function keeps and not the ones another frees', () => {
    const dir = outputDir('alloc-sites');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const probe = allocSitesProbe(dir, 300);
    if (!probe) throw new Error('no C compiler: the profiler cannot be built');
    writeFileSync(join(dir, 'program.c'), PROGRAM);
    const exe = join(dir, 'program');
    execFileSync('cc', ['-O1', '-g', '-o', exe, join(dir, 'program.c')]);
    const run = spawnSync(exe, [], { env: { ...process.env, ...probe.env, LD_PRELOAD: probe.so }, timeout: 10_000 });
    expect(run.status).toBe(0);
    const dumps = probe.read(run.pid!);
    expect(dumps.length).toBeGreaterThan(0);
    const last = dumps[dumps.length - 1]!;
    const names = symbolize(
      last.sites.map((x) => x.frames[0] ?? ''),
      last.maps,
    );
    const from = (fn: string) => (frame: string) => (names.get(frame) ?? '').endsWith(`:${fn}`);
    // siteSeries's split, with "keep" standing where ArrayBuffer backing stores stand in a soak.
    const kept = siteSeries([last], from('keep'), 0).series[0]!;
    expect(kept.arrayBufferMb).toBeGreaterThan(1.9 * 0.67);
    expect(kept.arrayBufferMb).toBeLessThan(1.9 * 1.33);
    const churned = siteSeries([last], from('churn'), 0).series[0]!;
    expect(churned.arrayBufferMb).toBeLessThan(0.05);
  });
});
