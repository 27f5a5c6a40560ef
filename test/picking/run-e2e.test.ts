import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { writeWavFile } from '../../src/audio/wav.js';
import { pickingDay } from '../../src/picking/stats.js';
import { DeepgramDouble } from '../support/deepgram-server.js';
import { HarkProcess } from '../support/hark-process.js';
import { outputDir } from '../support/paths.js';
import { scene } from '../support/speech.js';
import { assignment, pickOf } from './sim.js';
import { WmsDouble } from './wms-double.js';

/**
 * A real `hark run --input` on a picker's replies spoken by espeak-ng, heard through the Deepgram
 * double at its live cadence: the assignment comes in over the device's HTTP API, and every pick is
 * confirmed to the warehouse double with the right quantity. Bounded: one recording of about a
 * minute, every wait with a deadline, the process killed in afterAll.
 */
const N = 10;
const DIGIT = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];
const spell = (s: string) =>
  s
    .split('')
    .map((d) => DIGIT[Number(d)])
    .join(' ');

describe('hark run: a 10-pick assignment spoken by a picker', () => {
  const root = outputDir('e2e-picking');
  let wms: WmsDouble;
  let deepgram: DeepgramDouble;
  let hark: HarkProcess;
  let refused: { status: number; body: Record<string, unknown> };
  let view: { operator: string | null; today: { picks: number; recent: { id: string; segmentId: number | null; utteranceId: string | null }[] } } | null = null;
  const replies: string[] = ['sign on', 'one two'];
  for (let i = 1; i <= N; i++) replies.push(spell(pickOf(i).check), DIGIT[pickOf(i).quantity]!);

  beforeAll(async () => {
    rmSync(root, { recursive: true, force: true });
    mkdirSync(root, { recursive: true });
    wms = await new WmsDouble().start();
    deepgram = await DeepgramDouble.start({ apiKey: 'e2e-key' });
    deepgram.cadence = 'live';
    deepgram.script = replies.map((text) => ({ text }));
    // Each reply after the prompt it answers has had time to be said (the first location is the longest).
    const parts: (string | number)[] = [1500];
    replies.forEach((r, i) => parts.push(r, i === 1 ? 5000 : 2600));
    const s = await scene(parts, { kind: 'pinknoise', amplitude: 0.003 });
    const wav = join(root, 'picker.wav');
    await writeWavFile(wav, s.pcm);
    const config = join(root, 'hark.yaml');
    writeFileSync(
      config,
      `speech:\n  device: "null"\nintent:\n  enabled: false\npicking:\n  enabled: true\n  wms:\n    url: ${wms.url}\n    holdMs: 0\n    retryFirstMs: 100\n`,
    );
    hark = new HarkProcess(
      ['--db', join(root, 'hark.db'), '--port', '0', '--stt-mode', 'cloud-only', '--deepgram-url', deepgram.url, '--input', wav, '--exit-at-end'],
      {
        ...process.env,
        DEEPGRAM_API_KEY: 'e2e-key',
        HARK_CONFIG: config,
      },
    );
    const ready = await hark.waitFor((e) => e.type === 'daemon.ready', 30_000, 'hark to start');
    expect(ready).toBeDefined();
    const listening = await hark.waitFor((e) => e.type === 'debug.listening', 5_000, 'the debug server');
    const base = String(listening.url);
    const post = async (body: unknown) => {
      const res = await fetch(`${base}api/picking/assignments`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const bad = assignment('BAD', 2) as { picks: { quantity: number }[] };
    bad.picks[1]!.quantity = 0;
    refused = await post(bad);
    expect((await post(assignment('A10', N))).status).toBe(201);
    // The supervisor's view while the picker works (the last one read before hark ends).
    let done = false;
    void hark.exited.then(() => (done = true));
    void (async () => {
      while (!done) {
        try {
          const res = await fetch(`${base}api/picking`);
          if (res.ok) view = (await res.json()) as typeof view;
        } catch {
          /* hark is ending */
        }
        await new Promise((r) => setTimeout(r, 1500));
      }
    })();
    const exit = await Promise.race([
      hark.exited,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`hark did not finish; stderr:\n${hark.stderr.slice(-20).join('\n')}`)), 150_000)),
    ]);
    expect(exit.code).toBe(0);
  }, 200_000);

  afterAll(async () => {
    hark?.kill('SIGKILL');
    await deepgram?.close();
    await wms?.close();
  });

  it('a malformed assignment over HTTP is refused with the field named', () => {
    expect(refused.status).toBe(422);
    expect(refused.body.problems).toContain('picks.1.quantity: must be at least 1');
  });

  it('one utterance per spoken reply, and every pick confirmed to the warehouse with its quantity, in order', () => {
    const heard = hark.of('segment.handled').length;
    expect(heard, hark.stderr.slice(-20).join('\n')).toBe(replies.length);
    expect(wms.kept.map((d) => [d.id, d.body.picked])).toEqual(Array.from({ length: N }, (_, k) => [`A10/P${k + 1}`, pickOf(k + 1).quantity]));
    const said = hark.of('speak').map((e) => String(e.text));
    expect(said.some((t) => t.startsWith('Assignment complete'))).toBe(true);
  });

  it("the debug API shows the operator's day, each pick beside the segment that confirmed it", () => {
    expect(view?.operator).toBe('12');
    expect(view!.today.picks).toBeGreaterThan(0);
    for (const p of view!.today.recent) expect(p.segmentId, JSON.stringify(p)).toEqual(expect.any(Number));
    const db = new Database(join(root, 'hark.db'), { readonly: true });
    try {
      const day = pickingDay(db, 0);
      expect(day.picks).toBe(N);
      expect(day.recent.map((p) => p.segmentId).every((id) => typeof id === 'number')).toBe(true);
    } finally {
      db.close();
    }
  });
});
