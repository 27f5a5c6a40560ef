import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OllamaClient } from '../../src/intent/ollama-client.js';
import { ModelUnavailable } from '../../src/intent/proposal-model.js';
import { startOllamaDouble, type Fault, type OllamaDouble } from '../support/ollama-server.js';
import { intentHarness, type IntentHarness } from './ollama-harness.js';
import { closedUrl } from '../support/http-double.js';

/**
 * Ollama down, slow, missing its model or talking nonsense: the person hears one line per outage,
 * hark stops asking for a while, and everything else (rules, timers) keeps working. Every fault
 * runs with a short intent timeout so a test is bounded by it, not by the 6 s default.
 */
let ollama: OllamaDouble;
beforeEach(async () => {
  ollama = await startOllamaDouble();
  ollama.on('three cases of milk', { verb: 'add_to_list', object: '3 cases of milk' });
});
afterEach(() => ollama.close());

const UNAVAILABLE = "I can't reach the intent model.";
const STILL_AWAY = 'The intent model is still away.';
/** Short enough to keep each test quick, long enough that a busy CI core still gets a retry in. */
const FAST = { timeoutMs: 1000, retries: 2, backoffMs: 50 };

/** After a fault: the timer rule still works, straight away. */
async function stillRouting(h: IntentHarness): Promise<void> {
  await h.script('computer set a timer for ten minutes');
  expect(h.spoken().at(-1)).toBe('Timer set for 10 minutes.');
  expect(h.stack()).toEqual(['base']);
}

describe('faults leave hark answering and routing', () => {
  it.each<[Fault, string]>([
    ['http-500', 'HTTP 500: llama runner process has terminated: exit status 2'],
    ['model-missing', 'not found, try pulling it first'],
    ['hang', 'no answer within 1000 ms'],
    ['cut', 'the answer was cut off mid-way'],
  ])('%s: one spoken line, the request kept in the file, routing carries on', async (fault, logged) => {
    const h = intentHarness({ host: ollama.url, config: { intent: FAST } });
    ollama.fail(fault, Infinity);
    await h.request('we are short three cases of milk for the order list');
    expect(h.spoken()).toEqual([UNAVAILABLE]);
    expect(h.of('proposal')).toEqual([]);
    // Not lost: the query went to its own target instead.
    expect(h.memory.get('file')!.got).toEqual([expect.objectContaining({ frame: 'query', text: 'we are short three cases of milk for the order list' })]);
    expect(h.of('delivered')).toEqual([expect.objectContaining({ target: 'intent', detail: expect.stringContaining('intent model unavailable') })]);
    expect(h.logs()).toContainEqual(expect.objectContaining({ level: 'warn', msg: 'intent model unavailable', error: expect.stringContaining(logged) }));
    await stillRouting(h);
  });

  it.each<[Fault, string]>([
    ['non-json', 'the reply is not JSON'],
    ['wrong-schema', 'the reply has no "verb"'],
  ])('%s: the model answered, so it is AMBIGUOUS (not an outage)', async (fault, reason) => {
    const h = intentHarness({ host: ollama.url, config: { intent: FAST } });
    ollama.fail(fault);
    await h.request('we are short three cases of milk for the order list');
    expect(h.of('ambiguous')).toEqual([expect.objectContaining({ reason: expect.stringContaining(reason) })]);
    expect(h.spoken()).not.toContain(UNAVAILABLE);
    await h.script('never mind');
    await stillRouting(h);
  });

  it('a model that is not pulled is reported with the command that fixes it', async () => {
    const h = intentHarness({ host: ollama.url, config: { intent: { ...FAST, model: 'llama3.2:1b' } } });
    await h.request('we are short three cases of milk for the order list');
    expect(h.spoken()).toEqual([UNAVAILABLE]);
    expect(h.logs()).toContainEqual(expect.objectContaining({ msg: 'intent model unavailable', hint: 'the model is not pulled: ollama pull llama3.2:1b' }));
    // Not retried: asking again cannot pull a model.
    expect(ollama.requests.filter((r) => r.path === '/api/chat')).toHaveLength(1);
  });

  it('Ollama not running at all: one line, and the file target keeps the request', async () => {
    const h = intentHarness({ host: await closedUrl(), config: { intent: FAST } });
    await h.request('we are short three cases of milk for the order list');
    expect(h.spoken()).toEqual([UNAVAILABLE]);
    expect(h.memory.get('file')!.got).toHaveLength(1);
    await stillRouting(h);
  });

  it('says it in full once per outage and briefly for every later request, stops asking for 30 s, then tries again and recovers', async () => {
    const h = intentHarness({ host: ollama.url, config: { intent: FAST } });
    ollama.fail('http-500', Infinity);
    await h.request('we are short three cases of milk for the order list');
    const calls = ollama.chats.length;
    expect(calls).toBeGreaterThan(1); // retried within the deadline

    // Within the 30 s the breaker is open: no call, no second full apology, but each request is
    // answered (a cook must not believe it went through).
    await h.request('we are short three cases of milk for the order list');
    await h.request('we are short three cases of milk for the order list');
    expect(ollama.chats.length).toBe(calls);
    expect(h.spoken().filter((s) => s === UNAVAILABLE)).toHaveLength(1);
    expect(h.spoken().filter((s) => s === STILL_AWAY)).toHaveLength(2);
    expect(h.memory.get('file')!.got).toHaveLength(3);

    // After 30 s one probe; still failing: same outage, the brief line.
    h.clock.advanceBy(30_000);
    await h.request('we are short three cases of milk for the order list');
    expect(ollama.chats.length).toBeGreaterThan(calls);
    expect(h.spoken().filter((s) => s === UNAVAILABLE)).toHaveLength(1);
    expect(h.spoken().filter((s) => s === STILL_AWAY)).toHaveLength(3);

    // Back up: the next request after the open period gets a proposal.
    ollama.clearFaults();
    h.clock.advanceBy(30_000);
    await h.request('we are short three cases of milk for the order list');
    expect(h.of('proposal')).toHaveLength(1);
    await h.script('yes');

    // A new outage is a new announcement.
    ollama.fail('hang', Infinity);
    await h.request('we are short three cases of milk for the order list');
    expect(h.spoken().filter((s) => s === UNAVAILABLE)).toHaveLength(2);
  });

  it('with the model away, what the rules can do never depends on it: lists and timers said the kitchen way just work', async () => {
    const h = intentHarness({ host: await closedUrl(), config: { intent: FAST } });
    await h.script('computer add eggs to the shopping list', 'computer put three pints of milk on the order list', 'computer set a timer for ten minutes');
    expect(h.spoken()).toEqual(['Added eggs to the shopping list.', 'Added three pints of milk to the order list.', 'Timer set for 10 minutes.']);
    expect(h.lists.lines('shopping')).toEqual([expect.objectContaining({ item: 'eggs' })]);
    expect(h.memory.get('file')!.got).toEqual([]);
    expect(h.stack()).toEqual(['base']);
  });

  it('a 500 that passes is retried within the deadline, and the person never hears of it', async () => {
    const h = intentHarness({ host: ollama.url, config: { intent: FAST } });
    ollama.fail('http-500', 1);
    await h.request('we are short three cases of milk for the order list');
    expect(h.of('proposal')).toHaveLength(1);
    expect(h.spoken()).not.toContain(UNAVAILABLE);
    expect(ollama.chats).toHaveLength(2);
  });
});

describe('the hard timeout', () => {
  const client = (host: string, timeoutMs: number) =>
    new OllamaClient({ host, model: 'qwen2.5:0.5b-instruct', keepAlive: '30m', timeoutMs, retries: 2, backoffMs: 100, warmUpTimeoutMs: 1000 });

  // Real time, measured loosely: the bound the issue asks for is "within 100 ms of its setting".
  it.each<Fault>(['hang', 'http-500'])('is honoured within 100 ms of its setting (%s)', async (fault) => {
    ollama.fail(fault, Infinity);
    const started = performance.now();
    const err = await client(ollama.url, 300)
      .propose([{ role: 'user', content: 'add milk' }], {})
      .catch((e: unknown) => e);
    const took = performance.now() - started;
    expect(err).toBeInstanceOf(ModelUnavailable);
    expect(took).toBeLessThan(400);
    if (fault === 'hang') expect(took).toBeGreaterThanOrEqual(290);
  });

  it('covers a slow model, not just a silent server', async () => {
    ollama.delayMs = 2000;
    const started = performance.now();
    const err = (await client(ollama.url, 300)
      .propose([{ role: 'user', content: 'add milk' }], {})
      .catch((e: unknown) => e)) as ModelUnavailable;
    expect(performance.now() - started).toBeLessThan(400);
    expect(err.kind).toBe('timeout');
    expect(err.message).toContain('no answer within 300 ms');
  });

  it("stops at the caller's signal too (a classifier rule's own timeout)", async () => {
    ollama.fail('hang', Infinity);
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 100);
    const started = performance.now();
    const err = (await client(ollama.url, 5000)
      .propose([{ role: 'user', content: 'x' }], {}, ac.signal)
      .catch((e: unknown) => e)) as Error;
    expect(performance.now() - started).toBeLessThan(300);
    expect(err.name).toBe('ModelCallAborted');
  });
});
