import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startOllamaDouble, type OllamaDouble } from '../support/ollama-server.js';
import { intentHarness } from './ollama-harness.js';

/** IntentPass.prepare asks the model ahead of the submission (the first timer). */
let ollama: OllamaDouble;
beforeEach(async () => {
  ollama = await startOllamaDouble();
  ollama.on('three cases of milk', { verb: 'add_to_list', object: '3 cases of milk' });
});
afterEach(() => ollama.close());

const MILK = 'we are short three cases of milk for the order';
const QUESTION = 'Add three cases of milk to the shopping list? Say yes or no.';

describe('the intent pass asked ahead (prepare)', () => {
  it('returns the question hark will say, says and records nothing; the submission of the same words uses that reply', async () => {
    const h = intentHarness({ host: ollama.url });
    const prepared = await h.pass.prepare(MILK, new AbortController().signal);
    expect(prepared).toEqual({ spoken: QUESTION });
    expect(h.spoken()).toEqual([]);
    expect(h.of('proposal')).toEqual([]);
    await h.request(MILK);
    expect(h.spoken()).toEqual([QUESTION]);
    expect(ollama.chats).toHaveLength(1);
  });

  it('aborted before it is submitted (the person went on): not used; other words are asked about afresh', async () => {
    const h = intentHarness({ host: ollama.url });
    const stop = new AbortController();
    const prepared = h.pass.prepare(MILK, stop.signal);
    stop.abort(new Error('speech'));
    expect(await prepared).toEqual({ spoken: null });
    await h.request(MILK);
    expect(h.spoken()).toEqual([QUESTION]);
    // The aborted call may or may not have reached the model; the submission asked again.
    expect(ollama.chats.length).toBeGreaterThanOrEqual(1);
    expect(h.of('proposal')).toHaveLength(1);
  });

  it('a submission of different words does not use it', async () => {
    const h = intentHarness({ host: ollama.url });
    await h.pass.prepare('add three cases of milk', new AbortController().signal);
    await h.request(MILK);
    expect(ollama.chats.map((c) => c.lastUser)).toEqual(['add three cases of milk', MILK]);
  });
});
