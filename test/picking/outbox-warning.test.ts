import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HARK_BIN } from '../support/paths.js';
import { assignment, events, pickOf, replies, scratch, type Line } from './sim.js';
import { WmsDouble } from './wms-double.js';

/**
 * The warehouse system away for longer than the outbox's bound: the picker hears it, once, in the
 * picking frame, and keeps picking; nothing is lost. `hark simulate --live-wms` with the WMS double
 * down (its port refusing connections), then up for a second run on the same ledger. Bounded: 13
 * picks, each run with a 30 s timeout and the drain at most 5 s.
 */
const N = 13;
let wms: WmsDouble;
beforeAll(async () => {
  wms = await new WmsDouble().start();
});
afterAll(() => wms.close());

function run(dir: string, said: string[], files: string[], drainMs: number): Promise<Line[]> {
  writeFileSync(
    join(dir, 'hark.yaml'),
    `picking:\n  enabled: true\n  wms:\n    url: ${wms.url}\n    holdMs: 0\n    retryFirstMs: 50\n    retryMaxMs: 200\n    timeoutMs: 500\n    queueMax: 10\n`,
  );
  const input = said.map((text, i) => JSON.stringify({ text, atMs: (i + 1) * 6000 })).join('\n') + '\n';
  const args = [
    HARK_BIN,
    'simulate',
    '-c',
    join(dir, 'hark.yaml'),
    '--out-dir',
    join(dir, 'out'),
    '--drain-ms',
    '0',
    '--live-wms',
    '--wms-drain-ms',
    String(drainMs),
    ...files.flatMap((f) => ['--assignment', f]),
  ];
  return new Promise((resolve, reject) => {
    const child = execFile(process.execPath, args, { timeout: 30_000, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err && typeof err.code !== 'number') return reject(new Error(`${err.message}\n${stderr}`));
      resolve(
        stdout
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as Line),
      );
    });
    child.stdin!.end(input);
  });
}

describe('the outbox over its bound, said aloud', () => {
  it('with the WMS down, the 11th result kept (queueMax 10) is warned of once, before the next location; all are delivered when it is back', async () => {
    const dir = scratch('outbox-over');
    const file = join(dir, 'a.json');
    writeFileSync(file, JSON.stringify(assignment('W1', N)));
    const said = ['sign on', 'one two'];
    for (let i = 1; i <= N; i++) said.push(pickOf(i).check, String(pickOf(i).quantity));
    said.splice(2 + 2 * 11, 0, 'say again');
    await wms.down();
    const down = await run(dir, said, [file], 0);
    expect(events(down, 'confirmed')).toHaveLength(N);
    expect(events(down, 'outbox-over')).toEqual([expect.objectContaining({ pending: 11, max: 10 })]);
    const r = replies(down);
    const warned = r.findIndex((lines) => lines.some((t) => t.startsWith('Warning')));
    // The reply to pick 11's quantity: the warning, then the location of pick 12.
    expect(warned).toBe(2 + 2 * 11 - 1);
    expect(r[warned]).toEqual(['Warning: the warehouse system is not taking picks. 11 picks waiting. They are kept; go on picking.', 'Aisle 12, slot 22.']);
    // "say again" after it repeats the step, not the warning; no warning at picks 12 and 13.
    expect(r[warned + 1]).toEqual(['Aisle 12, slot 22.']);
    expect(r.flat().filter((t) => t.startsWith('Warning'))).toHaveLength(1);
    expect(down.at(-2)).toMatchObject({ type: 'picking-outbox', pending: N, sent: 0 });
    expect(wms.kept).toHaveLength(0);

    await wms.up();
    const back = await run(dir, [], [], 5000);
    expect(back.at(-2)).toMatchObject({ type: 'picking-outbox', pending: 0, sent: N });
    expect(wms.kept.map((d) => d.id)).toEqual(Array.from({ length: N }, (_, i) => `W1/P${i + 1}`));
    expect(back.filter((l) => l.type === 'speak' && String(l.text).startsWith('Warning'))).toHaveLength(0);
  }, 60_000);
});
