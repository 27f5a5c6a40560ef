import { drrDb, type Reflection } from './room-acoustics.js';

/**
 * A kitchen as parameters: what the echo canceller and the VAD meet, measurable in a real room.
 * room-sim.ts turns one into a microphone signal (offline), room-devices.ts into a live room for
 * `hark run`. The presets and the matrix are the rooms the echo tests are run across: the canceller
 * was once tuned in one room and failed in the next one.
 */
export interface RoomSpec {
  name: string;
  /** From a sample hark plays to its direct sound at the microphone: the card's buffer plus the air (ms). */
  latencyMs: number;
  /** Time for the room's sound to fall 60 dB (ms): 250 a furnished room, 400-700 a tiled or steel kitchen. */
  rt60Ms: number;
  /** Room volume (m³): with RT60 and a source's distance it sets how loud the reverberant tail is (Sabine). */
  volumeM3: number;
  /** When the diffuse tail begins after the direct sound (ms): the walls beyond the early reflections. */
  tailOnsetMs: number;
  /** Amplitude of hark's direct sound at the microphone, on the PCM hark plays. */
  echoGain: number;
  /**
   * hark's speaker: distance from the microphone (m), directivity (Q: 2 on a worktop), roll-off (Hz; 0
   * none), and its distortion (absent: none): `thd.pct` % THD for a sine played at a peak of
   * `thd.atDbfs`, growing with the square of the level above it (room-acoustics.ts, SpeakerDistortion),
   * so a ring raised over the voice comes back dirtier than the voice.
   */
  speaker: { distanceM: number; directivity: number; highPassHz: number; thd?: { pct: number; atDbfs: number } };
  /** Early reflections of hark's sound (worktop, wall, cupboard), after its direct sound. */
  early: Reflection[];
  /** The person: farther than the speaker, so more of what the mic hears of them is the room. */
  person: { distanceM: number; directivity: number; rt60Ms?: number };
  /** Extractor fan (pink) and mains hum at the microphone, dBFS RMS; null: none. */
  noise: { fanDbfs: number | null; humDbfs: number | null; humHz: number };
  /** The card ran dry and restarted: from atMs on, hark's sound reaches the mic shiftMs later (silence between). */
  cardRestart?: { atMs: number; shiftMs: number };
  /**
   * The speaker's clock against the microphone's (ppm; −200 … +200, 0 or absent: one clock): the card
   * plays (1 + ppm·1e-6) of hark's samples in each of the microphone's, so the echo's delay slides by
   * ppm × time (shorter for a faster speaker). Two cards on two crystals are typically 20-200 ppm apart.
   */
  speakerPpm?: number;
  seed: number;
}

/** Direct-to-reverberant ratios (dB) of hark's speaker and of the person in this room. */
export function roomDrr(spec: RoomSpec): { speakerDb: number; personDb: number } {
  const { speaker, person } = spec;
  return {
    speakerDb: drrDb(speaker.distanceM, spec.rt60Ms, spec.volumeM3, speaker.directivity),
    personDb: drrDb(person.distanceM, person.rt60Ms ?? spec.rt60Ms, spec.volumeM3, person.directivity),
  };
}

/**
 * The room hark was tuned in: 50 ms latency, RT60 250 ms, the early reflections, the tail's level and
 * its start of room-sim.ts's Reverb (a 30 m³ room with the speaker 0.37 m away gives its 7.4 dB
 * direct-to-reverberant ratio; its combs first return after 30 ms), a full-range speaker, a quiet hiss.
 * The canceller measures within a few dB the same here as in Reverb.
 */
export const TUNED: RoomSpec = {
  name: 'tuned',
  latencyMs: 50,
  rt60Ms: 250,
  volumeM3: 30,
  tailOnsetMs: 30,
  echoGain: 0.7,
  speaker: { distanceM: 0.37, directivity: 2, highPassHz: 0 },
  early: [
    { ms: 2.5, gain: 0.5 },
    { ms: 4.1, gain: -0.35 },
    { ms: 7.3, gain: 0.3 },
    { ms: 11.2, gain: -0.2 },
  ],
  person: { distanceM: 1, directivity: 2 },
  noise: { fanDbfs: -55, humDbfs: null, humHz: 50 },
  seed: 1,
};

/**
 * A working kitchen: a small speaker rolling off under 300 Hz, the worktop's reflection
 * 3 ms after the direct sound and a wall's at 9 ms, the diffuse tail from 10 ms, an extractor fan and
 * 50 Hz hum, the cook 2 m away. At RT60 350 ms and 70 ms this is the kitchen the echo canceller's misses were found in
 * (the 128 ms filter's linear cancellation there: 24-29 dB).
 */
export function kitchen(rt60Ms: number, latencyMs: number, name = `kitchen-rt${rt60Ms}-lat${latencyMs}`): RoomSpec {
  return {
    name,
    latencyMs,
    rt60Ms,
    volumeM3: 30,
    tailOnsetMs: 10,
    echoGain: 0.7,
    speaker: { distanceM: 0.37, directivity: 2, highPassHz: 300 },
    early: [
      { ms: 3, gain: 0.6 },
      { ms: 9, gain: -0.3 },
    ],
    person: { distanceM: 2, directivity: 2 },
    noise: { fanDbfs: -48, humDbfs: -58, humHz: 50 },
    // One seed for every kitchen: two rooms differ by their parameters, not by another draw of the tail.
    seed: 32,
  };
}

export const PRESETS: Record<string, RoomSpec> = {
  tuned: TUNED,
  'tiled-kitchen': kitchen(400, 80, 'tiled-kitchen'),
  'steel-kitchen': kitchen(600, 30, 'steel-kitchen'),
  // The kitchen the echo canceller's misses were found in: a USB card at 60-80 ms, RT60 about 350 ms.
  'usb-kitchen': kitchen(350, 70, 'usb-kitchen'),
};

/** The rooms the offline matrix runs: each RT60 at each latency. */
export function roomMatrix(rt60s = [250, 400, 600], latencies = [30, 80]): RoomSpec[] {
  return rt60s.flatMap((rt) => latencies.map((lat) => kitchen(rt, lat)));
}

/**
 * A small speaker (a Pi's amplifier board and a 40-50 mm driver): 1 % THD at -12 dBFS peak, a spec
 * sheet's "1 % at rated power" with hark's voice peaking there, so about 4 % at -6 dBFS and, from
 * -2 dBFS, the cone at its limit (a ring at +14 dB over the voice gets there).
 */
export const SMALL_SPEAKER_THD = { pct: 1, atDbfs: -12 };

/** The same room with its speaker distorting as `thd` says (default SMALL_SPEAKER_THD), named `-thd<pct>`. */
export function distorting(spec: RoomSpec, thd = SMALL_SPEAKER_THD): RoomSpec {
  return { ...spec, name: `${spec.name}-thd${thd.pct}`, speaker: { ...spec.speaker, thd } };
}

/** A room with its speaker's clock `ppm` off the microphone's, named as roomsByName reads it. */
export function drifted(spec: RoomSpec, ppm: number): RoomSpec {
  return ppm === 0 ? spec : { ...spec, name: `${spec.name}-drift${ppm > 0 ? '+' : ''}${ppm}`, speakerPpm: ppm };
}

/**
 * Rooms by name: a preset, `kitchen-rt<ms>-lat<ms>`, either with `-restart<ms>at<s>` (the card runs
 * dry `at` seconds in and the echo moves that many ms) and then `-drift<ppm>` (the speaker's clock
 * that far from the microphone's: `-drift+20`, `-drift-150`). For HARK_ECHO_ROOMS=tuned,tiled-kitchen,...
 */
export function roomsByName(list: string): RoomSpec[] {
  return list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((name) => {
      const m = /^(.*?)(?:-restart(-?\d+)at(\d+))?(?:-drift([+-]?\d+(?:\.\d+)?))?$/.exec(name)!;
      const base = m[1]!;
      const k = /^kitchen-rt(\d+)-lat(\d+)$/.exec(base);
      const spec = PRESETS[base] ?? (k ? kitchen(Number(k[1]), Number(k[2])) : null);
      if (!spec)
        throw new Error(`unknown room "${name}": one of ${Object.keys(PRESETS).join(', ')}, or kitchen-rt<ms>-lat<ms>[-restart<ms>at<s>][-drift<ppm>]`);
      const ppm = m[4] === undefined ? undefined : Number(m[4]);
      if (ppm !== undefined && Math.abs(ppm) > 1000) throw new Error(`room "${name}": a speaker clock ${ppm} ppm off is no crystal (at most ±1000)`);
      return {
        ...spec,
        ...(m[2] || ppm !== undefined ? { name } : {}),
        ...(m[2] ? { cardRestart: { atMs: Number(m[3]) * 1000, shiftMs: Number(m[2]) } } : {}),
        ...(ppm !== undefined ? { speakerPpm: ppm } : {}),
      };
    });
}
