import { describe, expect, it } from 'vitest';
import { EchoReference } from '../../src/echo/reference.js';
import { RING_CEILING, withGain } from '../../src/speech/alarm-level.js';
import { AplayPlayer } from '../../src/speech/aplay.js';
import { DeviceOutput } from '../../src/speech/device-output.js';
import { EarconBank } from '../../src/speech/earcons.js';
import type { EspeakTts } from '../../src/speech/espeak.js';
import type { SpeechItem } from '../../src/speech/item.js';

/**
 * A ring at the technician's maximum (+14 dB over the voice) no longer fits the sample format: the
 * earcon at earconVolume 0.5 raised by 14 dB would pass full scale, so the device's output holds it
 * under (withGain's limiter) on its way to the card. What the echo canceller is handed as its
 * reference must be that ring, sample for sample, not the ring as rendered nor as raised: a
 * reference 14 dB over what the card played is 8 dB off on every beep.
 */
describe('the ring at +14 dB through the device output and aplay (null device)', () => {
  it("the reference holds what aplay was given, the limiter's hold included; not one sample of it clipped", async () => {
    const reference = new EchoReference();
    const player = new AplayPlayer({ device: 'null', reference: reference });
    const earcons = new EarconBank({ volume: 0.5 });
    const out = new DeviceOutput({ player, tts: {} as EspeakTts, earcons });
    const item: SpeechItem = { id: 1, kind: 'earcon', text: 'timer', priority: 'alert', offsetMs: 0, gainDb: 14 } as SpeechItem;
    const played = withGain(earcons.get('timer')!, 14);
    const finished = new Promise<string | undefined>((resolve) => out.play(item, { started: () => {}, finished: resolve }));
    expect(await finished).toBeUndefined();
    // The ring as played is held: at its ceiling, under full scale, and not simply raised 14 dB.
    expect(Math.max(...played.map(Math.abs))).toBe(RING_CEILING);
    expect(played.filter((v) => v >= 32767 || v <= -32767)).toHaveLength(0);
    const got = new Int16Array(played.length);
    expect(reference.render(reference.latestStart, got)).toBe(true);
    expect(Array.from(got)).toEqual(Array.from(played));
    player.close();
  });
});
