import { afterEach, describe, expect, it } from 'vitest';
import { writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Bus } from '../../src/core/bus.js';
import { SystemClock, VirtualClock } from '../../src/core/clock.js';
import { validateConfig } from '../../src/config/load.js';
import { decodeWav, encodeWav } from '../../src/audio/wav.js';
import { AlarmLevel, RING_CEILING, RoomFloor, withGain } from '../../src/speech/alarm-level.js';
import { createSpeech, type Speech } from '../../src/speech/create.js';
import { synthEarcon } from '../../src/speech/earcons.js';
import { EspeakTts } from '../../src/speech/espeak.js';
import { applySpeechEffect } from '../../src/path/speech-effects.js';
import { followRoomFloor } from '../../src/path/capture-wiring.js';
import { SegmentPipeline } from '../../src/vad/pipeline.js';
import { createVad } from '../../src/vad/create.js';
import { segmenterOptions } from '../../src/vad/options.js';
import { fanNoise } from '../support/room-acoustics.js';
import { recordingAplay, until } from '../support/aplay-stand-in.js';
import { outputDir } from '../support/paths.js';
import { harness } from '../command/harness.js';

const quiet = { alarmDb: 4, alarmStepDb: 2, alarmMaxDb: 14, alarmQuietDb: -50 };
const floorAt = (db: number | null) => ({ floorDb: () => db });

describe('the ring level (pure)', () => {
  it.each([
    // [room floor, unanswered rings, gain over the voice]
    [null, 0, 4],
    [-60, 0, 4],
    [-50, 0, 4],
    [-45, 0, 9],
    [-45, 1, 11],
    [-45, 2, 13],
    [-45, 3, 14],
    [-45, 9, 14],
    [-35, 0, 14],
  ] as const)('floor %s dBFS, %i unanswered: %s dB', (floor, unanswered, gain) => {
    expect(new AlarmLevel(quiet, floorAt(floor)).gainDb(unanswered)).toBe(gain);
  });

  it('refuses a maximum under the ring level, naming both keys', () => {
    expect(() => validateConfig({ speech: { alarmDb: 10, alarmMaxDb: 6 } }, 'test')).toThrow(/speech\.alarmMaxDb.*must not be below speech\.alarmDb \(10\)/);
  });
});

describe('the room floor', () => {
  const frames = (level: number, n: number, floor: RoomFloor, harkPlaying = false) => {
    for (let i = 0; i < n; i++) floor.frame(level, harkPlaying);
  };
  const rmsOf = (db: number) => Math.pow(10, db / 20);

  it('falls at once to a quieter room and rises 1.5 dB a second to a louder one', () => {
    const clock = new VirtualClock(0);
    const f = new RoomFloor(clock);
    expect(f.floorDb()).toBeNull();
    frames(rmsOf(-45), 50, f);
    expect(f.floorDb()).toBe(-45);
    frames(rmsOf(-35), Math.round(1000 / 32), f); // a second of a louder room
    expect(f.floorDb()).toBeCloseTo(-43.5, 0);
    frames(rmsOf(-50), 20, f);
    expect(f.floorDb()).toBeCloseTo(-50, 0);
  });

  it('learns nothing while hark plays, and forgets the room when the microphone is down', () => {
    const clock = new VirtualClock(0);
    const f = new RoomFloor(clock);
    frames(rmsOf(-45), 50, f);
    // Fifteen seconds of hark's own sound (a long answer, a ring): the room's floor holds.
    for (let t = 32; t <= 15_000; t += 32) {
      clock.advanceTo(t);
      f.frame(rmsOf(-10), true);
    }
    expect(f.floorDb()).toBe(-45);
    clock.advanceTo(25_001);
    expect(f.floorDb()).toBeNull();
  });
});

/**
 * The ring as the speaker plays it: a kitchen's fan recorded at -45 and at -35 dBFS goes through the
 * capture path's VAD pipeline (which follows the room's floor), timers ring on the command core, and
 * what hark hands to aplay (a stand-in that keeps every clip) is compared with the same earcon and
 * phrase at the voice's level.
 */
describe('a ring over a recorded fan, as handed to aplay', () => {
  let speech: Speech | null = null;
  let mic: NodeJS.Timeout | undefined;
  const oldPath = process.env.PATH;
  afterEach(() => {
    clearInterval(mic);
    speech?.close();
    speech = null;
    process.env.PATH = oldPath;
  });

  /**
   * The gain (dB, to 0.1) whose withGain turns `ref` into `out`: the ring's level as the device's
   * output chose it, the limiter's hold on its peaks included. NaN if none does.
   */
  function gainDb(ref: Int16Array, out: Int16Array): number {
    expect(out.length).toBe(ref.length);
    for (let tenths = 0; tenths <= 300; tenths++) {
      const g = tenths / 10;
      const y = withGain(ref, g);
      let same = true;
      for (let i = 0; i < y.length && same; i++) same = y[i] === out[i];
      if (same) return g;
    }
    return NaN;
  }

  async function ringsOver(fanDbfs: number, rings: number) {
    const name = `alarm-level-${-fanDbfs}`;
    const aplay = recordingAplay(name);
    process.env.PATH = `${join(aplay.bin, '..')}:${oldPath}`;
    const config = validateConfig({ speech: { device: 'null', ...quiet }, echo: { mode: 'off' }, vad: { engine: 'webrtc' } }, 'test');
    speech = createSpeech(config, { bus: new Bus(), clock: new SystemClock() });
    // Ten seconds of the fan, recorded, played into the capture path.
    const wav = join(outputDir(name), 'fan.wav');
    const fan = fanNoise(16_000 * 10, fanDbfs, 7);
    writeFileSync(wav, encodeWav(Int16Array.from(fan, (v) => Math.round(v))));
    const pipeline = new SegmentPipeline({ vad: await createVad(config.vad), segmenter: segmenterOptions(config.vad), gate: speech.gate });
    followRoomFloor(pipeline, speech.alarm.room);
    const recorded = decodeWav(readFileSync(wav), 'fan.wav').pcm;
    await pipeline.push(recorded);
    const floor = speech.alarm.room.floorDb()!;
    // The microphone stays live while hark rings: the fan goes on, in real time (hark's own sound is
    // not learnt, so the floor holds).
    let at = 0;
    mic = setInterval(() => {
      const chunk = recorded.subarray(at, at + 1600);
      at = (at + 1600) % (recorded.length - 1600);
      void pipeline.push(chunk);
    }, 100);

    const h = harness({ config: { actions: { timers: { ringEveryMs: 5000, giveUpMs: 60_000 } } } });
    let applied = 0;
    const play = () => {
      for (const e of h.effects.slice(applied)) applySpeechEffect(e, speech, null, undefined);
      applied = h.effects.length;
    };
    // What each step hands to aplay: the clips played once the queue is idle again.
    const stage = async (what: string) => {
      play();
      await until(what, () => (speech!.queue.busy ? undefined : true), 15_000);
      const clips = aplay.clips();
      const got = clips.slice(seen);
      seen = clips.length;
      return got;
    };
    let seen = 0;
    h.say('computer set a pasta timer for 1 minute', 0);
    const reply = (await stage('the "set" reply')).at(-1)!;
    const rang: Int16Array[][] = [];
    for (let r = 0; r < rings; r++) {
      h.clock.advanceTo(60_000 + r * 5000);
      rang.push(await stage(`ring ${r + 1}`));
    }
    const tts = new EspeakTts({ voice: config.speech.voice, speed: config.speech.speed, volume: config.speech.volume });
    const earcon = synthEarcon('timer', config.speech.earconVolume);
    const said = await tts.render('Pasta timer done.');
    // Each ring is its earcon and its spoken name, at one gain.
    expect(rang.map((c) => c.length)).toEqual(rang.map(() => 2));
    const ringGains = rang.map(([e, n]) => [gainDb(earcon, e!), gainDb(said, n!)]);
    return { floor, ringGains, replyGain: gainDb(await tts.render('Pasta timer set for 1 minute.'), reply), rang, earcon };
  }

  it('at -45 dBFS: starts 5 dB over the quiet ring and steps 2 dB a ring to the maximum; the voice stays as it was', async () => {
    const { floor, ringGains, replyGain } = await ringsOver(-45, 5);
    // The floor follows the fan's quieter moments: a little under its RMS level.
    expect(floor).toBeGreaterThan(-47);
    expect(floor).toBeLessThan(-45);
    const start = 4 + floor + 50;
    // The earcon and the spoken name of each ring, at one gain: 2 dB a ring, then held at the maximum.
    const want = [start, start + 2, start + 4, start + 6, 14].map((g) => Math.min(14, g));
    expect(want[4]! - want[3]!).toBeGreaterThan(0);
    // The same gain on both, to the tenth of a dB; the floor may move a few tenths while the fan goes on between rings.
    for (const [e, n] of ringGains) expect(e).toBe(n);
    expect(ringGains.map(([, n]) => n)).toEqual(want.map((g) => expect.closeTo(g, 0)));
    expect(replyGain).toBe(0);
  }, 60_000);

  it('at -35 dBFS: the first ring is at the maximum, held under full scale, not clipped', async () => {
    const { floor, ringGains, rang } = await ringsOver(-35, 1);
    expect(floor).toBeGreaterThan(-37);
    expect(floor).toBeLessThan(-34);
    expect(ringGains).toEqual([[14, 14]]);
    // 14 dB over the earcons' -6 dBFS peak is past full scale: the limiter holds it under, neither clipped nor wrapped round.
    for (const clip of rang[0]!) expect(Math.max(...clip.map(Math.abs))).toBe(RING_CEILING);
  }, 60_000);
});
