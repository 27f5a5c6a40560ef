import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfigText } from '../../src/config/load.js';
import { Bus } from '../../src/core/bus.js';
import { SystemClock } from '../../src/core/clock.js';
import { createLogger } from '../../src/core/log.js';
import { Conversation } from '../../src/path/conversation.js';
import { PickingRuntime } from '../../src/picking/runtime.js';
import { SqliteLedger } from '../../src/picking/sqlite-ledger.js';
import { createSpeech } from '../../src/speech/create.js';
import { openDatabase } from '../../src/store/open.js';
import { assignment, scratch } from './sim.js';

/**
 * "faster" and "slower" through the device's own chain: the picking frame on the command side, hark's
 * voice (the queue, the real espeak-ng, aplay to ALSA's null device) and the ledger in a SQLite file.
 * espeak-ng is reached through a wrapper on PATH that writes down its arguments and runs the real one.
 */
const dir = scratch('rate');
const argsLog = join(dir, 'espeak-args.txt');
let savedPath: string | undefined;

beforeAll(() => {
  const wrapper = join(dir, 'espeak-ng');
  writeFileSync(wrapper, `#!/bin/sh\necho "$*" >> '${argsLog}'\nexec /usr/bin/espeak-ng "$@"\n`);
  chmodSync(wrapper, 0o755);
  writeFileSync(argsLog, '');
  savedPath = process.env.PATH;
  process.env.PATH = `${dir}:${savedPath}`;
});
afterAll(() => {
  process.env.PATH = savedPath;
});

/** One "device": a fresh command side and voice on the ledger file in `dir` (a second one is a restart). */
function device() {
  const config = parseConfigText(
    'speech:\n  device: "null"\n  cacheEntries: 0\npicking:\n  enabled: true\n  rate: {start: 170, min: 130, max: 250, step: 40}\n',
    'hark.yaml',
  );
  const bus = new Bus();
  const clock = new SystemClock();
  const log = createLogger({ level: 'error' });
  const starts: { text: string; durationMs: number }[] = [];
  bus.on('speak.start', (e) => starts.push({ text: e.text, durationMs: e.durationMs }));
  const speech = createSpeech(config, { bus, clock });
  const conversation = new Conversation({ config, bus, clock, log, store: null, speech });
  const { db } = openDatabase(join(dir, 'picking.db'), { recoverCorrupt: false });
  const runtime = new PickingRuntime({ config: config.picking, router: conversation.commands.core.router, ledger: new SqliteLedger(db, 'dock'), clock, log });
  let n = 0;
  /**
   * Say a line and wait until hark's answer (one line here) starts to sound: its length is known
   * then, and the rest of it is cut short so the test does not wait out every prompt in real time.
   */
  const say = async (text: string) => {
    await settled();
    const from = starts.length;
    await conversation.dispatch({ id: `u${++n}`, text, rawText: text, engine: 'text', atMs: clock.now() });
    await settled();
    return starts.slice(from);
  };
  const settled = async () => {
    while (speech.queue.busy && !speech.queue.isSpeaking) await new Promise((r) => setTimeout(r, 10));
    speech.queue.stop('next line');
  };
  const close = () => {
    conversation.dispose();
    speech.close();
    db.close();
  };
  return { say, runtime, close };
}

const speeds = () =>
  readFileSync(argsLog, 'utf8')
    .trim()
    .split('\n')
    .map((l) => Number(/-s (\d+)/.exec(l)?.[1]));

describe("the picker's speaking rate", () => {
  it('"faster" makes the next prompt faster at espeak-ng and shorter, and the rate stays with the operator across a restart', async () => {
    const first = device();
    first.runtime.offer(assignment('R1', 3));
    await first.say('sign on');
    await first.say('one two');
    writeFileSync(argsLog, '');
    const before = await first.say('say again');
    expect(speeds()).toEqual([170]);
    await first.say('faster');
    writeFileSync(argsLog, '');
    const after = await first.say('say again');
    expect(speeds()).toEqual([210]);
    expect(after[0]!.text).toBe(before[0]!.text);
    // The same words at 210 words a minute against 170: shorter by about the ratio.
    expect(after[0]!.durationMs).toBeLessThan(before[0]!.durationMs * 0.92);
    first.close();

    const second = device();
    writeFileSync(argsLog, '');
    const resumed = await second.say('say again');
    expect(resumed[0]!.text).toMatch(/^Resuming the assignment\./);
    // The resuming prompt said at start and said again: both at the operator's kept rate.
    expect(speeds()).toContain(210);
    expect(speeds().every((s) => s === 210)).toBe(true);
    // ...and "slower" from there goes down a step from the kept rate, not from the start.
    await second.say('slower');
    writeFileSync(argsLog, '');
    await second.say('say again');
    expect(speeds()).toEqual([170]);
    second.close();
  }, 30_000);
});
