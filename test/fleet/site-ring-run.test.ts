import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeWavFile } from '../../src/audio/wav.js';
import { DeepgramDouble } from '../support/deepgram-server.js';
import { HarkProcess } from '../support/hark-process.js';
import { outputDir } from '../support/paths.js';
import { Mosquitto, Recorder } from './mosquitto.js';

/**
 * The area ring through the daemon: two real `hark run` processes (cloud-only against Deepgram
 * doubles, playing to ALSA's null device) of one kitchen on a real Mosquitto. The fryer timer set on
 * the device at the back rings at the pass too, and "stop" at the pass stops it at the back. Bounded:
 * every wait has a deadline, both processes are killed in afterAll.
 */
function device(name: string, root: string, wav: string, deepgram: DeepgramDouble, brokerUrl: string): HarkProcess {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  const config = join(dir, 'hark.yaml');
  writeFileSync(
    config,
    [
      `actions:\n  dataDir: ${JSON.stringify(dir)}`,
      'speech:\n  device: "null"',
      'device:\n  area: kitchen',
      `mqtt:\n  url: ${JSON.stringify(brokerUrl)}\n  device: ${name}\n  ringOnByName:\n    fryer: area`,
    ].join('\n') + '\n',
  );
  // No --exit-at-end: after the recording hark keeps running, as a device does.
  return new HarkProcess(['--db', join(dir, 'hark.db'), '--port', '0', '--stt-mode', 'cloud-only', '--deepgram-url', deepgram.url, '--input', wav], {
    ...process.env,
    DEEPGRAM_API_KEY: 'e2e-key',
    HARK_CONFIG: config,
  });
}

describe('a fryer timer rung for the kitchen, by two hark daemons', () => {
  const root = outputDir('site-ring-run');
  let broker: Mosquitto;
  let rec: Recorder;
  let back: HarkProcess;
  let pass: HarkProcess;
  const doubles: DeepgramDouble[] = [];

  beforeAll(async () => {
    rmSync(root, { recursive: true, force: true });
    mkdirSync(root, { recursive: true });
    broker = await Mosquitto.start(join(root, 'broker'));
    rec = await Recorder.connect(broker.url, ['hark/#']);
    const wav = join(root, 'quiet.wav');
    await writeWavFile(wav, new Int16Array(16000));
    for (let i = 0; i < 2; i++) doubles.push(await DeepgramDouble.start({ apiKey: 'e2e-key' }));
    back = device('back', root, wav, doubles[0]!, broker.url);
    pass = device('pass', root, wav, doubles[1]!, broker.url);
    for (const name of ['back', 'pass']) await rec.waitFor((m) => m.topic === `hark/${name}/availability` && m.text === 'online', 30_000, `${name} online`);
    await Promise.all([back.waitFor((e) => e.type === 'input.end', 30_000, 'input end'), pass.waitFor((e) => e.type === 'input.end', 30_000, 'input end')]);
  }, 60_000);

  afterAll(async () => {
    back?.kill('SIGKILL');
    pass?.kill('SIGKILL');
    for (const d of doubles) await d.close();
    await rec?.close();
    await broker?.stop();
  });

  it('rings at the pass by name, louder than the voice; "stop" at the pass stops it at the back within a second, recorded once there', async () => {
    await rec.client.publishAsync('hark/back/cmd/timer', '{"action": "set", "seconds": 2, "label": "fryer"}', { qos: 1 });
    const done = (e: { type: string; event?: unknown; from?: unknown }) => e.type === 'timer' && e.event === 'done';
    await back.waitFor(done, 10_000, 'the fryer timer due at the back');
    const guest = await pass.waitFor((e) => done(e) && (e.from as { device?: string } | undefined)?.device === 'back', 5000, 'the fryer ringing at the pass');
    expect(guest).toMatchObject({ label: 'fryer' });
    // Its name, at the ring's level (a quiet recording: the quiet-room level), through the pass's aplay.
    const said = await pass.waitFor((e) => e.type === 'speak.start' && e.text === 'Fryer timer done.', 5000, 'the name said at the pass');
    expect(said.gainDb).toBe(4);
    await rec.waitFor((m) => m.topic === 'hark/pass/state/led' && m.text.includes('"ringing"'), 5000, 'the ringing LED at the pass');
    expect(JSON.parse(rec.on('hark/back/state/ringing').at(-1)!.text)).toMatchObject({
      device: 'back',
      ringing: [{ label: 'fryer', scope: 'area', area: 'kitchen' }],
    });

    const t0 = Date.now();
    await rec.client.publishAsync('hark/pass/cmd/utterance', '{"text": "stop"}', { qos: 1 });
    const stopped = await back.waitFor((e) => e.type === 'timer' && e.event === 'stopped', 3000, 'stopped at the back');
    expect(back.receivedAt[back.events.indexOf(stopped)]! - t0).toBeLessThan(1000);
    expect(stopped).toMatchObject({ label: 'fryer', by: 'voice', at: 'pass' });
    await rec.waitFor((m) => m.topic === 'hark/back/state/ringing' && JSON.parse(m.text).ringing.length === 0, 3000, 'nothing rings at the back');
    await new Promise((r) => setTimeout(r, 300));
    expect(back.of('timer').filter((e) => e.event === 'stopped')).toHaveLength(1);
    expect(pass.of('timer').filter((e) => e.event === 'done')).toHaveLength(1);
  });
});
