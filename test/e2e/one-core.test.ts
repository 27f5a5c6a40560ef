import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { simulate, type SimResult } from '../conversation/sim.js';
import { DeepgramDouble } from '../support/deepgram-server.js';
import { HarkProcess } from '../support/hark-process.js';
import { startOllamaDouble, type OllamaDouble } from '../support/ollama-server.js';
import { HARK_BIN, ROOT, outputDir } from '../support/paths.js';
import { scene, writeScene } from '../support/speech.js';

/**
 * What a technician simulates is what the device runs. The same two utterances — a
 * request the rules leave to the model, then "yes" — go through a real `hark run` (a recording paced
 * like a microphone, Deepgram's double hearing the words), through `hark simulate` and through
 * `hark replay` of the run's own log, with the model answering in 400 ms. All three build the command
 * side with one builder, so all three ask the model at 0.5 s and say its question about 2 s after the
 * words (it was 4 s in simulate: the query's silence timer), and act on the "yes" alike.
 */
const REQUEST = 'computer we are short three cases of milk for the order list';
const QUESTION = 'Add three cases of milk to the order list? Say yes or no.';
const DONE = 'Added three cases of milk to the order list.';
const HANGOVER_MS = 600;

let ollama: OllamaDouble;
let deepgram: DeepgramDouble;
let hark: HarkProcess;
let dir: string;
let sim: SimResult;
let replayed: Record<string, unknown>[];

function replay(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [HARK_BIN, 'replay', ...args], { cwd: ROOT, env: { ...process.env, HARK_CONFIG: '' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => (clearTimeout(timer), resolve({ code, stdout, stderr })));
  });
}

beforeAll(async () => {
  dir = outputDir('e2e-one-core');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  ollama = await startOllamaDouble({ delayMs: 400 });
  ollama.on('milk', { verb: 'add_to_list', object: '3 cases of milk' });
  const yaml = join(dir, 'hark.yaml');
  writeFileSync(yaml, `actions:\n  dataDir: ${JSON.stringify(dir)}\nspeech:\n  device: "null"\nintent:\n  host: ${JSON.stringify(ollama.url)}\n`);

  // The device: the words end, the question follows, "yes" 4.5 s after the request.
  const s = await scene([1000, REQUEST, 4500, 'yes', 3000]);
  const wav = await writeScene(s, 'one-core');
  deepgram = await DeepgramDouble.start({ apiKey: 'e2e-key' });
  deepgram.script = [{ text: REQUEST }, { text: 'yes' }];
  const db = join(dir, 'hark.db');
  hark = new HarkProcess(['--db', db, '--port', '0', '--stt-mode', 'cloud-only', '--deepgram-url', deepgram.url, '--input', wav, '--exit-at-end'], {
    ...process.env,
    DEEPGRAM_API_KEY: 'e2e-key',
    HARK_CONFIG: yaml,
  });
  await Promise.race([
    hark.exited,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`hark did not finish; stderr:\n${hark.stderr.slice(-20).join('\n')}`)), 90_000)),
  ]);

  // The technician's two tools, on the same words.
  sim = await simulate(`${REQUEST}\n{"text":"yes","atMs":5500}\n`, { args: ['--ollama', ollama.url, '--config', yaml], drainMs: null, timeoutMs: 30_000 });
  const r = await replay(['--db', db, '--config', yaml, '--text-only', '--ollama', ollama.url, '--json', '--all']);
  expect(r.code, r.stderr).toBe(0);
  replayed = r.stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => l.type !== 'summary');
}, 200_000);

afterAll(async () => {
  hark?.kill('SIGKILL');
  await deepgram?.close();
  await ollama?.close();
});

describe('one command core for hark run, hark simulate and hark replay', () => {
  it('hark run: the question about 2 s after the words, then the action on "yes"', () => {
    const spoken = hark.of('speak').map((e) => e.text);
    expect(spoken).toEqual(expect.arrayContaining([QUESTION, DONE]));
    expect(hark.of('action').map((e) => e.name)).toEqual(['list.add']);
    // The words ended a hangover before the close; the question event arrives ~2 s after them.
    const i = hark.events.findIndex((e) => e.type === 'segment.closed');
    const q = hark.events.findIndex((e) => e.type === 'speak' && e.text === QUESTION);
    const afterWords = hark.receivedAt[q]! - (hark.receivedAt[i]! - HANGOVER_MS);
    expect(afterWords).toBeGreaterThan(1700);
    expect(afterWords).toBeLessThan(2900);
  });

  it('hark simulate: the same question 2 s after the words (not at the query’s 4 s), the same action', () => {
    expect(sim.status).toBe(0);
    const heard = sim.of('heard')[0]!;
    const question = sim.of('speak').find((l) => l.text === QUESTION)!;
    expect(Number(question.atMs) - Number(heard.atMs)).toBe(2000);
    expect(sim.spoken()).toEqual(hark.of('speak').map((e) => e.text));
    expect(sim.actions().map((a) => a.name)).toEqual(hark.of('action').map((e) => e.name));
  });

  it('hark replay of the run’s own log: the same words said at the same moments, the same action', () => {
    expect(replayed).toHaveLength(2);
    const [request, yes] = replayed.map((r) => r.new as { said: string[]; saidAfterMs: number[]; actions: { name: string }[] });
    expect(request!.said).toEqual([QUESTION]);
    expect(request!.saidAfterMs).toEqual([2000]);
    expect(yes!.said).toEqual([DONE]);
    expect([...request!.actions, ...yes!.actions].map((a) => a.name)).toEqual(['list.add']);
    // And the model was asked once per run of the request, never later by the query's silence timer.
    expect(ollama.chats.filter((c) => c.lastUser.includes('milk'))).toHaveLength(3);
  });
});
