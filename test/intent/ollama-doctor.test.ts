import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { validateConfig } from '../../src/config/load.js';
import type { DoctorContext } from '../../src/doctor/check.js';
import { ollamaCheck } from '../../src/doctor/ollama.js';
import { startOllamaDouble, type OllamaDouble } from '../support/ollama-server.js';
import { closedUrl } from '../support/http-double.js';

let ollama: OllamaDouble;
beforeEach(async () => {
  ollama = await startOllamaDouble();
});
afterEach(() => ollama.close());

function ctx(intent: Record<string, unknown>): DoctorContext {
  return {
    loaded: { config: validateConfig({ intent }, 't'), source: null, secrets: {} },
    configError: null,
    env: {},
    exec: async () => ({ code: 0, stdout: '', stderr: '' }),
  };
}

describe('hark doctor: Ollama', () => {
  it('ok when Ollama answers and the model is pulled', async () => {
    expect(await ollamaCheck.run(ctx({ host: ollama.url }))).toEqual({
      status: 'ok',
      detail: `Ollama 0.6.5 at ${ollama.url}; qwen2.5:0.5b-instruct pulled, 0.4 GB`,
    });
  });

  it('fails with the pull command when the model is missing', async () => {
    const r = await ollamaCheck.run(ctx({ host: ollama.url, model: 'llama3.2:1b' }));
    expect(r).toEqual({
      status: 'fail',
      detail: 'Ollama 0.6.5 is up, but llama3.2:1b is not pulled (pulled: qwen2.5:0.5b-instruct)',
      fix: 'ollama pull llama3.2:1b',
    });
  });

  it('warns, with how to install it, when nothing answers', async () => {
    const host = await closedUrl();
    const r = await ollamaCheck.run(ctx({ host }));
    expect(r.status).toBe('warn');
    expect(r.detail).toContain(`no Ollama at ${host}`);
    expect(r.fix).toContain('ollama pull qwen2.5:0.5b-instruct');
  });

  it('says so when the pass is turned off', async () => {
    expect(await ollamaCheck.run(ctx({ enabled: false }))).toEqual({ status: 'ok', detail: 'intent pass off (intent.enabled: false)' });
  });
});
