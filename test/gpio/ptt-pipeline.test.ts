import { describe, expect, it } from 'vitest';
import { parseConfigText } from '../../src/config/load.js';
import { Bus } from '../../src/core/bus.js';
import { VirtualClock } from '../../src/core/clock.js';
import { wireButton } from '../../src/gpio/button-controller.js';
import { SimulatedGpio } from '../../src/gpio/simulated-driver.js';
import { segmenterOptions } from '../../src/vad/options.js';
import { SegmentPipeline } from '../../src/vad/pipeline.js';
import type { Segment } from '../../src/vad/segment.js';
import type { Vad } from '../../src/vad/vad.js';

/** A VAD that never hears speech: whatever opens a segment here, it is the button. */
const deaf: Vad = { name: 'webrtc', process: async () => 0, reset() {}, close: async () => {} };

describe('the button driving the real segment pipeline', () => {
  it('press-and-hold gives a ptt-release segment with the pre-roll before the press', async () => {
    const config = parseConfigText('', 'hark.yaml');
    const pipeline = new SegmentPipeline({ vad: deaf, segmenter: segmenterOptions(config.vad) });
    const segments: Segment[] = [];
    pipeline.on('segment', (s) => segments.push(s));
    const clock = new VirtualClock();
    const driver = new SimulatedGpio();
    wireButton({
      driver,
      clock,
      bus: new Bus(),
      settings: config.gpio,
      targets: {
        isSpeaking: () => false,
        stopSpeaking() {},
        pttDown: () => void pipeline.pttDown(),
        pttUp: () => void pipeline.pttUp(),
        setMuted() {},
      },
    });
    /** ms of audio whose samples are their own position, so the splice can be checked. */
    let pos = 0;
    const audio = async (ms: number) => {
      const chunk = new Int16Array(ms * 16);
      for (let i = 0; i < chunk.length; i++) chunk[i] = (pos + i) % 30000;
      pos += chunk.length;
      await pipeline.push(chunk);
    };
    await audio(1024); // a second of room sound before the press
    driver.press();
    clock.advanceBy(config.gpio.debounceMs);
    const pressedAt = pos;
    await audio(1504);
    driver.release();
    clock.advanceBy(config.gpio.debounceMs);
    await pipeline.idle();
    await audio(2000); // silence after: no hangover, the segment is already closed
    await pipeline.idle();

    expect(segments).toHaveLength(1);
    const s = segments[0]!;
    expect(s.closeReason).toBe('ptt-release');
    expect(s.openedBy).toBe('ptt');
    expect(s.prerollSamples).toBe(config.vad.prerollMs * 16);
    expect(s.vadStartSample).toBe(pressedAt);
    expect(s.endSample).toBe(pressedAt + 1504 * 16);
    // pre-roll spliced exactly onto the live audio
    for (let i = 0; i < s.pcm.length; i += 997) expect(s.pcm[i]).toBe((s.startSample + i) % 30000);
  });
});
