import { describe, expect, it } from 'vitest';
import { parseConfigText } from '../../src/config/load.js';
import { drifted, kitchen } from '../support/room-spec.js';
import { matrixPrograms, measureRoom, misses, roomMics, stopWithoutEcho, type Programs } from './room-matrix.js';

/**
 * The speaker on its own clock: a USB microphone with the Pi's headphone jack, HDMI or an I2S board
 * are two crystals, 20-200 ppm apart, and the echo's delay slides by ppm × time. Live, at +20 ppm a
 * 60 s ring opened 14 segments and a "stop" said over it fell inside one. Here the same through the
 * production capture path (room-matrix.ts) in a tiled kitchen (RT60 400 ms, card 80 ms) with the
 * speaker 20 ppm fast and 20 ppm slow, and a furnished one (RT60 250 ms) 100 ppm slow: hark's list
 * and ring open no segment, and "stop" 6 dB under the echo opens its own within 300 ms (or one frame
 * after the room alone).
 *
 * hark has spoken for 20 s before its confirmation (room-program.ts, earlierMs), as it has by its
 * second answer of the day: the skew takes 5-10 s of hark's sound to be known well enough to follow,
 * and is kept from then on. A cold canceller's first seconds at 20 ppm are docs/echo.md's.
 */
const config = parseConfigText('', 'hark.yaml');
const settings = { echoFilterMs: config.speech.echoFilterMs, echoResidual: config.speech.echoResidual };

describe("hark's own sound when the speaker's clock is not the microphone's", () => {
  let programs: Programs | undefined;
  const load = async () => (programs ??= await matrixPrograms(config, 60_000, { earlierMs: 20_000 }));

  it.each([
    { ppm: 20, spec: drifted(kitchen(400, 80), 20) },
    { ppm: -20, spec: drifted(kitchen(400, 80), -20) },
    { ppm: -100, spec: drifted(kitchen(250, 80), -100) },
  ])(
    '$spec.name: the list and the ring open no segment, "stop" is heard',
    async ({ spec }) => {
      const p = await load();
      const mics = roomMics(spec, p);
      const r = await measureRoom(mics, p, config, settings, { erle: false });
      const silent = (await stopWithoutEcho(mics, p, config)).map((s) => s.openedAfterMs);
      expect(r.echoDbfs).toBeGreaterThan(-30);
      expect(misses(r, silent)).toEqual([]);
    },
    180_000,
  );
});
