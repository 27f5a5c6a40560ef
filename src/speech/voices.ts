import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { HarkError } from '../core/errors.js';

export interface InstalledVoice {
  /** What `-v` takes, e.g. en-us, en-gb-scotland. */
  id: string;
  /** espeak-ng's name, e.g. English_(America), with spaces for underscores. */
  name: string;
  gender: 'M' | 'F' | '-';
  /** Voice file under espeak-ng-data/voices, e.g. gmw/en-US. */
  file: string;
}

/**
 * Reads `espeak-ng --voices`. Variants (Storm, ...) are not voices. MBROLA voices (mb/...) are
 * listed whether or not their MBROLA database is installed, and without it espeak-ng fails to speak
 * them: they are kept only when `mbrolaInstalled(file)` says so.
 */
export function parseVoiceList(text: string, mbrolaInstalled: (file: string) => boolean = () => false): InstalledVoice[] {
  const out: InstalledVoice[] = [];
  const seen = new Set<string>();
  for (const line of text.split('\n').slice(1)) {
    const m = /^\s*\d+\s+(\S+)\s+\S*\/([MF-])\s+(\S+)\s+(\S+)/.exec(line);
    if (!m) continue;
    const [, id, gender, name, file] = m as unknown as [string, string, 'M' | 'F' | '-', string, string];
    if (id === 'variant' || file.startsWith('!v/')) continue;
    if (file.startsWith('mb/') && !mbrolaInstalled(file)) continue;
    const key = `${id} ${file}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ id, name: name.replace(/_/g, ' '), gender, file });
  }
  return out;
}

/** MBROLA voice file mb/mb-us1 needs the database /usr/share/mbrola/us1. */
export function mbrolaDatabaseExists(file: string): boolean {
  const db = file.replace(/^mb\/mb-/, '');
  return existsSync(`/usr/share/mbrola/${db}`) || existsSync(`/usr/share/mbrola/${db}/${db}`);
}

/** The voices espeak-ng can speak on this machine, for the voice picker. */
export function installedVoices(opts: { bin?: string; language?: string } = {}): Promise<InstalledVoice[]> {
  const bin = opts.bin ?? 'espeak-ng';
  const args = [opts.language ? `--voices=${opts.language}` : '--voices'];
  return new Promise((resolve, reject) => {
    execFile(bin, args, { timeout: 10_000, maxBuffer: 4 * 1024 * 1024 }, (err, stdout) => {
      if (err) {
        const code = (err as NodeJS.ErrnoException).code;
        return reject(
          new HarkError(code === 'ENOENT' ? `${bin} is not installed (sudo apt-get install espeak-ng)` : `cannot list espeak-ng voices: ${err.message}`),
        );
      }
      resolve(parseVoiceList(stdout, mbrolaDatabaseExists));
    });
  });
}

/** Voice ids installed here: what `hark` offers as speech.voice and what the voice picker narrows to. */
export async function installedVoiceIds(opts: { bin?: string; language?: string } = {}): Promise<string[]> {
  return [...new Set((await installedVoices(opts)).map((v) => v.id))];
}

/** Keep the picker's entries (router.voices: {id, say}) whose voice is installed. */
export function onlyInstalled<T extends { id: string }>(specs: readonly T[], installedIds: readonly string[]): T[] {
  const have = new Set(installedIds.map((i) => i.toLowerCase()));
  return specs.filter((s) => have.has(s.id.toLowerCase()));
}
