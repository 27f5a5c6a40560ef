import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { openDatabase } from '../../src/store/open.js';
import { validateConfig } from '../../src/config/load.js';
import { pickingCheck } from '../../src/doctor/picking.js';
import type { DoctorContext } from '../../src/doctor/check.js';
import { checkAssignment, type Assignment } from '../../src/picking/assignment.js';
import { SqliteLedger } from '../../src/picking/sqlite-ledger.js';
import { assignment, scratch } from './sim.js';

/** `hark doctor` on the picking outbox of a real store file: none waiting, some waiting long, past the bound. */
function ctx(path: string, picking: Record<string, unknown>): DoctorContext {
  const config = validateConfig({ store: { path }, picking }, 'test');
  return { loaded: { config, path: null } as never, configError: null, env: {}, exec: async () => ({ code: 0, stdout: '', stderr: '' }) };
}

function withPicks(n: number, ageMs: number): string {
  const path = join(scratch('doctor'), 'hark.db');
  const { db } = openDatabase(path, { recoverCorrupt: false });
  const ledger = new SqliteLedger(db, 'dock-1', () => Date.now() - ageMs);
  const a = (checkAssignment(assignment('A', n)) as { value: Assignment }).value;
  ledger.add(a);
  for (const pick of a.picks) ledger.confirm({ assignment: a, pick, operator: '12', picked: pick.quantity, utteranceId: 'u' });
  db.close();
  return path;
}

describe('hark doctor: voice picking', () => {
  it('is fine when picking is off', async () => {
    expect(await pickingCheck.run(ctx('/nonexistent/hark.db', {}))).toMatchObject({ status: 'ok', detail: 'not used (picking.enabled is false)' });
  });

  it('warns when results have waited a minute, naming where they should go', async () => {
    const r = await pickingCheck.run(ctx(withPicks(3, 120_000), { enabled: true, wms: { url: 'http://wms.example:8080/results' } }));
    expect(r.status).toBe('warn');
    expect(r.detail).toMatch(/^3 results waiting, the oldest for 1[12]\d s$/);
    expect(r.fix).toContain('http://wms.example:8080/results');
  });

  it('fails at picking.wms.queueMax results waiting; none is dropped', async () => {
    const r = await pickingCheck.run(ctx(withPicks(12, 0), { enabled: true, wms: { url: 'http://wms.example/results', queueMax: 10 } }));
    expect(r).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining('12 results waiting (picking.wms.queueMax 10)'),
      fix: expect.stringContaining('none is dropped'),
    });
  });

  it('results kept with no warehouse system configured: says so', async () => {
    const r = await pickingCheck.run(ctx(withPicks(2, 0), { enabled: true }));
    expect(r).toMatchObject({ status: 'warn', detail: '2 results kept, none sent: no warehouse system is configured' });
  });
});
