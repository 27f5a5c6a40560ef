import { Ollama } from 'ollama';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keepAliveValue, OllamaClient } from '../../src/intent/ollama-client.js';
import { ModelUnavailable } from '../../src/intent/proposal-model.js';
import { startOllamaDouble, type OllamaDouble } from '../support/ollama-server.js';

let ollama: OllamaDouble;
beforeEach(async () => {
  ollama = await startOllamaDouble();
  ollama.on('milk', { verb: 'add_to_list', object: '3 cases of milk' });
});
afterEach(() => ollama.close());

const client = (over: Partial<ConstructorParameters<typeof OllamaClient>[0]> = {}) =>
  new OllamaClient({
    host: ollama.url,
    model: 'qwen2.5:0.5b-instruct',
    keepAlive: '30m',
    timeoutMs: 1000,
    retries: 2,
    backoffMs: 50,
    warmUpTimeoutMs: 1000,
    ...over,
  });

describe('the double speaks Ollama as documented (checked with the ollama package itself)', () => {
  it('streams /api/chat as NDJSON pieces ending in a done record with its durations', async () => {
    const parts = [];
    for await (const p of await new Ollama({ host: ollama.url }).chat({
      model: 'qwen2.5:0.5b-instruct',
      messages: [{ role: 'user', content: 'add milk' }],
      stream: true,
    }))
      parts.push(p);
    expect(parts.map((p) => p.message.content).join('')).toBe('{"verb":"add_to_list","object":"3 cases of milk"}');
    expect(parts.at(-1)).toEqual(
      expect.objectContaining({
        done: true,
        done_reason: 'stop',
        total_duration: expect.any(Number),
        load_duration: expect.any(Number),
        prompt_eval_count: expect.any(Number),
        eval_count: expect.any(Number),
        eval_duration: expect.any(Number),
      }),
    );
    expect(parts.slice(0, -1).every((p) => p.done === false)).toBe(true);
  });

  it('answers /api/generate streamed and whole, and an empty request loads the model', async () => {
    const api = new Ollama({ host: ollama.url });
    const whole = await api.generate({ model: 'qwen2.5:0.5b-instruct', prompt: 'add milk', stream: false });
    expect(whole).toEqual(
      expect.objectContaining({ response: '{"verb":"add_to_list","object":"3 cases of milk"}', done: true, eval_count: expect.any(Number) }),
    );
    let text = '';
    for await (const p of await api.generate({ model: 'qwen2.5:0.5b-instruct', prompt: 'add milk', stream: true })) text += p.response;
    expect(text).toBe(whole.response);
    expect(await api.chat({ model: 'qwen2.5:0.5b-instruct', messages: [] })).toEqual(expect.objectContaining({ done: true, done_reason: 'load' }));
  });

  it('a cut stream is an error to the package, as from a real server', async () => {
    ollama.fail('cut');
    const run = async () => {
      for await (const _ of await new Ollama({ host: ollama.url }).chat({
        model: 'qwen2.5:0.5b-instruct',
        messages: [{ role: 'user', content: 'x' }],
        stream: true,
      }))
        void _;
    };
    await expect(run()).rejects.toThrow();
  });
});

describe('the Ollama client', () => {
  it('reports what answered and how long it took', async () => {
    const r = await client().propose([{ role: 'user', content: 'add milk' }], { type: 'object' });
    expect(r).toEqual({
      content: '{"verb":"add_to_list","object":"3 cases of milk"}',
      model: 'qwen2.5:0.5b-instruct',
      latencyMs: expect.any(Number),
      attempts: 1,
    });
  });

  it('warms up with an empty chat carrying keep_alive; -1 goes as a number (keep loaded)', async () => {
    await client({ keepAlive: '-1' }).warmUp();
    expect(ollama.requests[0]!.body).toEqual({ model: 'qwen2.5:0.5b-instruct', messages: [], stream: false, keep_alive: -1 });
    expect(keepAliveValue('30m')).toBe('30m');
  });

  it('names the kind of failure: missing model (not retried), server error and cut body (retried)', async () => {
    const kind = async (fault: Parameters<OllamaDouble['fail']>[0]) => {
      ollama.fail(fault, Infinity);
      const e = (await client()
        .propose([{ role: 'user', content: 'x' }], {})
        .catch((err: unknown) => err)) as ModelUnavailable;
      ollama.clearFaults();
      return [e.kind, e.attempts];
    };
    expect(await kind('model-missing')).toEqual(['model-missing', 1]);
    expect(await kind('http-500')).toEqual(['server-error', 3]);
    expect(await kind('cut')).toEqual(['bad-response', 3]);
  });

  it('lists models and the version for hark doctor', async () => {
    expect(await client().models()).toEqual([{ name: 'qwen2.5:0.5b-instruct', size: 397_821_319 }]);
    expect(await client().version()).toBe('0.6.5');
  });
});
