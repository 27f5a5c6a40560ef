import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Store } from '../../src/store/store.js';
import { startOllamaDouble, type OllamaDouble } from '../support/ollama-server.js';
import { intentHarness } from './ollama-harness.js';

let ollama: OllamaDouble;
beforeEach(async () => {
  ollama = await startOllamaDouble();
  ollama.on('three cases of milk', { verb: 'add_to_list', object: '3 cases of milk' });
});
afterEach(() => ollama.close());

const MILK_QUESTION = 'Add three cases of milk to the order list? Say yes or no.';

describe('the intent pass: the model proposes, the person confirms, then hark acts', () => {
  it('propose → yes → commit: asks in plain words, commits, then the action runs and says what it did', async () => {
    const h = intentHarness({ host: ollama.url });
    await h.request('we are short three cases of milk for the order list');
    expect(h.of('proposal')).toEqual([expect.objectContaining({ intent: 'add_to_list', target: '3 cases of milk' })]);
    expect(h.spoken()).toEqual([MILK_QUESTION]);
    expect(h.stack()).toEqual(['base', 'confirm']);
    // Nothing has happened yet: a proposal is not an action.
    expect(h.of('action')).toEqual([]);
    expect(h.lists.lines('order')).toEqual([]);

    await h.script('yes');
    expect(h.of('commit')).toEqual([
      expect.objectContaining({
        intent: 'add_to_list',
        target: '3 cases of milk',
        utteranceIds: ['u1'],
        model: 'qwen2.5:0.5b-instruct',
        latencyMs: expect.any(Number),
      }),
    ]);
    expect(h.of('action')).toEqual([
      expect.objectContaining({ name: 'list.add', args: expect.objectContaining({ list: 'order', item: 'milk', quantity: 3, unit: 'cases' }) }),
    ]);
    // The commit record comes before the action it allows.
    expect(h.effects.findIndex((e) => e.type === 'commit')).toBeLessThan(h.effects.findIndex((e) => e.type === 'action'));
    expect(h.spoken().at(-1)).toBe('Added three cases of milk to the order list.');
    expect(h.lists.lines('order')).toEqual([{ item: 'milk', quantity: 3, unit: 'cases', note: null }]);
    expect(h.stack()).toEqual(['base']);
  });

  it('on a device whose first language is Spanish, the question and its "Cancelled." are the Spanish pack\'s', async () => {
    ollama.on('tres cajas de leche', { verb: 'add_to_list', object: '3 cajas de leche' });
    const h = intentHarness({ host: ollama.url, config: { language: { languages: ['es', 'en'] } } });
    await h.request('andamos cortos de tres cajas de leche');
    expect(h.spoken()).toEqual(['¿Añado tres cajas de leche a la lista de compra? Di sí o no.']);
    // What the response cascade renders ahead is the same words the confirm frame says.
    expect((await h.pass.prepare('andamos cortos de tres cajas de leche', new AbortController().signal)).spoken).toBe(
      '¿Añado tres cajas de leche a la lista de compra? Di sí o no.',
    );
    await h.script('no');
    expect(h.of('discard')).toEqual([expect.objectContaining({ intent: 'add_to_list', reason: 'no' })]);
    expect(h.spoken().at(-1)).toBe('Cancelado.');
  });

  it('sends the conversation with the prompt, the schema as format, temperature 0 and keep_alive', async () => {
    const h = intentHarness({ host: ollama.url });
    await h.request('we are short three cases of milk for the order list');
    const body = ollama.chats[0]!.body!;
    expect(body).toEqual(
      expect.objectContaining({
        model: 'qwen2.5:0.5b-instruct',
        stream: false,
        keep_alive: '30m',
        options: { temperature: 0 },
        format: expect.objectContaining({ required: ['verb', 'object'] }),
      }),
    );
    const messages = body.messages as { role: string; content: string }[];
    expect(messages[0]!.role).toBe('system');
    expect(messages[0]!.content).toBe(h.pass.prompt);
    expect(messages.slice(1)).toEqual([{ role: 'user', content: 'we are short three cases of milk for the order list' }]);
  });

  it('propose → no → discard: nothing is done, hark says so, and the conversation is forgotten', async () => {
    const h = intentHarness({ host: ollama.url });
    ollama.on('what about', { verb: 'unknown', object: null });
    await h.request('what about the thing');
    await h.script('never mind', 'computer we are short three cases of milk for the order list', 'go', 'no');
    expect(h.of('discard')).toEqual([expect.objectContaining({ intent: 'add_to_list', reason: 'no' })]);
    expect(h.of('commit')).toEqual([]);
    expect(h.of('action')).toEqual([]);
    expect(h.spoken().at(-1)).toBe('Cancelled.');
    expect(h.lists.lines('order')).toEqual([]);

    await h.request('we are short three cases of milk for the order list');
    // Only the new request: the earlier turns were cleared on "no".
    expect((ollama.chats.at(-1)!.body!.messages as unknown[]).length).toBe(2);
  });

  it('no answer within the confirm timeout discards the proposal and says nothing was done', async () => {
    const h = intentHarness({ host: ollama.url });
    await h.request('we are short three cases of milk for the order list');
    const asked = h.clock.now();
    h.clock.advanceTo(asked + 9_999);
    expect(h.of('discard')).toEqual([]);
    h.clock.advanceTo(asked + 10_000);
    expect(h.spoken().at(-1)).toBe('No answer, so I did nothing.');
    expect(h.of('discard')).toEqual([expect.objectContaining({ intent: 'add_to_list', reason: 'timeout' })]);
    expect(h.stack()).toEqual(['base']);
    expect(h.lists.lines('order')).toEqual([]);
    // A late "yes" is just speech now.
    await h.script('yes');
    expect(h.of('commit')).toEqual([]);
  });

  it('a hallucinated verb is AMBIGUOUS: hark asks again instead of acting, and logs why', async () => {
    const h = intentHarness({ host: ollama.url });
    ollama.on('moon', { verb: '  Fly_To_Moon ', object: 'the moon' });
    await h.request('fly me to the moon');
    expect(h.of('proposal')).toEqual([]);
    expect(h.of('ambiguous')).toEqual([expect.objectContaining({ text: 'fly me to the moon', reason: '"fly_to_moon" is not one of the allowed intents' })]);
    expect(h.spoken()).toEqual(["Sorry, I didn't get that. Say it another way?"]);
    expect(h.logs()).toContainEqual(
      expect.objectContaining({ level: 'warn', msg: 'intent reply unusable', reason: '"fly_to_moon" is not one of the allowed intents' }),
    );
  });

  it('garbage (prose, wrong JSON, empty) is AMBIGUOUS with a reason, and hark keeps routing', async () => {
    const h = intentHarness({ host: ollama.url });
    ollama.on('garbage one', { fault: 'non-json' });
    ollama.on('garbage two', { fault: 'wrong-schema' });
    ollama.on('garbage three', { content: '' });
    ollama.on('garbage four', { json: { verb: 7, object: null } });
    for (const n of ['one', 'two', 'three', 'four']) await h.request(`garbage ${n}`);
    expect(h.of('ambiguous').map((e) => e.reason)).toEqual([
      'the reply is not JSON: "Sure! It sounds like you want to add milk to the order list."',
      'the reply has no "verb": {"intent":"add_to_list","item":"milk","amount":3}',
      'the model returned an empty reply',
      '"verb" is not text: 7',
    ]);
    await h.script('computer set a timer for ten minutes');
    expect(h.spoken().at(-1)).toBe('Timer set for 10 minutes.');
  });

  it('a clarification is answered without the wake word, and the answer is read in context', async () => {
    const h = intentHarness({ host: ollama.url });
    ollama.on('we need three cases', { verb: 'add_to_list', object: null });
    ollama.on('the milk', { verb: 'add_to_list', object: '3 cases of milk' });
    await h.request('we need three cases');
    expect(h.of('ambiguous')).toEqual([expect.objectContaining({ reason: 'add_to_list needs an object and the model gave none' })]);
    expect(h.spoken()).toEqual(['What should I add?']);
    // The query frame is open again: no "computer" needed for the answer.
    expect(h.stack()).toEqual(['base', 'query']);
    await h.script('the milk', 'go');
    expect((ollama.chats.at(-1)!.body!.messages as unknown[]).slice(1)).toEqual([
      { role: 'user', content: 'we need three cases' },
      { role: 'assistant', content: 'What should I add?' },
      { role: 'user', content: 'the milk' },
    ]);
    expect(h.spoken().at(-1)).toBe('Add three cases of milk to the shopping list? Say yes or no.');
    await h.script('yes');
    expect(h.lists.lines('shopping')).toEqual([{ item: 'milk', quantity: 3, unit: 'cases', note: null }]);
  });

  it('keeps only the last N turns (default 5) in what it sends', async () => {
    const h = intentHarness({ host: ollama.url, config: { intent: { memoryTurns: 2 } } });
    ollama.on('what', { verb: 'unknown', object: null });
    for (const n of ['one', 'two', 'three']) await h.script(`computer what ${n}`, 'go', 'never mind');
    const sent = (ollama.chats.at(-1)!.body!.messages as { role: string; content: string }[]).slice(1);
    // Two turns (user + clarification each), the newest last; "what one" is gone.
    expect(sent.map((m) => m.content)).toEqual(['what two', "Sorry, I didn't get that. Say it another way?", 'what three']);
  });

  it('forgets an unanswered clarification after a quiet spell', async () => {
    const h = intentHarness({ host: ollama.url });
    ollama.on('hmm', { verb: 'unknown', object: null });
    await h.script('computer hmm something', 'go', 'never mind');
    h.clock.advanceBy(121_000);
    await h.request('we are short three cases of milk for the order list');
    expect((ollama.chats.at(-1)!.body!.messages as unknown[]).length).toBe(2);
  });

  it('a timer proposal sets a real timer only after yes', async () => {
    const h = intentHarness({ host: ollama.url });
    ollama.on('pasta', { verb: 'set_timer', object: 'pasta for 8 minutes' });
    await h.request('time the pasta for eight minutes');
    expect(h.spoken()).toEqual(['Set a pasta timer for 8 minutes? Say yes or no.']);
    expect(h.of('timer')).toEqual([]);
    await h.script('yes');
    expect(h.of('timer')).toEqual([expect.objectContaining({ event: 'set', label: 'pasta', seconds: 480 })]);
    expect(h.spoken().at(-1)).toBe('Pasta timer set for 8 minutes.');
  });

  it('lists: read back, remove, counts and reports, each confirmed first', async () => {
    const h = intentHarness({ host: ollama.url });
    ollama.on('napkins', { verb: 'add_to_list', object: '2 boxes of napkins' });
    ollama.on('scratch', { verb: 'remove_from_list', object: 'napkins' });
    ollama.on('on order', { verb: 'read_list', object: 'order list' });
    ollama.on('gloves', { verb: 'inventory_count', object: '12 boxes of gloves' });
    ollama.on('walk-in', { verb: 'report_issue', object: 'the walk-in is at 10 degrees' });
    for (const [req, question] of [
      ['we are short three cases of milk for the order list', MILK_QUESTION],
      // No list named: the shopping list, the same default as the rules'.
      ['we need napkins', 'Add two boxes of napkins to the shopping list? Say yes or no.'],
      ['scratch the napkins', 'Remove napkins from the shopping list? Say yes or no.'],
      ['what do we have on order', 'Read the order list? Say yes or no.'],
      ['we have twelve boxes of gloves', 'Record a count of twelve boxes of gloves? Say yes or no.'],
      ['the walk-in is at ten degrees', 'Report: the walk-in is at ten degrees? Say yes or no.'],
    ] as const) {
      await h.request(req);
      expect(h.spoken().at(-1)).toBe(question);
      await h.script('yes');
    }
    expect(h.spoken()).toContain('Removed napkins from the shopping list.');
    expect(h.spoken()).toContain('The order list: three cases of milk.');
    expect(h.spoken()).toContain('Counted twelve boxes of gloves.');
    expect(h.spoken().at(-1)).toBe('Reported: the walk-in is at ten degrees.');
    expect(h.lists.lines('issues')).toEqual([expect.objectContaining({ item: 'the walk-in is at 10 degrees' })]);
  });

  it('with a store: lists live in SQLite, and proposal, commit and discard rows carry model, latency and utterance ids', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hark-intent-store-'));
    const store = new Store({ path: join(dir, 'hark.db'), housekeeping: null, backgroundCheckpoint: false });
    try {
      const h = intentHarness({ host: ollama.url, store });
      await h.request('we are short three cases of milk for the order list');
      await h.script('yes');
      await h.request('we are short three cases of milk for the order list');
      await h.script('no');
      expect(store.listItems('order')).toEqual([
        expect.objectContaining({ list: 'order', item: 'milk', quantity: 3, unit: 'cases', op: 'add', utteranceId: 'u1' }),
      ]);
      const rows = store.db
        .prepare('SELECT kind, intent, target, model, latency_ms AS latencyMs, utterance_id AS utteranceId, slots_json AS slots FROM intents ORDER BY id')
        .all() as Record<string, unknown>[];
      expect(rows.map((r) => [r.kind, r.intent, r.target, r.model, r.utteranceId])).toEqual([
        ['proposal', 'add_to_list', '3 cases of milk', 'qwen2.5:0.5b-instruct', 'u1'],
        ['commit', 'add_to_list', '3 cases of milk', 'qwen2.5:0.5b-instruct', 'u1'],
        ['proposal', 'add_to_list', '3 cases of milk', 'qwen2.5:0.5b-instruct', 'u4'],
        ['discard', 'add_to_list', '3 cases of milk', 'qwen2.5:0.5b-instruct', 'u4'],
      ]);
      expect(rows[1]!.latencyMs).toEqual(expect.any(Number));
      expect(JSON.parse(rows[1]!.slots as string)).toEqual(expect.objectContaining({ utteranceIds: ['u1'], item: 'milk', quantity: 3 }));
    } finally {
      store.close();
    }
  });

  it('as a classifier rule: the rule runs its verbs, then the question is asked', async () => {
    const h = intentHarness({
      host: ollama.url,
      config: {
        intent: { frames: [] },
        router: {
          frames: {
            query: {
              rules: [
                { exact: ['cancel'], do: ['pop'] },
                { classifier: 'ollama', timeoutMs: 7000, do: ['pop'] },
                { 'catch-all': true, do: ['append'] },
              ],
            },
          },
        },
      },
    });
    await h.script('computer we are short three cases of milk for the order list');
    expect(h.of('classifier')).toEqual([expect.objectContaining({ name: 'ollama', outcome: 'label', label: 'add_to_list' })]);
    // pop closed the query first; the question sits on top of the base frame.
    expect(h.stack()).toEqual(['base', 'confirm']);
    expect(h.spoken()).toEqual([MILK_QUESTION]);
    await h.script('yes');
    expect(h.lists.lines('order')).toHaveLength(1);
  });
});
