import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DeepgramDouble } from '../support/deepgram-server.js';
import type { HarkProcess } from '../support/hark-process.js';
import { outputDir } from '../support/paths.js';
import { Room, startHarkInRoom } from '../support/room-devices.js';
import { rms } from '../support/room-sim.js';
import { roomsByName, type RoomSpec } from '../support/room-spec.js';
import { espeakPhrase } from '../support/speech.js';
import { harkClocks } from '../support/hark-clocks.js';
import { SHORT_ANSWER } from '../echo/room-program.js';
import { openedAfterMs, stopAllowedMs } from '../echo/room-matrix.js';
import { msToSamples } from '../../src/audio/pcm.js';
import { validateConfig } from '../../src/config/load.js';
import { createVad } from '../../src/vad/create.js';
import { segmenterOptions } from '../../src/vad/options.js';
import { segmentPcm } from '../../src/vad/pipeline.js';

/**
 * hark in simulated kitchens (test/support/room-devices.ts, rooms from test/support/room-spec.ts):
 * the real `hark run`, real espeak-ng, the production capture path (AlsaCapture → node-record-lpcm16 →
 * the room's arecord on PATH) and playback path (AplayPlayer → the room's aplay). What hark plays
 * comes back into the microphone at the room's latency, through its speaker and reverberation, louder
 * than the person, over the fan and the hum. The echo gate is off (fallback: off): only the
 * canceller keeps hark from hearing itself.
 *
 *  1. Nobody speaks while hark reads a 30 s answer and a timer rings for 60 s: no segment opens.
 *  2. "stop", said 6 dB below the echo, over the ring and over a long answer: heard, and it stops them.
 * Words come from the Deepgram double, scripted just before each phrase is said.
 */
const RECIPE =
  'Here is the recipe for the sponge. Preheat the oven to one hundred and eighty degrees and line two tins. Beat the butter and the sugar together until pale and fluffy, which takes about five minutes by hand. ' +
  'Add the eggs one at a time, beating well after each, then fold in the flour and the baking powder with a large metal spoon. Divide the mixture between the tins, level the tops, and bake for twenty five minutes, ' +
  'until golden and springy to the touch. Leave them to cool for ten minutes before turning them out onto a wire rack.';

const quiet = (ms: number) => new Promise((r) => setTimeout(r, ms));
const VAD = validateConfig({}, 'defaults').vad;

/**
 * How soon the word said at room sample `at` opens a segment in this room with hark silent: the room's
 * microphone less hark's echo (the person through their path, the fan, the hum), over the same VAD and
 * segmenter settings, from 2 s before the word. Ms after the word, by the offline matrix's rule
 * (openedAfterMs); null: none within a second. The 600 ms tail takes over
 * 300 ms on its own at some points, and the target cannot be below what the room allows (stopAllowedMs).
 */
async function roomAloneMs(room: Room, at: number): Promise<number | null> {
  const from = Math.max(0, at - 32_000);
  const to = Math.min(room.now(), room.mic.length, at + 24_000);
  const pcm = new Int16Array(to - from);
  for (let i = 0; i < pcm.length; i++) pcm[i] = Math.max(-32768, Math.min(32767, Math.round(room.mic[from + i]! - room.echo[from + i]!)));
  const vad = await createVad(VAD);
  try {
    const { segments, dropped } = await segmentPcm(pcm, { vad, segmenter: segmenterOptions(VAD) });
    // A VAD-opened segment opens at the end of its opening run: its speech start plus minSpeechMs.
    const opens = [...segments, ...dropped].map((g) => ({
      vadStart: from + g.vadStartSample,
      openedAt: from + g.vadStartSample + msToSamples(VAD.minSpeechMs),
      closedAt: from + g.endSample,
    }));
    return openedAfterMs(
      opens.sort((a, b) => a.vadStart - b.vadStart),
      at,
    );
  } finally {
    await vad.close();
  }
}

// The rooms: HARK_ECHO_ROOMS (names as room-spec.ts reads them), by default the three RT60s of the
// offline matrix at the USB card's 80 ms. HARK_ECHO_QUICK=1 reads the short answer and rings 15 s (a
// check that a room runs, ~50 s, not the targets' measurement).
const ROOMS = roomsByName(process.env.HARK_ECHO_ROOMS ?? 'kitchen-rt250-lat80,kitchen-rt400-lat80,kitchen-rt600-lat80');
const QUICK = !!process.env.HARK_ECHO_QUICK;
const CLOCKS = !!process.env.HARK_ECHO_CLOCKS;

// Opt-in (`make echo-room`, or HARK_ECHO_E2E=1 after a build; about 140 s a room, over the suite's budget):
// its counts move with the machine's load, so it runs alone, not in `make test`. In seven runs alone in
// the tuned room (HARK_ECHO_ROOMS=tuned) the answer and the ring opened no segment, and "stop" stopped
// them in all but one (a drop fixed since: README, echo notes). The room's aplay takes a start-up from
// the measured spread (47-185 ms), as real aplay does. ECHO_FALLBACK (default off), ECHO_LEAD_MS (speech.playerLeadMs) and
// ECHO_FILTER_MS (echo.filterMs; both default the product's) vary the run; the counts go to
// test-output/e2e-echo-room/<room>/numbers.json and
// hark's events, timed from the room's start, to events.jsonl.
describe.skipIf(!process.env.HARK_ECHO_E2E).each(ROOMS.map((spec) => ({ name: spec.name, spec })))(
  'hark run in a simulated kitchen ($name): the echo canceller',
  ({ spec }: { spec: RoomSpec }) => {
    let hark: HarkProcess;
    let deepgram: DeepgramDouble;
    let room: Room;
    const wallT0 = { room: 0 };
    const quietSegments: number[] = [];
    const stops: Array<{
      over: string;
      wordCaptureMs: number;
      wordWall: number;
      openVadMs: number | null;
      openWall: number | null;
      roomAloneMs: number | null;
      stopped: boolean;
    }> = [];
    let answerMs = 0;
    let ringMs = 0;

    async function personSays(text: string, script: string, gain: number): Promise<{ start: number; end: number; wall: number }> {
      deepgram.script = [{ text: script }];
      const pcm = await espeakPhrase(text);
      const at = room.now() + 1600; // a period ahead of what the room has produced
      const placed = room.say(pcm, at, gain / rms(pcm));
      return { ...placed, wall: wallT0.room + at / 16 };
    }

    /** The person says a command (hark quiet); said again if a stray segment took Deepgram's line first. */
    async function command(text: string, heard: string): Promise<void> {
      for (let attempt = 0; attempt < 2; attempt++) {
        const from = hark.events.length;
        await personSays(text, heard, 2000);
        const ok = await hark
          .waitFor(
            (e) =>
              e.type === 'utterance.final' &&
              hark.events.indexOf(e) >= from &&
              String(e.text)
                .toLowerCase()
                .replace(/[.,!?]/g, '') === heard,
            15_000,
            heard,
          )
          .then(() => true)
          .catch(() => false);
        if (ok) return;
        deepgram.script = [];
        await quiet(2000);
      }
      throw new Error(`hark never heard "${heard}"`);
    }

    /** The echo's level at the mic over the last second it sounded. */
    function echoLevel(): number {
      const now = room.now() - 2000;
      return rms(room.echo, now - 16000, now);
    }

    const outDir = () => join(outputDir('e2e-echo-room'), spec.name);

    beforeAll(async () => {
      const dir = outDir();
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      deepgram = await DeepgramDouble.start({ apiKey: 'e2e-key' });
      room = await new Room(join(dir, 'bin'), { spec, aplayStartupMs: [47, 185, 90, 120] }).start();
      wallT0.room = Date.now() - room.now() / 16;
      const rules = [
        { prefix: ['computer'], do: { push: 'query' } },
        { exact: ['tell me the recipe'], do: { say: RECIPE } },
        { exact: ['tell me briefly'], do: { say: SHORT_ANSWER } },
        { exact: ['stop', 'stop talking'], do: { action: 'stop' } },
      ];
      const yaml = `actions:\n  dataDir: ${JSON.stringify(dir)}\n  timers:\n    ringEveryMs: 2000\n    giveUpMs: ${QUICK ? 15000 : 60000}\necho:\n  mode: cancel\n  fallback: ${process.env.ECHO_FALLBACK ?? 'off'}\n${process.env.ECHO_FILTER_MS ? `  filterMs: ${process.env.ECHO_FILTER_MS}\n` : ''}${process.env.ECHO_LEAD_MS ? `speech:\n  playerLeadMs: ${process.env.ECHO_LEAD_MS}\n` : ''}router:\n  frames:\n    base:\n      rules: ${JSON.stringify(rules)}\n`;
      // HARK_ECHO_CLOCKS=1: the install step first (`hark clocks`, the same cards and store), so hark starts from the skew.
      if (CLOCKS) {
        writeFileSync(join(dir, 'hark.yaml'), yaml);
        const measured = await harkClocks(room, dir, 120, ['--stt-mode', 'cloud-only', '--deepgram-url', deepgram.url]);
        writeFileSync(join(dir, 'clocks.txt'), `${measured.out}\n---\n${measured.err}`);
        if (measured.code !== 0) throw new Error(`hark clocks failed: ${measured.out}`);
      }
      hark = await startHarkInRoom(room, dir, deepgram.url, yaml);

      // A timer for 40 s, then the recipe: the answer (~30 s), then the ring (60 s), nobody speaking.
      await command('computer set a timer for forty seconds', 'computer set a timer for 40 seconds');
      await hark.waitFor((e) => e.type === 'speak.end' && e.kind === 'speech', 20_000, 'the confirmation'); // not the listening earcon before it
      await quiet(800);
      await command(QUICK ? 'tell me briefly' : 'tell me the recipe', QUICK ? 'tell me briefly' : 'tell me the recipe');
      const opensBefore = hark.of('segment.open').length;
      const answerStart = Date.now();
      await hark.waitFor(
        (e) => e.type === 'speak.end' && String(e.text ?? '').startsWith(QUICK ? 'Preheat' : 'Here is the recipe'),
        60_000,
        'the answer to end',
      );
      answerMs = Date.now() - answerStart;
      quietSegments.push(hark.of('segment.open').length - opensBefore);
      await hark.waitFor((e) => e.type === 'timer' && e.event === 'done', 30_000, 'the timer to ring');
      const ringStart = Date.now();
      const opensBeforeRing = hark.of('segment.open').length;
      await hark.waitFor((e) => e.type === 'timer' && e.event === 'gave-up', 75_000, 'the ring to give up');
      ringMs = Date.now() - ringStart;
      quietSegments.push(hark.of('segment.open').length - opensBeforeRing);

      // "stop" over a ring.
      deepgram.script = [];
      const fromT = hark.events.length;
      await command('computer set a timer for five seconds', 'computer set a timer for 5 seconds');
      await hark.waitFor((e) => e.type === 'timer' && e.event === 'done' && hark.events.indexOf(e) >= fromT, 30_000, 'the second timer to ring');
      await quiet(4500);
      stops.push(await sayStop('ring', () => hark.events.some((e) => e.type === 'timer' && e.event === 'stopped' && hark.events.indexOf(e) >= fromT)));

      // "stop" over a long answer.
      await quiet(1500);
      await command('tell me briefly', 'tell me briefly');
      await hark.waitFor((e) => e.type === 'speak.start' && String(e.text ?? '').startsWith('Preheat'), 20_000, 'the answer to start');
      await quiet(3000);
      const stoppedBefore = hark.of('speak.stopped').length;
      stops.push(await sayStop('answer', () => hark.of('speak.stopped').length > stoppedBefore));
    }, 400_000);

    async function sayStop(over: string, stopped: () => boolean): Promise<(typeof stops)[number]> {
      const level = echoLevel();
      const word = await personSays('stop', 'stop', level / 2);
      const from = hark.events.length;
      const open = await hark
        .waitFor((e) => e.type === 'segment.open' && hark.events.indexOf(e) >= from, 10_000, `a segment for "stop" over the ${over}`)
        .catch(() => null);
      const i = open ? hark.events.indexOf(open) : -1;
      await quiet(3000);
      return {
        over,
        wordCaptureMs: room.captureMs(word.start),
        wordWall: word.wall,
        openVadMs: open ? Number(open.vadStartMs) : null,
        openWall: i >= 0 ? hark.receivedAt[i]! : null,
        roomAloneMs: await roomAloneMs(room, word.start),
        stopped: stopped(),
      };
    }

    afterAll(async () => {
      const dir = outDir();
      if (hark) writeFileSync(join(dir, 'stderr.log'), hark.stderr.join('\n') + '\n');
      writeFileSync(
        join(dir, 'numbers.json'),
        JSON.stringify({ quietSegments, answerMs, ringMs, stops, roomUnderruns: room?.underruns.map((u) => Math.round(u.lateMs)) }, null, 2),
      );
      // What hark said it did and when (ms after the room started), for reading a leak against what it played.
      if (hark)
        writeFileSync(
          join(dir, 'events.jsonl'),
          hark.events.map((e, i) => JSON.stringify({ atMs: Math.round(hark.receivedAt[i]! - wallT0.room), ...e })).join('\n') + '\n',
        );
      hark?.kill('SIGKILL');
      await deepgram?.close();
      await room?.close();
    });

    it('hark read a 30 s answer and a timer rang 60 s with nobody speaking: no segment opened', () => {
      expect(answerMs).toBeGreaterThan(QUICK ? 8_000 : 20_000);
      expect(ringMs).toBeGreaterThan(QUICK ? 12_000 : 50_000);
      expect(quietSegments).toEqual([0, 0]);
    });

    it.each(['ring', 'answer'])(
      '"stop" 6 dB below the echo over the %s: its segment opens within 300 ms of the word (or a frame after the room alone), and it stops',
      (over) => {
        const s = stops.find((x) => x.over === over)!;
        expect(s.openVadMs).not.toBeNull();
        // On the capture timeline (the machine's load does not move it): the VAD's start of speech, plus
        // the speech it needs before opening (vad.minSpeechMs, 96 ms), is within 300 ms of the word, or
        // within one 32 ms frame of the same word in the room with hark silent where that takes longer.
        expect(s.openVadMs! + VAD.minSpeechMs - s.wordCaptureMs).toBeLessThanOrEqual(stopAllowedMs(s.roomAloneMs));
        expect(s.openVadMs!).toBeGreaterThanOrEqual(s.wordCaptureMs - 100);
        expect(s.stopped).toBe(true);
      },
    );
  },
);
