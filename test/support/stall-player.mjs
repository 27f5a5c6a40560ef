// A hark player in a process of its own whose main thread is then blocked (a busy loop), as hark's event
// loop stalls on a loaded machine. Run from test/speech/aplay-stream-thread.test.ts, against the built
// code (dist/): the feeding thread runs that. Prints one JSON line: what was reported late, how often the
// reference's timeline moved, and the onsets of the bursts in the reference, in wall-clock ms.
// Usage: node stall-player.mjs <thread|main> <aplay bin> <leadMs> <blockAtMs> <blockMs>
import { AplayPlayer } from '../../dist/speech/aplay.js';
import { AplayStream } from '../../dist/speech/aplay-stream.js';
import { EchoReference } from '../../dist/echo/reference.js';
import { SystemClock } from '../../dist/core/clock.js';

const [mode, bin, leadMs, blockAtMs, blockMs] = process.argv.slice(2);
const BURSTS = 12;
// 100 ms of tone then 200 ms of exact silence, twelve times (3.6 s): each burst's onset is a landmark.
const clip = new Int16Array(BURSTS * 300 * 16);
for (let b = 0; b < BURSTS; b++) for (let i = 0; i < 1600; i++) clip[b * 4800 + i] = Math.round(Math.sin((2 * Math.PI * 440 * i) / 16000 + 1) * 8000);

const reference = new EchoReference();
const late = [];
const onLate = (ms) => late.push(ms);
const options = {
  device: 'default',
  sampleRate: 16000,
  leadMs: Number(leadMs),
  tickMs: 20,
  idleCloseMs: 60000,
  stallMs: 3000,
  backoffMs: 250,
  backoffMaxMs: 5000,
  bin,
};
const player =
  mode === 'thread'
    ? new AplayPlayer({ device: 'default', bin, leadMs: Number(leadMs), reference: reference, onLate })
    : new AplayStream({ ...options, clock: new SystemClock(), reference: reference, onLate });

const t0 = performance.now();
const pb = player.play(clip);
await pb.started;
await new Promise((r) => setTimeout(r, Number(blockAtMs)));
const until = performance.now() + Number(blockMs);
while (performance.now() < until);
const result = await pb.done;
await new Promise((r) => setTimeout(r, 300));
const t1 = performance.now();
player.close();

const from = Math.round(t0 * 16);
const ref = new Int16Array(Math.round(t1 * 16) - from);
reference.render(from, ref);
const onsets = [];
let silent = 1600;
for (let i = 0; i < ref.length; i++) {
  if (ref[i] !== 0) {
    if (silent >= 1600) onsets.push(performance.timeOrigin + (from + i) / 16);
    silent = 0;
  } else silent++;
}
console.log(JSON.stringify({ result, late, moves: reference.timelineMoves, onsets }));
process.exit(0);
