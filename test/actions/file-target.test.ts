import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileTarget } from '../../src/command/actions/targets/file.js';
import { DeliveryError } from '../../src/command/actions/targets/target.js';

const fixedNow = () => new Date('2025-01-02T03:04:05.000Z');

describe('file target', () => {
  it('appends one JSON line per delivery, creating the directory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hark-file-target-'));
    const path = join(dir, 'nested', 'submissions.jsonl');
    const t = new FileTarget('file', path, fixedNow);
    await t.deliver({ kind: 'submit', atMs: 5000, frame: 'query', text: 'soup of the day', utteranceIds: ['u1'] });
    await t.deliver({ kind: 'action', atMs: 6000, action: 'timer.done', args: { seconds: 60 } });
    const lines = readFileSync(path, 'utf8').split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((l) => JSON.parse(l))).toEqual([
      { target: 'file', writtenAt: '2025-01-02T03:04:05.000Z', kind: 'submit', atMs: 5000, frame: 'query', text: 'soup of the day', utteranceIds: ['u1'] },
      { target: 'file', writtenAt: '2025-01-02T03:04:05.000Z', kind: 'action', atMs: 6000, action: 'timer.done', args: { seconds: 60 } },
    ]);
  });

  it('keeps what is already in the file and never interleaves concurrent writes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hark-file-target-'));
    const path = join(dir, 'inventory.jsonl');
    writeFileSync(path, '{"old":true}\n');
    const t = new FileTarget('inventory', path, fixedNow);
    const long = 'x'.repeat(100_000);
    await Promise.all(Array.from({ length: 20 }, (_, i) => t.deliver({ kind: 'submit', atMs: i, text: `${i} ${long}` })));
    const lines = readFileSync(path, 'utf8').trim().split('\n');
    expect(lines[0]).toBe('{"old":true}');
    expect(lines.slice(1).map((l) => JSON.parse(l).atMs)).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });

  it('rejects with a clear error when it cannot write, and recovers for later deliveries', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hark-file-target-'));
    const blocker = join(dir, 'not-a-dir');
    writeFileSync(blocker, 'file in the way');
    const t = new FileTarget('file', join(blocker, 'x.jsonl'));
    await expect(t.deliver({ kind: 'submit', atMs: 0, text: 'a' })).rejects.toThrow(DeliveryError);
    await expect(t.deliver({ kind: 'submit', atMs: 0, text: 'a' })).rejects.toThrow(/cannot append to .*not-a-dir\/x\.jsonl/);
  });
});
