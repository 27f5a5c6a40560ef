import { bench, describe } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createEchoCleaner } from '../../src/echo/create.js';
import { EchoReference } from '../../src/echo/reference.js';
import { parseConfigText } from '../../src/config/load.js';
import { VirtualClock } from '../../src/core/clock.js';
import { createVad } from '../../src/vad/create.js';
import { segmentPcm } from '../../src/vad/pipeline.js';
import { segmenterOptions } from '../../src/vad/options.js';
import { outputDir } from '../support/paths.js';
import { scene, soxNoise } from '../support/speech.js';

/**
 * Does speexdsp's noise suppression (echo.denoise) help Silero on noisy kitchen recordings?
 * Five espeak-ng commands at known places over pink and brown noise (an extractor fan, a hum) at
 * three levels; the production pipeline (EchoStage, nothing playing: only the preprocessor runs)
 * with denoise off and on. Counted: phrases whose segment covers them (hits), segments that cover
 * no phrase (false), and Silero's mean probability inside and outside the phrases.
 */
const PHRASES = ['computer set a timer for ten minutes', 'eighty six the salmon', 'stop the timer', 'start inventory', 'read it back'];
const config = parseConfigText('', 'hark.yaml');
const results: Record<string, unknown>[] = [];
for (const kind of ['pinknoise', 'brownnoise'] as const) {
  for (const amp of [0.1, 0.3, 0.5]) {
    const s = await scene([1500, PHRASES[0]!, 2000, PHRASES[1]!, 2000, PHRASES[2]!, 2000, PHRASES[3]!, 2000, PHRASES[4]!, 1500]);
    const noise = await soxNoise(kind, Math.ceil(s.pcm.length / 16) + 100, amp);
    const pcm = s.pcm.map((v, i) => Math.max(-32768, Math.min(32767, v + noise[i]!)));
    for (const denoise of [false, true]) {
      const vad = await createVad(config.vad);
      const made = createEchoCleaner({ filterMs: 128, residual: true, denoise, denoiseDb: 15 }, new EchoReference(), new VirtualClock());
      if ('error' in made) throw new Error(made.error);
      const { segments } = await segmentPcm(pcm, { vad, segmenter: segmenterOptions(config.vad), echo: made.cleaner });
      await vad.close();
      const hits = s.phrases.filter((p) => segments.some((g) => g.vadStartSample < p.end && g.endSample > p.start)).length;
      const falses = segments.filter((g) => !s.phrases.some((p) => g.vadStartSample < p.end && g.endSample > p.start)).length;
      results.push({ noise: kind, amplitude: amp, denoise, hits: `${hits}/${PHRASES.length}`, falseSegments: falses, segments: segments.length });
    }
  }
}
process.stderr.write(`\nnoise suppression and Silero:\n${results.map((r) => JSON.stringify(r)).join('\n')}\n`);
writeFileSync(join(outputDir('bench'), 'echo-denoise.json'), JSON.stringify(results, null, 2) + '\n');

describe('noise suppression', () => {
  bench('measured above (see stderr)', () => {});
});
