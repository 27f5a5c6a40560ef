import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Store } from '../../src/store/store.js';
import { cardPair } from '../../src/store/echo-skew.js';
import { HARK_BIN, outputDir } from '../support/paths.js';

const run = promisify(execFile);

/** `hark doctor --json`'s clocks check, on a config with the given store and cards. */
async function clocksCheck(dir: string, db: string, speech = 'plughw:CARD=Headphones,DEV=0') {
  const cfg = join(dir, 'hark.yaml');
  writeFileSync(cfg, `echo:\n  mode: cancel\ncapture:\n  device: plughw:CARD=Mic,DEV=0\nspeech:\n  device: ${speech}\nstore:\n  path: ${JSON.stringify(db)}\n`);
  const r = (await run(process.execPath, [HARK_BIN, 'doctor', '--json', '--config', cfg]).catch((e) => e)) as { stdout: string };
  return (JSON.parse(r.stdout) as { checks: { id: string; status: string; detail: string; fix?: string }[] }).checks.find((c) => c.id === 'clocks')!;
}

describe("hark doctor: the speaker's clock", () => {
  const dir = outputDir('doctor-clocks');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });

  it('warns with the command to measure it until these cards have been measured; then says what was found', async () => {
    const db = join(dir, 'hark.db');
    const none = await clocksCheck(dir, db);
    expect(none.status).toBe('warn');
    expect(none.detail).toMatch(/not measured on these cards/);
    expect(none.fix).toMatch(/hark\.js clocks/);

    const store = new Store({ path: db, housekeeping: null });
    store.echoSkew().save(cardPair('plughw:CARD=Mic,DEV=0', 'plughw:CARD=Headphones,DEV=0'), 87.412, 0.61);
    store.echoSkew().save(cardPair('plughw:CARD=Mic,DEV=0', 'plughw:CARD=vc4hdmi0,DEV=0'), 0.04, 0.03);
    store.close();
    const kept = await clocksCheck(dir, db);
    expect(kept.status).toBe('ok');
    expect(kept.detail).toMatch(/^87\.41 ppm \(± 0\.61\) off the microphone's/);
    const one = await clocksCheck(dir, db, 'plughw:CARD=vc4hdmi0,DEV=0');
    expect(one.status).toBe('ok');
    expect(one.detail).toMatch(/one clock/);
    // Another speaker is another crystal: not measured.
    expect((await clocksCheck(dir, db, 'plughw:CARD=Device,DEV=0')).status).toBe('warn');
  }, 120_000);
});
