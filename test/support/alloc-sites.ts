import { execFileSync } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync, readSync } from 'node:fs';
import { basename, join } from 'node:path';
import { buildPreload } from './soak-measure.js';

/*
 * test/support/alloc-sites.c built for a soak (SOAK_SITES=1) and read back: which call stacks hold
 * the native memory hark keeps, dump after dump.
 */

/** The profiler keeps one block in this many (alloc-sites.c's SAMPLE): a site's bytes are scaled by it. */
const SAMPLE = 16;

export interface SiteDump {
  t: number;
  sites: { count: number; bytes: number; frames: string[] }[];
  maps: { lo: number; hi: number; offset: number; path: string }[];
}

/** One dump file of alloc-sites.c (pure). */
export function parseSiteDump(text: string): SiteDump {
  const dump: SiteDump = { t: 0, sites: [], maps: [] };
  for (const line of text.split('\n')) {
    const f = line.split(/\s+/);
    if (f[0] === 'T') dump.t = Number(f[1]);
    else if (f[0] === 'S') dump.sites.push({ count: Number(f[1]), bytes: Number(f[2]), frames: f.slice(3) });
    else if (f[0] === 'M' && f.length >= 7) {
      const [lo, hi] = f[1]!.split('-').map((x) => parseInt(x, 16));
      dump.maps.push({ lo: lo!, hi: hi!, offset: parseInt(f[3]!, 16), path: f[6]! });
    }
  }
  return dump;
}

/**
 * Per dump, the estimated live bytes in ArrayBuffer backing stores (V8 frees them when it collects
 * their buffers, so they rise and fall) and in everything else; and the stacks whose live bytes grew
 * most (if any did) from dump `from` to the last, by their first six frames (pure).
 */
export function siteSeries(dumps: SiteDump[], isBackingStore: (frame: string) => boolean, from: number) {
  const key = (frames: string[]) => frames.slice(0, 6).join(' ');
  const bySite = dumps.map((d) => {
    const m = new Map<string, number>();
    for (const s of d.sites) m.set(key(s.frames), (m.get(key(s.frames)) ?? 0) + s.bytes * SAMPLE);
    return m;
  });
  const series = dumps.map((d) => {
    let backing = 0;
    let other = 0;
    for (const s of d.sites) isBackingStore(s.frames[0] ?? '') ? (backing += s.bytes) : (other += s.bytes);
    return { t: d.t, arrayBufferMb: mbOf(backing * SAMPLE), otherMb: mbOf(other * SAMPLE) };
  });
  const first = bySite[from] ?? new Map<string, number>();
  const last = bySite[bySite.length - 1] ?? new Map<string, number>();
  const growth = [...new Set([...first.keys(), ...last.keys()])]
    .filter((k) => !isBackingStore(k.split(' ')[0] ?? ''))
    .map((k) => ({ k, mb: mbOf((last.get(k) ?? 0) - (first.get(k) ?? 0)) }))
    .filter((g) => g.mb > 0)
    .sort((a, b) => b.mb - a.mb)
    .slice(0, 6)
    .map(({ k, mb }) => ({ mb, frames: k.split(' ') }));
  return { series, growth };
}

/** The ELF file is an executable loaded at its own addresses (e_type ET_EXEC), not position-independent. */
function fixedAddress(path: string): boolean {
  const head = Buffer.alloc(18);
  try {
    const fd = openSync(path, 'r');
    readSync(fd, head, 0, 18, 0);
    closeSync(fd);
  } catch {
    return false;
  }
  return head.readUInt16LE(16) === 2;
}

const mbOf = (bytes: number) => Math.round(bytes / 104857.6) / 10;

/** The profiler built into `dir` (where a C compiler is at hand; else null), its environment, and its dumps of one process. */
export function allocSitesProbe(dir: string, everyMs: number): { so: string; env: Record<string, string>; read(pid: number): SiteDump[] } | null {
  const so = buildPreload(dir, 'alloc-sites', 'allocation sites');
  if (!so) return null;
  const file = join(dir, 'alloc-sites');
  return {
    so,
    env: { ALLOC_SITES_FILE: file, ALLOC_SITES_MS: String(everyMs) },
    read: (pid) =>
      readdirSync(dir)
        .filter((f) => f.startsWith(`${basename(file)}.${pid}.`))
        .sort()
        .map((f) => parseSiteDump(readFileSync(join(dir, f), 'utf8'))),
  };
}

/**
 * Function names for return addresses, by addr2line, one call per file. A file that is not
 * position-independent (ELF type EXEC: Debian's x86-64 node) is named by the address itself; a
 * library or a PIE executable by the offset into its file. An address addr2line cannot name keeps its
 * file's name.
 */
export function symbolize(frames: string[], maps: SiteDump['maps']): Map<string, string> {
  const names = new Map<string, string>();
  const byFile = new Map<string, { frame: string; at: number }[]>();
  const fixed = new Map<string, boolean>();
  for (const frame of new Set(frames)) {
    const x = parseInt(frame, 16);
    const m = maps.find((m) => x >= m.lo && x < m.hi);
    if (!m) continue;
    if (!fixed.has(m.path)) fixed.set(m.path, fixedAddress(m.path));
    const at = fixed.get(m.path) ? x : x - m.lo + m.offset;
    byFile.set(m.path, [...(byFile.get(m.path) ?? []), { frame, at }]);
  }
  for (const [path, list] of byFile) {
    let out: string[] = [];
    try {
      // at - 1: a return address points after the call; the call's own line is the one wanted.
      out = execFileSync('addr2line', ['-f', '-C', '-e', path, ...list.map((l) => `0x${(l.at - 1).toString(16)}`)], {
        encoding: 'utf8',
        maxBuffer: 64 << 20,
        timeout: 300_000,
      }).split('\n');
    } catch {
      /* no addr2line or no symbols: the file's name is all there is */
    }
    list.forEach((l, i) => names.set(l.frame, `${basename(path)}:${(out[2 * i] ?? '??').slice(0, 100)}`));
  }
  return names;
}
