import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HarkError } from '../../src/core/errors.js';
import { fetchModel, type FetchProgress } from '../../src/stt/models/fetch.js';
import { MODEL_CATALOG } from '../../src/stt/models/catalog.js';
import { HARK_BIN, outputDir, requireFile, TINY_MODEL } from '../support/paths.js';

const run = promisify(execFile);

/** A stand-in for Hugging Face's resolve/main endpoint on 127.0.0.1: Range support and faults on demand. */
class ModelServer {
  files = new Map<string, Buffer>();
  requests: { path: string; range: string | undefined }[] = [];
  /** Cut the connection after this many bytes of the body, once. */
  cutAfter: number | null = null;
  ignoreRange = false;
  stall = false;
  private server!: Server;

  async start(): Promise<this> {
    this.server = createServer((req, res) => this.handle(req, res));
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    return this;
  }
  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/ggerganov/whisper.cpp/resolve/main`;
  }
  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((r) => this.server.close(() => r()));
  }
  private handle(req: IncomingMessage, res: ServerResponse): void {
    const name = (req.url ?? '').split('/').pop()!;
    this.requests.push({ path: name, range: req.headers.range });
    const body = this.files.get(name);
    if (!body) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Entry not found');
      return;
    }
    let start = 0;
    const m = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    if (m && !this.ignoreRange) {
      start = Number(m[1]);
      if (start >= body.length) {
        res.writeHead(416, { 'content-range': `bytes */${body.length}` }).end();
        return;
      }
      res.writeHead(206, { 'content-length': body.length - start, 'content-range': `bytes ${start}-${body.length - 1}/${body.length}` });
    } else {
      res.writeHead(200, { 'content-length': body.length });
    }
    if (this.stall) {
      res.flushHeaders();
      return;
    }
    const slice = body.subarray(start);
    if (this.cutAfter !== null) {
      const cut = this.cutAfter;
      this.cutAfter = null;
      res.write(slice.subarray(0, cut), () => res.destroy());
      return;
    }
    res.end(slice);
  }
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
let server: ModelServer;
let model: Buffer;
const dir = outputDir('stt-model-fetch');

beforeAll(async () => {
  model = readFileSync(requireFile(TINY_MODEL));
  server = await new ModelServer().start();
  server.files.set('ggml-test.bin', model);
});
afterAll(() => server.close());
beforeEach(() => {
  rmSync(dir, { recursive: true, force: true });
  server.requests = [];
  server.cutAfter = null;
  server.ignoreRange = false;
  server.stall = false;
});

describe('hark model fetch (against a local HTTP server)', () => {
  it('downloads, reports progress, checks sha256, and puts the file in place', async () => {
    const progress: FetchProgress[] = [];
    const r = await fetchModel({ name: 'test', dir, baseUrl: server.url, sha256: sha(model), onProgress: (p) => progress.push(p) });
    expect(r).toMatchObject({ path: join(dir, 'ggml-test.bin'), bytes: model.length, alreadyPresent: false, resumedFrom: 0 });
    expect(readFileSync(r.path).equals(model)).toBe(true);
    expect(existsSync(`${r.path}.part`)).toBe(false);
    expect(progress.at(-1)).toEqual({ received: model.length, total: model.length, resumedFrom: 0 });
    expect(progress.length).toBeGreaterThan(1);
  });

  it('resumes an interrupted download with a Range request', async () => {
    server.cutAfter = 200_000;
    const first = await fetchModel({ name: 'test', dir, baseUrl: server.url, sha256: sha(model) }).catch((e: unknown) => e);
    expect(first).toBeInstanceOf(HarkError);
    expect((first as Error).message).toMatch(/interrupted at .* run the same command again to resume/);
    // The double cuts the connection after 200 000 bytes; on a loaded machine the reset can discard
    // the tail the client had not read yet (seen: 183 169). What matters: the download resumes from
    // exactly what was stored.
    const kept = statSync(join(dir, 'ggml-test.bin.part')).size;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThanOrEqual(200_000);
    const r = await fetchModel({ name: 'test', dir, baseUrl: server.url, sha256: sha(model) });
    expect(r.resumedFrom).toBe(kept);
    expect(server.requests.at(-1)!.range).toBe(`bytes=${kept}-`);
    expect(readFileSync(r.path).equals(model)).toBe(true);
  });

  it('starts over when the server ignores Range', async () => {
    writeFileSync(join(outputDir('stt-model-fetch'), 'ggml-test.bin.part'), model.subarray(0, 1000));
    server.ignoreRange = true;
    const r = await fetchModel({ name: 'test', dir, baseUrl: server.url, sha256: sha(model) });
    expect(r.resumedFrom).toBe(0);
    expect(readFileSync(r.path).equals(model)).toBe(true);
  });

  it('a bad checksum deletes the partial file and says so', async () => {
    const wrong = 'ab'.repeat(32);
    const err = await fetchModel({ name: 'test', dir, baseUrl: server.url, sha256: wrong }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HarkError);
    expect((err as Error).message).toBe(
      `checksum mismatch for ggml-test.bin: expected sha256 ${wrong}, got ${sha(model)}; the partial file was deleted (${server.url}/ggml-test.bin)`,
    );
    expect(existsSync(join(dir, 'ggml-test.bin.part'))).toBe(false);
    expect(existsSync(join(dir, 'ggml-test.bin'))).toBe(false);
  });

  it('a pinned model is held to the pinned size and sha256: the wrong bytes never land', async () => {
    server.files.set('ggml-tiny.en-q5_1.bin', model);
    const err = await fetchModel({ name: 'tiny.en-q5_1', dir, baseUrl: server.url }).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/ended at 586836 of 32166155 bytes/);
    expect(MODEL_CATALOG['tiny.en-q5_1']!.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('the multilingual models are pinned too: the wrong bytes for base-q5_1 never land', async () => {
    server.files.set('ggml-base-q5_1.bin', model);
    const err = await fetchModel({ name: 'base-q5_1', dir, baseUrl: server.url }).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/ended at 586836 of 59707625 bytes/);
    expect(MODEL_CATALOG['tiny-q5_1']).toMatchObject({ bytes: 32_152_673, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
  });

  it('a model without a pinned checksum needs --sha256', async () => {
    const err = await fetchModel({ name: 'large-v3', dir, baseUrl: server.url }).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/no pinned checksum for model "large-v3".*--sha256/);
    expect(server.requests).toHaveLength(0);
  });

  it('HTTP errors and a stalled server are reported, bounded in time', async () => {
    const e404 = await fetchModel({ name: 'nope', dir, baseUrl: server.url, sha256: sha(model) }).catch((e: unknown) => e);
    expect((e404 as Error).message).toMatch(/HTTP 404/);
    server.stall = true;
    const started = Date.now();
    const stalled = await fetchModel({ name: 'test', dir, baseUrl: server.url, sha256: sha(model), stallTimeoutMs: 300 }).catch((e: unknown) => e);
    expect((stalled as Error).message).toMatch(/no data for 0.3 s/);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('a verified copy already in place is not downloaded again', async () => {
    await fetchModel({ name: 'test', dir, baseUrl: server.url, sha256: sha(model) });
    const n = server.requests.length;
    const r = await fetchModel({ name: 'test', dir, baseUrl: server.url, sha256: sha(model) });
    expect(r.alreadyPresent).toBe(true);
    expect(server.requests.length).toBe(n);
  });

  it('the CLI (and scripts/fetch-model.sh) fetch with a progress report', async () => {
    const env = { ...process.env, HARK_MODEL_BASE_URL: server.url };
    const { stdout, stderr } = await run('bash', ['scripts/fetch-model.sh', 'test', '--dir', dir, '--sha256', sha(model)], { env, timeout: 30_000 });
    expect(stdout).toMatch(new RegExp(`${dir}/ggml-test.bin: downloaded, 0.6 MB, sha256 ${sha(model)} verified`));
    expect(stderr).toMatch(/ggml-test\.bin: 100% 0\.6 MB of 0\.6 MB/);
    const bad = await run(process.execPath, [HARK_BIN, 'model', 'fetch', 'test', '--dir', dir, '--sha256', 'cd'.repeat(32), '--force'], {
      env,
      timeout: 30_000,
    }).catch((e: unknown) => e as { code: number; stderr: string });
    expect((bad as { code: number }).code).toBe(1);
    expect((bad as { stderr: string }).stderr).toMatch(/^hark: checksum mismatch for ggml-test\.bin.*the partial file was deleted/m);
  });
});
