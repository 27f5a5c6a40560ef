import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { vadSection } from '../../src/vad/config.js';
import { HarkError } from '../../src/core/errors.js';
import { createVad } from '../../src/vad/create.js';
import { SileroVad } from '../../src/vad/silero.js';
import { WebRtcVad } from '../../src/vad/webrtc.js';
import { OUT } from './vad-audio.js';

describe('createVad', () => {
  it('an empty vad config section builds Silero, the default engine', async () => {
    const vad = await createVad(vadSection.parse(undefined));
    try {
      expect(vad).toBeInstanceOf(SileroVad);
      expect(vad.name).toBe('silero');
      expect(await vad.process(new Int16Array(512))).toBeLessThan(0.5);
    } finally {
      await vad.close();
    }
  });

  it('vad.engine: webrtc builds WebRTC with vad.webrtcMode', async () => {
    const vad = await createVad(vadSection.parse({ engine: 'webrtc', webrtcMode: 1 }));
    try {
      expect(vad).toBeInstanceOf(WebRtcVad);
      expect(vad.name).toBe('webrtc');
      expect((vad as WebRtcVad).mode).toBe(1);
    } finally {
      await vad.close();
    }
  });

  it('passes a Silero model override through, and a bad one is a HarkError naming it', async () => {
    const path = join(OUT, 'create-garbage.onnx');
    writeFileSync(path, Buffer.alloc(4096, 0xab));
    const err = await createVad({ engine: 'silero', webrtcMode: 3 }, { sileroModelPath: path }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HarkError);
    expect((err as Error).message).toContain(path);
  });

  it('an unknown engine (from an untyped caller) is a HarkError naming it', async () => {
    const err = await createVad({ engine: 'vosk' as never, webrtcMode: 3 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HarkError);
    expect((err as Error).message).toBe('vad.engine must be silero or webrtc, got vosk');
  });
});
