import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HarkProcess } from '../support/hark-process.js';
import { JFK_WAV, POCKETSPHINX_DATA, TINY_MODEL, outputDir, requireFile } from '../support/paths.js';

/**
 * Real speech through a real `hark run --input`, paced like a microphone, local Whisper only, 2
 * threads: every segment is transcribed by Whisper — none lost to its deadline (before the
 * native build, most were: "dropped: whisper deadline", worst sttMs about 8 s). The test model has
 * no weights, so the transcripts are empty; what is checked is that Whisper answered in time.
 */
const LIBRIVOX = join(POCKETSPHINX_DATA, 'librivox');
// pocketsphinx-testdata is installed by scripts/dev-deps.sh; two of its recordings keep the run short.
const RECORDINGS = [
  JFK_WAV,
  ...(existsSync(LIBRIVOX)
    ? readdirSync(LIBRIVOX)
        .filter((f) => f.endsWith('.wav'))
        .sort()
        .slice(0, 2)
        .map((f) => join(LIBRIVOX, f))
    : []),
];

describe('local Whisper keeps up with real speech', () => {
  it.each(RECORDINGS.map((r) => [r.split('/').pop()!, r] as const))(
    '%s: every segment transcribed by Whisper, none past its deadline',
    async (name, wav) => {
      const dir = outputDir(`e2e-deadline-${name}`);
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'hark.yaml'), `stt:\n  whisper:\n    threads: 2\nspeech:\n  device: "null"\nactions:\n  dataDir: ${JSON.stringify(dir)}\n`);
      const hark = new HarkProcess(
        [
          '--db',
          join(dir, 'hark.db'),
          '--port',
          '0',
          '--stt-mode',
          'local-only',
          '--model',
          requireFile(TINY_MODEL),
          '--input',
          requireFile(wav),
          '--exit-at-end',
        ],
        {
          ...process.env,
          HARK_CONFIG: join(dir, 'hark.yaml'),
        },
      );
      const exit = await hark.exited;
      expect(exit.code).toBe(0);
      const stt = hark.of('stt.segment') as unknown as { segmentId: number; attempts: { engine: string; outcome: string; error?: string; sttMs: number }[] }[];
      expect(stt.length).toBeGreaterThan(0);
      expect(stt.length).toBe(hark.of('segment.closed').length);
      const failed = stt.flatMap((s) => s.attempts.filter((a) => a.outcome !== 'ok').map((a) => `#${s.segmentId}: ${a.error}`));
      expect(failed).toEqual([]);
      writeFileSync(join(dir, 'stt-ms.txt'), stt.map((s) => `${s.segmentId} ${s.attempts[0]!.sttMs}`).join('\n') + '\n');
    },
    120_000,
  );
});
