import { beforeAll, describe, expect, it } from 'vitest';
import { parseConfigText } from '../../src/config/load.js';
import { dbfs } from '../support/room-acoustics.js';
import { micSignal, rms, toS16 } from '../support/room-sim.js';
import { kitchen, type RoomSpec } from '../support/room-spec.js';
import { espeakPhrase } from '../support/speech.js';
import { hear, type Opened } from './room-matrix-run.js';
import { CONFIRM, lay, ring, type Program } from './room-program.js';

/**
 * A cook gives a whole command while a timer rings: it must reach speech-to-text as one segment,
 * not cut where the double-talk decision takes a quieter stretch of the voice for hark's own sound.
 *
 * Found on the capture-path soak (a fan, the timer ringing, hark's speaker not reaching the
 * microphone): twice the segments closed, nearly all within 3 s of "Timer done.", and the commands
 * said over the ring were cut. In such a room (a headset, a speaker across the kitchen) what the
 * canceller leaves is the fan, not hark: it must not be learnt as hark's residual, which swings with
 * the ring's beeps and then explains the cook's voice away. Run in rooms with no echo and with echo,
 * the fan at several levels, the command at several points of the ring.
 */
const S = 16;
const COMMAND = 'computer, set a timer for twelve minutes for the rice';
const config = parseConfigText('', 'hark.yaml');

let program: Program;
let command: Int16Array;

beforeAll(async () => {
  const confirm = await espeakPhrase(CONFIRM);
  command = await espeakPhrase(COMMAND, 'en-gb');
  // The confirmation, a second's quiet, then the timer ringing for 30 s every 2 s (the densest).
  const rung = await ring(30_000, 2000, config.speech.earconVolume);
  const { played, at } = lay([500, confirm, 1000, rung, 2000]);
  const ringStart = at[3]!;
  // The command begun a second before the timer goes off, then at three points of the ring: on the
  // beeps, on "Timer done", between rings.
  const starts = [-1_000, 6_000, 13_300, 21_700].map((ms) => ringStart + ms * S);
  program = {
    played,
    clips: [
      [at[1]!, at[1]! + confirm.length],
      [ringStart, ringStart + 30_000 * S],
    ],
    parts: [{ name: 'ring', start: ringStart, end: ringStart + 30_000 * S }],
    stops: starts.map((at) => ({ over: 'ring' as const, at })),
    words: starts.map((at) => ({ at, pcm: command })),
  };
}, 60_000);

/** The room's microphone with the cook's command at `voiceDbfs` (RMS over the words, at the mic). */
function mic(spec: RoomSpec, voiceDbfs: number): Int16Array {
  const dry = new Float32Array(program.played.length + spec.latencyMs * S + spec.rt60Ms * S);
  for (const w of program.words) for (let i = 0; i < w.pcm.length; i++) dry[w.at + i] = w.pcm[i]!;
  const m = micSignal(spec, program.played, dry, dry.length);
  const w0 = program.words[0]!;
  const gain = (Math.pow(10, voiceDbfs / 20) * 32768) / rms(m.person, w0.at, w0.at + w0.pcm.length);
  return toS16(m.echo.map((e, i) => e + m.person[i]! * gain + m.noise[i]!));
}

/** For each command: the segments it fell into. */
function pieces(opens: Opened[]): Opened[][] {
  return program.words.map((w) => opens.filter((o) => o.vadStart < w.at + w.pcm.length && o.closedAt > w.at));
}

const ROOMS: Array<{ name: string; spec: RoomSpec; voiceDbfs: number }> = [
  // hark's speaker does not reach the microphone: the residual is the fan and hum, nothing of hark.
  { name: 'no echo, fan -48 dBFS', spec: { ...kitchen(400, 80), echoGain: 0 }, voiceDbfs: -30 },
  { name: 'no echo, fan -40 dBFS', spec: { ...kitchen(400, 80), echoGain: 0, noise: { fanDbfs: -40, humDbfs: -58, humHz: 50 } }, voiceDbfs: -28 },
  // The same command in kitchens where hark's ring does reach the microphone, the cook as loud as it.
  { name: 'echo, RT60 250 ms, card 30 ms', spec: kitchen(250, 30), voiceDbfs: -24 },
  { name: 'echo, RT60 600 ms, card 80 ms', spec: kitchen(600, 80), voiceDbfs: -24 },
];

describe('a whole command said over a ringing timer stays one segment', () => {
  it.each(ROOMS)(
    '$name',
    async ({ spec, voiceDbfs }) => {
      const m = mic(spec, voiceDbfs);
      const opens = await hear(m, program, config, { filterMs: config.echo.filterMs, residual: config.echo.residual });
      const got = pieces(opens);
      const at = (o: Opened) => `${((o.vadStart - program.words[0]!.at) / 16000).toFixed(2)}–${((o.closedAt - program.words[0]!.at) / 16000).toFixed(2)} s`;
      const level = dbfs(rms(m, program.words[0]!.at, program.words[0]!.at + command.length));
      program.words.forEach((w, k) => {
        const segs = got[k]!;
        const where = `command ${k + 1} (mic ${level.toFixed(1)} dBFS): segments ${segs.map(at).join(', ') || 'none'}`;
        expect(segs, where).toHaveLength(1);
        // Its audio holds the whole command: the pre-roll reaches back before the first word, and it
        // closed after the last.
        expect(segs[0]!.vadStart - config.vad.prerollMs * S, where).toBeLessThan(w.at);
        expect(segs[0]!.closedAt, where).toBeGreaterThan(w.at + w.pcm.length);
        // And it closes once the cook stops, not held open by the ring after: the hangover and a little.
        expect(segs[0]!.closedAt - (w.at + w.pcm.length), where).toBeLessThan(1500 * S);
      });
    },
    120_000,
  );
});
