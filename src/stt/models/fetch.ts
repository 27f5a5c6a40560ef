import { createHash } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { HarkError, errorMessage } from '../../core/errors.js';
import { checkModelFile } from '../whisper/model-file.js';
import { DEFAULT_MODEL_BASE_URL, MODEL_CATALOG, modelFileName } from './catalog.js';

export interface FetchProgress {
  received: number;
  /** Null when neither the table nor the server says. */
  total: number | null;
  /** Bytes that were already on disk from an earlier, interrupted try. */
  resumedFrom: number;
}

export interface FetchModelOptions {
  name: string;
  dir: string;
  baseUrl?: string;
  /** Required for a model not in the pinned table; overrides the table otherwise. */
  sha256?: string;
  /** Download again even if a good copy is there. */
  force?: boolean;
  /** Give up when no byte arrives for this long (a stalled connection must not hang an install). */
  stallTimeoutMs?: number;
  onProgress?: (p: FetchProgress) => void;
}

export interface FetchModelResult {
  path: string;
  bytes: number;
  sha256: string;
  /** A verified copy was already in place: nothing was downloaded. */
  alreadyPresent: boolean;
  resumedFrom: number;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,80}$/;

/**
 * `hark model fetch`: download ggml-<name>.bin from whisper.cpp's published location into `dir`.
 * The download goes to <file>.part and is resumed with an HTTP Range request after an interruption;
 * it becomes <file> only once its size and sha256 match the pinned values (and it walks as a ggml
 * model). A checksum mismatch deletes the partial file and says so.
 */
export async function fetchModel(o: FetchModelOptions): Promise<FetchModelResult> {
  if (!NAME.test(o.name)) throw new HarkError(`"${o.name}" is not a model name (known: ${Object.keys(MODEL_CATALOG).join(', ')})`, { exitCode: 2 });
  const entry = MODEL_CATALOG[o.name];
  const sha256 = (o.sha256 ?? entry?.sha256)?.toLowerCase();
  if (!sha256) {
    throw new HarkError(
      `no pinned checksum for model "${o.name}" (pinned: ${Object.keys(MODEL_CATALOG).join(', ')}); give its sha256 with --sha256 to fetch it anyway`,
      { exitCode: 2 },
    );
  }
  if (!/^[0-9a-f]{64}$/.test(sha256)) throw new HarkError(`--sha256 must be 64 hex digits, got "${o.sha256}"`, { exitCode: 2 });
  const expectedBytes = o.sha256 && o.sha256.toLowerCase() !== entry?.sha256 ? null : (entry?.bytes ?? null);
  const file = modelFileName(o.name);
  const target = join(o.dir, file);
  const part = `${target}.part`;
  const url = `${(o.baseUrl ?? DEFAULT_MODEL_BASE_URL).replace(/\/+$/, '')}/${file}`;

  if (!o.force && existsSync(target)) {
    const have = await sha256File(target);
    if (have === sha256) return { path: target, bytes: statSync(target).size, sha256, alreadyPresent: true, resumedFrom: 0 };
    // A copy that is not the pinned file (corrupt, or another build): replace it.
  }
  try {
    mkdirSync(o.dir, { recursive: true });
  } catch (err) {
    throw new HarkError(`cannot create the models directory ${o.dir}: ${errorMessage(err)}`);
  }

  let have = existsSync(part) ? statSync(part).size : 0;
  if (o.force || (expectedBytes !== null && have > expectedBytes)) {
    rmSync(part, { force: true });
    have = 0;
  }
  const resumedFrom = await download(url, part, have, expectedBytes, o);

  const size = statSync(part).size;
  if (expectedBytes !== null && size !== expectedBytes) {
    if (size > expectedBytes) rmSync(part, { force: true });
    throw new HarkError(
      `download of ${file} ended at ${size} of ${expectedBytes} bytes; ${size < expectedBytes ? 'run the same command again to resume' : 'the partial file was deleted'}`,
    );
  }
  const got = await sha256File(part);
  if (got !== sha256) {
    rmSync(part, { force: true });
    throw new HarkError(`checksum mismatch for ${file}: expected sha256 ${sha256}, got ${got}; the partial file was deleted (${url})`);
  }
  try {
    checkModelFile(part);
  } catch (err) {
    rmSync(part, { force: true });
    throw new HarkError(`${file} matched its checksum but is not a loadable ggml model (${errorMessage(err)}); the file was deleted`);
  }
  renameSync(part, target);
  return { path: target, bytes: size, sha256, alreadyPresent: false, resumedFrom };
}

/** GET the file into `part`, appending from `have` when the server honours Range. Returns the resume offset used. */
async function download(url: string, part: string, have: number, expectedBytes: number | null, o: FetchModelOptions): Promise<number> {
  if (expectedBytes !== null && have === expectedBytes) return have; // complete already; the checksum decides
  const abort = new AbortController();
  const stallMs = o.stallTimeoutMs ?? 30_000;
  let stall = setTimeout(() => abort.abort(new Error(`no data for ${stallMs / 1000} s`)), stallMs);
  const kick = () => {
    clearTimeout(stall);
    stall = setTimeout(() => abort.abort(new Error(`no data for ${stallMs / 1000} s`)), stallMs);
  };
  let res: Response;
  try {
    res = await fetch(url, { headers: have > 0 ? { Range: `bytes=${have}-` } : {}, redirect: 'follow', signal: abort.signal });
  } catch (err) {
    clearTimeout(stall);
    throw new HarkError(
      `cannot download ${url}: ${errorMessage((err as Error & { cause?: unknown }).cause ?? err)}${have > 0 ? ' (the partial file is kept; run again to resume)' : ''}`,
    );
  }
  let offset = have;
  if (res.status === 416 && have > 0) {
    // Nothing left to send: the partial file may already be whole; the checksum will tell.
    clearTimeout(stall);
    await res.body?.cancel();
    return have;
  }
  if (res.status === 200)
    offset = 0; // the server ignored Range: start over
  else if (res.status !== 206) {
    clearTimeout(stall);
    await res.body?.cancel().catch(() => {});
    throw new HarkError(`cannot download ${url}: HTTP ${res.status} ${res.statusText}`.trim());
  }
  const total = totalSize(res, offset) ?? expectedBytes;
  const fh = await open(part, offset === 0 ? 'w' : 'a');
  let received = offset;
  o.onProgress?.({ received, total, resumedFrom: offset });
  try {
    if (!res.body) throw new Error('empty response');
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      kick();
      await fh.write(chunk);
      received += chunk.byteLength;
      if (expectedBytes !== null && received > expectedBytes) throw new Error(`the server sent more than the expected ${expectedBytes} bytes`);
      o.onProgress?.({ received, total, resumedFrom: offset });
    }
  } catch (err) {
    const why = abort.signal.aborted ? errorMessage(abort.signal.reason) : errorMessage(err);
    throw new HarkError(`download of ${url} interrupted at ${mb(received)}${total ? ` of ${mb(total)}` : ''}: ${why}; run the same command again to resume`);
  } finally {
    clearTimeout(stall);
    await fh.close();
  }
  return offset;
}

function totalSize(res: Response, offset: number): number | null {
  const range = res.headers.get('content-range');
  const m = range ? /\/(\d+)\s*$/.exec(range) : null;
  if (m) return Number(m[1]);
  const len = res.headers.get('content-length');
  return len ? offset + Number(len) : null;
}

export function mb(bytes: number): string {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}

export async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
