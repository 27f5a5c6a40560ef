import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { msToSamples } from '../../src/audio/pcm.js';
import { writeWavFile } from '../../src/audio/wav.js';
import { DeepgramDouble } from '../support/deepgram-server.js';
import { HarkProcess } from '../support/hark-process.js';
import { outputDir } from '../support/paths.js';
import { espeakPhrase } from '../support/speech.js';

/**
 * A Spanish kitchen through the whole device: a real `hark run --input` (paced like a microphone)
 * on espeak-ng's Spanish speech, cloud-only, against the Deepgram double at Deepgram's live cadence
 * answering as Nova-3 multilingual does (language=multi: Spanish words, `languages: ["es"]`). The
 * timer is set, the stored utterance says it was Spanish, and the answer is Spanish, spoken by
 * espeak-ng's Spanish voice (reached through a wrapper on PATH that writes down its arguments and
 * runs the real one, then aplay to ALSA's null device).
 */
const PHRASES = ['pon un temporizador de arroz de diez minutos', 'añade leche a la lista de la compra'];

describe('hark run on Spanish speech, Deepgram multilingual at its live cadence', () => {
  let hark: HarkProcess;
  let deepgram: DeepgramDouble;
  let exit: { code: number | null; signal: NodeJS.Signals | null };
  let dir: string;
  const argsLog = () => readFileSync(join(dir, 'espeak-args.txt'), 'utf8').trim().split('\n');

  beforeAll(async () => {
    dir = outputDir('e2e-spanish');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const silence = (ms: number) => new Int16Array(msToSamples(ms));
    const parts = [silence(1000), await espeakPhrase(PHRASES[0]!, 'es'), silence(4500), await espeakPhrase(PHRASES[1]!, 'es'), silence(4000)];
    const pcm = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
    let o = 0;
    for (const p of parts) {
      pcm.set(p, o);
      o += p.length;
    }
    const wav = join(dir, 'spanish.wav');
    await writeWavFile(wav, pcm);
    const wrapper = join(dir, 'espeak-ng');
    // hark hands espeak-ng its words on stdin: the wrapper writes down the arguments and the words, one line a call.
    writeFileSync(
      wrapper,
      `#!/bin/sh\nif [ "$1" = --voices ]; then exec /usr/bin/espeak-ng "$@"; fi\nwords=$(cat)\necho "$* | $words" >> '${join(dir, 'espeak-args.txt')}'\nprintf '%s' "$words" | exec /usr/bin/espeak-ng "$@"\n`,
    );
    chmodSync(wrapper, 0o755);
    deepgram = await DeepgramDouble.start({ apiKey: 'e2e-key' });
    deepgram.cadence = 'live';
    deepgram.chunkFinalAfterSec = 1.0;
    deepgram.replyLagMs = (m) => (m.index % 3 === 2 ? 900 : 20);
    deepgram.script = PHRASES.map((text) => ({ text, language: 'es' }));
    writeFileSync(
      join(dir, 'hark.yaml'),
      `actions:\n  dataDir: ${JSON.stringify(dir)}\nspeech:\n  device: "null"\nrouter:\n  mode: always-listen\nlanguage:\n  languages: [en, es]\n`,
    );
    hark = new HarkProcess(
      ['--db', join(dir, 'hark.db'), '--port', '0', '--stt-mode', 'cloud-only', '--deepgram-url', deepgram.url, '--input', wav, '--exit-at-end'],
      {
        ...process.env,
        PATH: `${dir}:${process.env.PATH}`,
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

  it('asks Deepgram for its multilingual model and gets Spanish back, at the live cadence', () => {
    expect(deepgram.connections.length).toBeGreaterThan(0);
    for (const c of deepgram.connections) expect(c.query.language).toBe('multi');
    const results = deepgram.connections
      .flatMap((c) =>
        c.sent.map(
          (m) =>
            m.msg as { type?: string; is_final?: boolean; from_finalize?: boolean; channel?: { alternatives: { words: unknown[]; languages?: string[] }[] } },
        ),
      )
      .filter((m) => m.type === 'Results');
    expect(results.filter((m) => m.from_finalize)).toHaveLength(PHRASES.length);
    // Interim results, chunk finals and the final after Finalize: each with words names Spanish.
    const withWords = results.filter((m) => m.channel!.alternatives[0]!.words.length > 0);
    expect(withWords.filter((m) => m.is_final && !m.from_finalize).length).toBeGreaterThanOrEqual(1);
    for (const m of withWords) expect(m.channel!.alternatives[0]!.languages).toEqual(['es']);
  });

  it('one utterance per phrase, each Spanish, the timer set and the milk on the shopping list', () => {
    expect(exit.code).toBe(0);
    const heard = hark.of('utterance.final').map((u) =>
      String(u.text)
        .toLowerCase()
        .replace(/[.,!?]/g, ''),
    );
    expect(heard).toEqual(PHRASES);
    expect(hark.of('segment.handled').map((h) => h.fate)).toEqual(['dispatched', 'dispatched']);
    const actions = hark.of('action').map((a) => ({ name: a.name, args: a.args }));
    expect(actions[0]).toMatchObject({ name: 'timer.set', args: { seconds: 600, label: 'arroz', lang: 'es' } });
    expect(actions[1]).toMatchObject({ name: 'list.add' });
    expect(JSON.stringify(actions[1]!.args)).toContain('leche');
  });

  it('stores each utterance with its language, es', () => {
    const db = new Database(join(dir, 'hark.db'), { readonly: true });
    try {
      const rows = db.prepare('SELECT text, language FROM utterances ORDER BY created_at').all() as { text: string; language: string | null }[];
      expect(rows.map((r) => r.language)).toEqual(['es', 'es']);
      expect(rows[0]!.text.toLowerCase()).toContain('temporizador de arroz');
    } finally {
      db.close();
    }
  });

  it('answers in Spanish, with espeak-ng’s Spanish voice', () => {
    const said = hark.of('speak.start').map((s) => String(s.text));
    expect(said).toContain('Temporizador de arroz puesto para 10 minutos.');
    // Every word hark said went to espeak-ng's Spanish voice (packs/es/pack.yaml: voice es).
    expect(argsLog()).toEqual([
      '--stdout -v es -s 160 -a 100 | Temporizador de arroz puesto para 10 minutos.',
      '--stdout -v es -s 160 -a 100 | He añadido leche a la lista de compra.',
    ]);
  });
});
