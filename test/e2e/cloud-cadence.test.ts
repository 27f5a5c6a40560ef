import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DeepgramDouble } from '../support/deepgram-server.js';
import { HarkProcess } from '../support/hark-process.js';
import { outputDir } from '../support/paths.js';
import { scene, writeScene } from '../support/speech.js';

/**
 * The cloud path as a kitchen would use it: a real `hark run --input` (paced like a microphone),
 * cloud-only, against the Deepgram double speaking Deepgram's live cadence — interim results while
 * the audio streams, an is_final chunk for the first words of a longer phrase, the rest in the
 * from_finalize final after Finalize — with replies arriving late in wall time (a gap between
 * messages that is not a pause in the speech). This cut "computer set a timer for twelve minutes"
 * in two and the timer was never set; each phrase must come out as one utterance, whole, acted on once.
 */
const PHRASES = [
  'computer set a timer for twelve minutes',
  'eighty six the salmon on table four',
  'computer set a timer for five minutes',
  'behind you coming through with hot plates',
  'computer set a timer for thirty seconds',
  'two more orders of fries for table nine please',
];

describe('hark run, cloud-only, at Deepgram’s live cadence', () => {
  let hark: HarkProcess;
  let deepgram: DeepgramDouble;
  let exit: { code: number | null; signal: NodeJS.Signals | null };

  beforeAll(async () => {
    const dir = outputDir('e2e-cloud-cadence');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const s = await scene([1000, PHRASES[0]!, 1800, PHRASES[1]!, 1800, PHRASES[2]!, 1800, PHRASES[3]!, 1800, PHRASES[4]!, 1800, PHRASES[5]!, 1500]);
    const wav = await writeScene(s, 'cloud-cadence');
    deepgram = await DeepgramDouble.start({ apiKey: 'e2e-key' });
    deepgram.cadence = 'live';
    // Deepgram finalises the first words of a longer phrase while it is still being said.
    deepgram.chunkFinalAfterSec = 1.0;
    // Replies come when Deepgram decides: every third one arrives 900 ms late, though the speech had no pause.
    deepgram.replyLagMs = (m) => (m.index % 3 === 2 ? 900 : 20);
    deepgram.script = PHRASES.map((text) => ({ text }));
    writeFileSync(join(dir, 'hark.yaml'), `actions:\n  dataDir: ${JSON.stringify(dir)}\nspeech:\n  device: "null"\n`);
    hark = new HarkProcess(
      ['--db', join(dir, 'hark.db'), '--port', '0', '--stt-mode', 'cloud-only', '--deepgram-url', deepgram.url, '--input', wav, '--exit-at-end'],
      {
        ...process.env,
        DEEPGRAM_API_KEY: 'e2e-key',
        HARK_CONFIG: join(dir, 'hark.yaml'),
      },
    );
    exit = await Promise.race([
      hark.exited,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`hark did not finish; stderr:\n${hark.stderr.slice(-20).join('\n')}`)), 90_000)),
    ]);
  }, 120_000);

  afterAll(async () => {
    hark?.kill('SIGKILL');
    await deepgram?.close();
  });

  it('Deepgram really did send chunk finals and late replies (the cadence that split commands)', () => {
    const sent = deepgram.connections.flatMap((c) => c.sent.map((m) => m.msg as { type?: string; is_final?: boolean; from_finalize?: boolean }));
    expect(sent.filter((m) => m.type === 'Results' && m.is_final && !m.from_finalize).length).toBeGreaterThanOrEqual(3);
    expect(sent.filter((m) => m.type === 'Results' && m.from_finalize).length).toBe(PHRASES.length);
  });

  it('one utterance per spoken phrase, with its whole text, in order', () => {
    expect(exit.code).toBe(0);
    const heard = hark.of('utterance.final').map((u) =>
      String(u.text)
        .toLowerCase()
        .replace(/[.,!?]/g, ''),
    );
    expect(heard).toEqual(PHRASES);
    const handled = hark.of('segment.handled');
    expect(handled).toHaveLength(PHRASES.length);
    // `hark run --json` prints each segment's fate: every command is dispatched; talk between cooks
    // said over hark's answer is filtered as not addressed to hark, or dispatched
    // (and ignored by the router) when hark had already finished speaking.
    expect(handled.filter((_, i) => PHRASES[i]!.startsWith('computer')).map((h) => h.fate)).toEqual(['dispatched', 'dispatched', 'dispatched']);
    for (const [i, h] of handled.entries()) {
      if (PHRASES[i]!.startsWith('computer')) continue;
      if (h.fate === 'filtered') expect(h.reason).toContain('not addressed to hark');
      else expect(h.fate).toBe('dispatched');
    }
  });

  it('every timer asked for is set, once', () => {
    const timers = hark
      .of('action')
      .filter((a) => a.name === 'timer.set')
      .map((a) => (a.args as { seconds: number }).seconds);
    expect(timers).toEqual([720, 300, 30]);
  });
});
