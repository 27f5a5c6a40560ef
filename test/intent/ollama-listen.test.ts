import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startOllamaDouble, type OllamaDouble } from '../support/ollama-server.js';
import { intentHarness } from './ollama-harness.js';

/**
 * Always-listen mode: hark hears the whole kitchen. What nobody's rule claimed goes through the
 * query frame to the pass, which reads it with the window: earlier speech as context,
 * duplicates suppressed, at most one model call per 2 s, and silence when the model finds nothing.
 */
let ollama: OllamaDouble;
beforeEach(async () => {
  ollama = await startOllamaDouble();
  ollama.on('milk', { verb: 'add_to_list', object: '3 cases of milk' });
});
afterEach(() => ollama.close());

const listening = () => intentHarness({ host: ollama.url, config: { router: { mode: 'always-listen' } } });
/** Something said, then the query's 4 s of silence, which submits it. */
async function overheard(h: ReturnType<typeof listening>, text: string): Promise<void> {
  h.say(text);
  await h.settle();
  h.clock.advanceBy(4000);
  await h.settle();
}

describe('always-listen: the two-buffer window', () => {
  it('chatter the model finds nothing in is recorded as ambiguous, and hark stays quiet', async () => {
    const h = listening();
    await overheard(h, 'how was your weekend');
    expect(h.of('ambiguous')).toEqual([expect.objectContaining({ reason: 'the model did not recognise a request' })]);
    expect(h.spoken()).toEqual([]);
    expect(h.stack()).toEqual(['base']);
  });

  it('sends earlier speech as context and only the new text to classify', async () => {
    const h = listening();
    await overheard(h, 'the delivery came in short today');
    h.clock.advanceBy(5000);
    await overheard(h, 'put three cases of milk on the order');
    expect(ollama.chats.at(-1)!.lastUser).toBe(
      'Previous context:\nthe delivery came in short today\n\nCurrent transcript to analyze:\nput three cases of milk on the order',
    );
    expect(h.spoken()).toEqual(['Add three cases of milk to the shopping list? Say yes or no.']);
  });

  it('a request confirmed with "yes" and heard again within 30 s is not proposed twice', async () => {
    const h = listening();
    await overheard(h, 'we need three cases of milk');
    await h.script('yes');
    expect(h.of('commit')).toHaveLength(1);
    h.clock.advanceBy(10_000);
    await overheard(h, 'yeah we really need milk, three cases');
    expect(h.of('proposal')).toHaveLength(1);
    expect(h.logs()).toContainEqual(expect.objectContaining({ msg: 'intent proposal suppressed: the same was proposed moments ago', intent: 'add_to_list' }));
    h.clock.advanceBy(30_000);
    await overheard(h, 'milk, three cases, order it');
    expect(h.of('proposal')).toHaveLength(2);
  });

  it('dedup fingerprints what was said: another item or another quantity is another request', async () => {
    ollama.on('add milk', { verb: 'add_to_list', object: 'milk' });
    ollama.on('add oat milk', { verb: 'add_to_list', object: 'oat milk' });
    const h = listening();
    await overheard(h, 'add milk');
    await h.script('yes');
    h.clock.advanceBy(5_000);
    await overheard(h, 'add oat milk');
    expect(h.of('proposal').map((p) => p.target)).toEqual(['milk', 'oat milk']);
    await h.script('yes');
    h.clock.advanceBy(5_000);
    await overheard(h, 'we need two cases of milk');
    await h.script('yes');
    h.clock.advanceBy(5_000);
    await overheard(h, 'we need three cases of milk');
    expect(h.of('proposal')).toHaveLength(4);
    // The same words again within 30 s are still one request.
    await h.script('yes');
    h.clock.advanceBy(5_000);
    await overheard(h, 'yeah, we need three cases of milk');
    expect(h.of('proposal')).toHaveLength(4);
  });

  it('a request turned down with "no" is forgotten: said again within 30 s, it is proposed again', async () => {
    const h = listening();
    await overheard(h, 'we need three cases of milk');
    await h.script('no');
    expect(h.of('discard')).toEqual([expect.objectContaining({ intent: 'add_to_list', reason: 'no' })]);
    h.clock.advanceBy(10_000);
    await overheard(h, 'yeah we really need milk, three cases');
    expect(h.of('proposal')).toHaveLength(2);
    expect(h.spoken().at(-1)).toBe('Add three cases of milk to the shopping list? Say yes or no.');
    expect(h.logs()).not.toContainEqual(expect.objectContaining({ msg: 'intent proposal suppressed: the same was proposed moments ago' }));
    // This one is confirmed, so it is remembered again.
    await h.script('yes');
    h.clock.advanceBy(5_000);
    await overheard(h, 'okay, we really need milk, three cases');
    expect(h.of('proposal')).toHaveLength(2);
  });

  it('a proposal nobody answered is forgotten: said again within 30 s, it is proposed again', async () => {
    const h = listening();
    await overheard(h, 'we need three cases of milk');
    expect(h.of('proposal')).toHaveLength(1);
    h.clock.advanceBy(10_000);
    await h.settle();
    expect(h.of('discard')).toEqual([expect.objectContaining({ intent: 'add_to_list', reason: 'timeout' })]);
    await overheard(h, 'yeah we really need milk, three cases');
    expect(h.of('proposal')).toHaveLength(2);
    expect(h.logs()).not.toContainEqual(expect.objectContaining({ msg: 'intent proposal suppressed: the same was proposed moments ago' }));
  });

  it('at most one model call per 2 s: a second submission waits, then goes with the inactivity trigger', async () => {
    const h = listening();
    await h.script('how was your weekend', 'go');
    expect(ollama.chats).toHaveLength(1);
    const first = h.clock.now();
    h.say('three cases of milk', first + 300);
    h.say('go', first + 600);
    await h.settle();
    // 0.6 s after the first call: inside the rate limit, so no call yet.
    expect(ollama.chats).toHaveLength(1);
    h.clock.advanceBy(3000);
    await h.settle();
    expect(ollama.chats).toHaveLength(2);
    expect(ollama.chats[1]!.lastUser).toContain('three cases of milk');
    expect(h.of('proposal')).toHaveLength(1);
  });
});
