import { describe, expect, it } from 'vitest';
import { parseConfigText } from '../../src/config/load.js';
import { drifted, kitchen } from '../support/room-spec.js';
import { matrixPrograms, roomMics, type Programs } from './room-matrix.js';
import { hear } from './room-matrix-run.js';
import { join } from 'node:path';
import { keptSkew } from '../../src/daemon/kept-skew.js';
import { Store } from '../../src/store/store.js';
import { memoryLogger } from '../../src/core/log.js';
import { scratch } from '../store/fixtures.js';

/**
 * A hark that starts cold knows nothing of its two clocks: the skew takes 8-16 s of hark's sound to
 * be measured well enough to follow, and until then the filter meets an echo sliding 150 ppm (2.4
 * samples a second). Kept from an earlier run on the same pair of cards (the store's echo_skew), it
 * is followed from the first frame. Here hark's very first sound after a start — the confirmation,
 * then the list, then the ring — through the production capture path in a tiled kitchen (RT60 400 ms,
 * card 80 ms), the speaker 150 ppm fast and slow: cold, its own sound opens segments in its first
 * 16 s; started from the skew measured before (off by what a settled reading is, 0.3 ppm), none.
 */
const config = parseConfigText('', 'hark.yaml');
const FIRST_MS = 16_000;

describe('a second start on the same pair of cards', () => {
  let programs: Programs | undefined;
  const load = async () => (programs ??= await matrixPrograms(config, 20_000));

  it.each([150, -150])(
    'at %d ppm: cold, hark opens segments on its own sound in its first 16 s; from the stored skew, none',
    async (ppm) => {
      const p = await load();
      const mics = roomMics(drifted(kitchen(400, 80), ppm), p);
      const settings = { filterMs: config.echo.filterMs, residual: config.echo.residual };
      const early = (opens: Array<{ vadStart: number }>) => opens.filter((o) => o.vadStart < FIRST_MS * 16).length;
      const cold = await hear(mics.quiet.mic, p.quiet, config, settings);
      const warm = await hear(mics.quiet.mic, p.quiet, config, { ...settings, knownSkewPpm: ppm + 0.3 });
      expect(early(cold)).toBeGreaterThan(0);
      expect(early(warm)).toBe(0);
    },
    180_000,
  );

  it('kept in the store by the first run, per pair of cards: the next start on those cards begins from it, other cards from nothing', async () => {
    const p = await load();
    const mics = roomMics(drifted(kitchen(400, 80), 150), p);
    const settings = { filterMs: config.echo.filterMs, residual: config.echo.residual };
    const path = join(scratch('echo-skew'), 'hark.db');
    const cards = { capture: { device: 'plughw:CARD=Mic,DEV=0' }, speech: { device: 'plughw:CARD=Headphones,DEV=0' } };
    const log = memoryLogger();
    let store = new Store({ path, housekeeping: null });
    const first = keptSkew(cards, () => store, log);
    expect(first.known()).toBeNull();
    const cold = await hear(mics.quiet.mic, p.quiet, config, settings, first.keep);
    store.close();
    // hark restarts: the same file, the same cards.
    store = new Store({ path, housekeeping: null });
    const again = keptSkew(cards, () => store, log);
    const known = again.known();
    expect(known).not.toBeNull();
    expect(Math.abs(known! - 150)).toBeLessThan(2);
    const warm = await hear(mics.quiet.mic, p.quiet, config, { ...settings, knownSkewPpm: known! });
    const early = (opens: Array<{ vadStart: number }>) => opens.filter((o) => o.vadStart < FIRST_MS * 16).length;
    expect(early(cold)).toBeGreaterThan(0);
    expect(early(warm)).toBe(0);
    // Another speaker card: its clock is another crystal.
    expect(keptSkew({ ...cards, speech: { device: 'plughw:CARD=vc4hdmi0,DEV=0' } }, () => store, log).known()).toBeNull();
    store.close();
  }, 180_000);
});
