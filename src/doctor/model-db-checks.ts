import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { basename } from 'node:path';
import Database from 'better-sqlite3';
import { errorMessage } from '../core/errors.js';
import { MODEL_CATALOG } from '../stt/models/catalog.js';
import { checkModelFile, fetchHint, resolveModelPath } from '../stt/whisper/model-file.js';
import type { Check } from './check.js';

function sha256(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const h = createHash('sha256');
    createReadStream(path)
      .on('data', (d) => h.update(d))
      .on('error', reject)
      .on('end', () => resolve(h.digest('hex')));
  });
}

/** The Whisper model: present, a well-formed ggml file, and (for a pinned model) the right checksum. */
export const modelCheck: Check = {
  id: 'whisper-model',
  title: 'Whisper model',
  async run(ctx) {
    const stt = ctx.loaded?.config.stt;
    if (!stt) return { status: 'warn', detail: 'not checked: the config is invalid', fix: 'fix the config first' };
    if (stt.mode === 'cloud-only') return { status: 'ok', detail: 'not used (stt.mode cloud-only)' };
    const path = resolveModelPath(stt.whisper.model, stt.whisper.modelsDir);
    if (!existsSync(path)) return { status: 'fail', detail: `${path} does not exist`, fix: fetchHint(path) };
    let info;
    try {
      info = checkModelFile(path);
    } catch (err) {
      return { status: 'fail', detail: errorMessage(err), fix: `delete it and run: ${fetchHint(path)}` };
    }
    const name = /^ggml-(.+)\.bin$/.exec(basename(path))?.[1];
    const pinned = name ? MODEL_CATALOG[name] : undefined;
    if (info.empty)
      return { status: 'warn', detail: `${path} is a test model with no weights: every transcript will be empty`, fix: 'hark model fetch base.en-q5_1' };
    if (!pinned)
      return { status: 'ok', detail: `${path}: ${info.size} ${info.precision}, ${Math.round(info.bytes / 1e6)} MB (not a pinned model: checksum not checked)` };
    const sum = await sha256(path);
    if (sum !== pinned.sha256)
      return {
        status: 'fail',
        detail: `${path}: sha256 ${sum.slice(0, 12)}… is not the published ${pinned.sha256.slice(0, 12)}…`,
        fix: `delete it and run: ${fetchHint(path)}`,
      };
    return { status: 'ok', detail: `${path}: ${info.size} ${info.precision}, checksum matches` };
  },
};

/** The segment log: opens, passes SQLite's quick check. Read-only: the doctor never changes it. */
export const databaseCheck: Check = {
  id: 'database',
  title: 'segment log (SQLite)',
  async run(ctx) {
    const path = ctx.loaded?.config.store.path;
    if (!path) return { status: 'warn', detail: 'not checked: the config is invalid', fix: 'fix the config first' };
    if (!existsSync(path)) return { status: 'ok', detail: `${path} does not exist yet; hark creates it at start` };
    let db: Database.Database | null = null;
    try {
      db = new Database(path, { readonly: true, fileMustExist: true });
      const result = db.pragma('quick_check', { simple: true });
      if (result !== 'ok')
        return {
          status: 'fail',
          detail: `${path} is damaged: ${String(result)}`,
          fix: 'restart hark: it moves a corrupt file aside (kept, named with the time) and starts a fresh one',
        };
      const n = (db.prepare('SELECT COUNT(*) AS n FROM segments').get() as { n: number }).n;
      return { status: 'ok', detail: `${path}: intact, ${n} segments` };
    } catch (err) {
      return {
        status: 'fail',
        detail: `${path} cannot be read as a hark database: ${errorMessage(err)}`,
        fix: 'check its permissions (owner hark), or restart hark to set a damaged file aside',
      };
    } finally {
      db?.close();
    }
  },
};
