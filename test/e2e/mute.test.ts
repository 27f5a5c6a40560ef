import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fakeMic } from '../support/fake-mic.js';
import { HarkProcess } from '../support/hark-process.js';
import { TINY_MODEL, outputDir } from '../support/paths.js';

/**
 * Privacy: holding the button for 5 s closes the microphone (the recorder process is stopped, not
 * just ignored), the LED goes dark; another 5 s hold opens it again. The press that muted is not
 * transcribed. The button is the simulated one, over the debug server's HTTP API.
 */
describe('hark run: a 5 s hold mutes and unmutes', () => {
  let hark: HarkProcess;
  let url: string;
  let micRuns: () => string[];
  const press = (state: 'down' | 'up') =>
    fetch(new URL('/api/button', url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ state }) });

  beforeAll(async () => {
    const dir = outputDir('e2e-mute');
    rmSync(dir, { recursive: true, force: true });
    const mic = fakeMic(join(dir, 'bin'), new Int16Array(16000), ['play']);
    micRuns = mic.runs;
    writeFileSync(
      join(dir, 'hark.yaml'),
      `stt:\n  mode: local-only\nspeech:\n  device: "null"\nintent:\n  enabled: false\nactions:\n  dataDir: ${JSON.stringify(dir)}\n`,
    );
    hark = new HarkProcess(['--db', join(dir, 'hark.db'), '--port', '0', '--model', TINY_MODEL], {
      ...process.env,
      PATH: `${mic.dir}:${process.env.PATH}`,
      HARK_CONFIG: join(dir, 'hark.yaml'),
    });
    url = String((await hark.waitFor((e) => e.type === 'debug.listening', 30_000, 'the debug server')).url);
    await hark.waitFor((e) => e.type === 'capture.up', 30_000, 'capture');
  }, 60_000);

  afterAll(async () => {
    hark.kill('SIGTERM');
    await hark.exited;
  });

  it('closes the microphone on a 5 s hold, and opens it on the next', async () => {
    expect((await press('down')).status).toBe(200);
    const muted = await hark.waitFor((e) => e.type === 'mute' && e.muted === true, 10_000, 'mute');
    expect(muted.by).toBe('button');
    await press('up');
    // the recorder is stopped on purpose: down with no restart, and the LED shows muted (dark)
    await hark.waitFor((e) => e.type === 'capture.down' && e.restartInMs === null, 5000, 'capture stopped');
    await hark.waitFor((e) => e.type === 'led.pattern' && e.state === 'muted', 5000, 'the LED to show muted');
    const runsWhileMuted = micRuns().length;
    await new Promise((r) => setTimeout(r, 1500));
    expect(micRuns().length).toBe(runsWhileMuted); // nothing restarts a muted microphone

    expect((await press('down')).status).toBe(200);
    await hark.waitFor((e) => e.type === 'mute' && e.muted === false, 10_000, 'unmute');
    await press('up');
    const ups = hark.of('capture.up').length;
    await hark.waitFor((e) => e.type === 'capture.up' && hark.of('capture.up').length > 1, 10_000, 'capture back up');
    expect(ups).toBeGreaterThanOrEqual(1);
    expect(micRuns().length).toBe(runsWhileMuted + 1);
  }, 60_000);

  it('does not transcribe the press that muted or unmuted', async () => {
    // each hold opened a push-to-talk segment at the press; the mute cancelled it, so handling it
    // ran no speech-to-text at all (and the store keeps it with the reason)
    const closed = hark.of('segment.closed').filter((s) => s.closeReason === 'ptt-release');
    expect(closed.length).toBeGreaterThanOrEqual(1);
    for (const s of closed) {
      const h = await hark.waitFor((x) => x.type === 'segment.handled' && x.segment === s.index, 10_000, `segment ${String(s.index)} handled`);
      expect(h).toMatchObject({ sttMs: 0, fate: 'cancelled', utterance: null });
    }
    expect(hark.of('utterance.final')).toEqual([]);
    expect(hark.of('stt.segment')).toEqual([]);
  });

  it('refuses a malformed button request with a reason', async () => {
    const r = await fetch(new URL('/api/button', url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ state: 'sideways' }),
    });
    expect(r.status).toBe(400);
    expect(((await r.json()) as { error: string }).error).toMatch(/"down" or "up"/);
  });
});
