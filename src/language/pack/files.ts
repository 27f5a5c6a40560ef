import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readPack, type Pack } from './load.js';

/**
 * The edge of the packs: their folder on disk, read once at start. The packs ship beside the code
 * (packs/<lang>/, copied with the rest of the tree by the installer), found from this file whether
 * it runs from src/ or dist/.
 */
export const PACKS_DIR = fileURLToPath(new URL('../../../packs/', import.meta.url));

/** The languages that have a pack. */
export function packLanguages(dir = PACKS_DIR): string[] {
  return existsSync(dir)
    ? readdirSync(dir, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => d.name)
        .sort()
    : [];
}

/** Read packs/<language>/ (and the pack it falls back on); a PackError names the file and path of every problem. */
export function loadPack(language: string, dir = PACKS_DIR, seen: readonly string[] = []): Pack {
  if (seen.includes(language)) throw new Error(`packs fall back on each other: ${[...seen, language].join(' → ')}`);
  const folder = join(dir, language);
  const where = relative(process.cwd(), folder) || folder;
  if (!existsSync(folder)) throw new Error(`no language pack "${language}" in ${dir} (packs: ${packLanguages(dir).join(', ') || 'none'})`);
  const files = new Map<string, string>();
  for (const f of readdirSync(folder)) if (f.endsWith('.yaml')) files.set(f, readFileSync(join(folder, f), 'utf8'));
  return readPack(files, where, language, (l) => loadPack(l, dir, [...seen, language]));
}
