import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeWavFile } from '../../src/audio/wav.js';
import { DeepgramDouble } from '../support/deepgram-server.js';
import { startHaDouble, type HaDouble } from '../support/ha-server.js';
import { HarkProcess } from '../support/hark-process.js';
import { outputDir } from '../support/paths.js';
import { scene } from '../support/speech.js';

/**
 * A real `hark run --input` (cloud speech-to-text against the Deepgram double) asks the Home
 * Assistant double one thing: the reply is spoken, and the exchange is in the segment's action rows.
 * Bounded: every wait has a deadline; the process is killed in afterAll.
 */
describe('hark run asks Home Assistant what its own rules do not handle', () => {
  const root = outputDir('e2e-ha-conversation');
  const db = join(root, 'hark.db');
  let ha: HaDouble;
  let deepgram: DeepgramDouble;
  let hark: HarkProcess;

  beforeAll(async () => {
    rmSync(root, { recursive: true, force: true });
    mkdirSync(root, { recursive: true });
    ha = await startHaDouble();
    ha.on('extractor fan', { speech: 'Turned on the extractor fan' });
    deepgram = await DeepgramDouble.start({ apiKey: 'e2e-key' });
    const phrases = ['computer turn on the extractor fan', 'go', 'computer set a timer for five minutes'];
    deepgram.script = phrases.map((text) => ({ text }));
    const s = await scene([1000, phrases[0]!, 2000, phrases[1]!, 2000, phrases[2]!, 1500], { kind: 'pinknoise', amplitude: 0.004 });
    const wav = join(root, 'speech.wav');
    await writeWavFile(wav, s.pcm);
    const config = join(root, 'hark.yaml');
    writeFileSync(
      config,
      `actions:\n  dataDir: ${JSON.stringify(root)}\nspeech:\n  device: "null"\nintent:\n  enabled: false\nha:\n  conversation:\n    url: ${ha.url}\n    agentId: conversation.home_assistant\n`,
    );
    hark = new HarkProcess(['--db', db, '--port', '0', '--stt-mode', 'cloud-only', '--deepgram-url', deepgram.url, '--input', wav, '--exit-at-end'], {
      ...process.env,
      DEEPGRAM_API_KEY: 'e2e-key',
      HARK_HA_TOKEN: ha.token,
      HARK_CONFIG: config,
    });
    const exit = await Promise.race([
      hark.exited,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`hark did not finish; stderr:\n${hark.stderr.slice(-20).join('\n')}`)), 90_000)),
    ]);
    expect(exit.code).toBe(0);
  }, 120_000);

  afterAll(async () => {
    hark?.kill('SIGKILL');
    await deepgram?.close();
    await ha?.close();
  });

  it('Home Assistant got the words with the bearer token, and hark said its answer; the timer stayed local', () => {
    expect(
      ha.conversationsAsked.map((b) => ({
        ...b,
        text: String(b.text)
          .toLowerCase()
          .replace(/[.,!?]/g, ''),
      })),
    ).toEqual([{ text: 'turn on the extractor fan', language: 'en', agent_id: 'conversation.home_assistant' }]);
    expect(ha.requests.every((r) => r.authorization === `Bearer ${ha.token}`)).toBe(true);
    const said = hark.of('speak').map((e) => e.text);
    expect(said).toContain('Turned on the extractor fan');
    expect(
      hark
        .of('action')
        .filter((a) => a.name === 'timer.set')
        .map((a) => (a.args as { seconds: number }).seconds),
    ).toEqual([300]);
    expect(hark.of('delivered')).toEqual([expect.objectContaining({ target: 'home-assistant', detail: expect.stringContaining('action_done') })]);
  });

  it("the exchange is the first segment's action row: request and reply, for the debug page", () => {
    const d = new Database(db, { readonly: true });
    try {
      const rows = d
        .prepare(
          "SELECT a.segment_id AS segmentId, a.args_json AS args, a.outcome, u.text FROM actions a JOIN utterances u ON u.id = a.utterance_id WHERE a.name = 'ha.conversation'",
        )
        .all() as { segmentId: number | null; args: string; outcome: string; text: string }[];
      expect(rows).toHaveLength(1);
      expect(rows[0]!.segmentId).not.toBeNull();
      expect(rows[0]!.outcome).toBe('ok');
      expect(rows[0]!.text.toLowerCase()).toContain('extractor fan');
      expect(JSON.parse(rows[0]!.args)).toEqual(
        expect.objectContaining({ reply: expect.objectContaining({ speech: 'Turned on the extractor fan', responseType: 'action_done' }) }),
      );
    } finally {
      d.close();
    }
  });
});
