import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Store } from '../../src/store/store.js';
import { startHaDouble, type HaDouble } from '../support/ha-server.js';
import { startOllamaDouble, type OllamaDouble } from '../support/ollama-server.js';
import { haHarness } from './conversation-harness.js';
import { closedUrl } from '../support/http-double.js';

let ha: HaDouble;
beforeEach(async () => {
  ha = await startHaDouble();
  ha.on('extractor fan', { speech: 'Turned on the extractor fan' });
  ha.on('turn on the lights', { speech: 'Which room?', type: 'query_answer', continueConversation: true });
  ha.on('kitchen', { speech: 'Turned on the kitchen lights' });
});
afterEach(() => ha.close());

describe("what hark's rules leave goes to Home Assistant's conversation agent", () => {
  it('"computer turn on the extractor fan": HA gets the text with language and agent, hark says its answer', async () => {
    const h = haHarness({ url: ha.url, token: ha.token, config: { ha: { conversation: { agentId: 'conversation.home_assistant' } } } });
    await h.request('turn on the extractor fan');
    expect(ha.conversationsAsked).toEqual([{ text: 'turn on the extractor fan', language: 'en', agent_id: 'conversation.home_assistant' }]);
    expect(h.spoken()).toEqual(['Turned on the extractor fan']);
    expect(h.of('delivered')).toEqual([
      expect.objectContaining({ target: 'home-assistant', kind: 'submit', detail: expect.stringContaining('action_done: "Turned on the extractor fan"') }),
    ]);
    expect(h.stack()).toEqual(['base']);
  });

  it("words said in another of the device's languages go to Home Assistant in that language, and its answer is said in it", async () => {
    ha.on('enciende el extractor', { speech: 'He encendido el extractor' });
    const h = haHarness({ url: ha.url, token: ha.token, config: { language: { languages: ['en', 'es'] } } });
    h.sayIn('es', 'oye computadora enciende el extractor');
    await h.settle();
    h.sayIn('es', 'envía');
    await h.settle();
    expect(ha.conversationsAsked).toEqual([expect.objectContaining({ text: 'enciende el extractor', language: 'es' })]);
    expect(h.of('speak').find((e) => e.text === 'He encendido el extractor')).toMatchObject({ lang: 'es' });
  });

  it("hark's own frames keep what they handle: a timer never reaches Home Assistant", async () => {
    const h = haHarness({ url: ha.url, token: ha.token });
    await h.script('computer set a timer for 5 minutes');
    expect(h.of('timer')).toEqual([expect.objectContaining({ event: 'set', seconds: 300 })]);
    expect(ha.requests).toEqual([]);
  });

  it('continue_conversation: the frame reopens, the answer needs no wake word and goes with the same conversation_id', async () => {
    const h = haHarness({ url: ha.url, token: ha.token });
    await h.request('turn on the lights');
    expect(h.spoken()).toEqual(['Which room?']);
    expect(h.stack()).toEqual(['base', 'query']);
    expect(h.of('earcon').filter((e) => e.name === 'listening')).toHaveLength(2);
    await h.script('the kitchen', 'go');
    const asked = ha.conversationsAsked;
    expect(asked).toHaveLength(2);
    expect(asked[1]).toEqual(expect.objectContaining({ text: 'the kitchen', conversation_id: expect.any(String) }));
    expect(asked[0]!.conversation_id).toBeUndefined();
    expect(h.spoken()).toEqual(['Which room?', 'Turned on the kitchen lights']);
    expect(h.stack()).toEqual(['base']);
  });

  it('the reopened frame times out like the query frame when nobody answers', async () => {
    const h = haHarness({ url: ha.url, token: ha.token });
    await h.request('turn on the lights');
    expect(h.stack()).toEqual(['base', 'query']);
    h.clock.advanceBy(4000);
    await h.settle();
    expect(h.stack()).toEqual(['base']);
    expect(h.of('earcon').at(-1)).toEqual(expect.objectContaining({ name: 'cancelled' }));
    expect(ha.conversationsAsked).toHaveLength(1);
  });

  it('the conversation_id is kept for follow-ups and forgotten after conversationIdleMs', async () => {
    const h = haHarness({ url: ha.url, token: ha.token, config: { ha: { conversation: { conversationIdleMs: 60_000 } } } });
    await h.request('turn on the extractor fan');
    await h.request('turn on the extractor fan');
    h.clock.advanceBy(61_000);
    await h.request('turn on the extractor fan');
    const ids = ha.conversationsAsked.map((b) => b.conversation_id);
    expect(ids[0]).toBeUndefined();
    expect(ids[1]).toEqual(expect.any(String));
    expect(ids[2]).toBeUndefined();
  });

  it("always-listen chatter stays with the query frame's own target unless inAlwaysListen", async () => {
    const h = haHarness({ url: ha.url, token: ha.token });
    await h.script('always listen', 'the soup needs more salt', 'go');
    expect(ha.requests).toEqual([]);
    expect(h.of('delivered')).toEqual([
      expect.objectContaining({
        target: 'home-assistant',
        detail: expect.stringMatching(/^not sent to Home Assistant \(always-listen mode.*\); kept in file .*submissions\.jsonl/),
      }),
    ]);

    const all = haHarness({ url: ha.url, token: ha.token, config: { ha: { conversation: { inAlwaysListen: true } } } });
    await all.script('always listen', 'turn on the extractor fan', 'go');
    expect(ha.conversationsAsked.map((b) => b.text)).toEqual(['turn on the extractor fan']);
    expect(all.spoken()).toContain('Turned on the extractor fan');
  });

  describe('failures: a short spoken notice, a log line naming what failed, and the router goes on', () => {
    const cases: [string, (h: HaDouble) => void, string, RegExp][] = [
      ['a 401', (d) => (d.token = 'rotated'), 'Home Assistant refused my access token.', /HTTP 401.*HARK_HA_TOKEN/],
      ['a 500', (d) => d.fail('http-500'), "Home Assistant isn't answering.", /HTTP 500/],
      ['garbage', (d) => d.fail('garbage'), "I couldn't understand Home Assistant's answer.", /not JSON/],
      ['a wrong shape', (d) => d.fail('wrong-shape'), "I couldn't understand Home Assistant's answer.", /no "response" object/],
    ];
    it.each(cases)('%s', async (_name, fault, notice, logged) => {
      fault(ha);
      const h = haHarness({ url: ha.url, token: 'test-long-lived-token' });
      await h.request('turn on the extractor fan');
      expect(h.spoken()).toEqual([notice]);
      const line = h.logs().find((l) => l.msg === 'Home Assistant conversation failed');
      expect(line?.error).toMatch(logged);
      expect(h.of('delivery-failed')).toEqual([expect.objectContaining({ target: 'home-assistant', error: expect.stringMatching(logged) })]);
      await h.script('computer set a timer for 5 minutes');
      expect(h.of('timer')).toEqual([expect.objectContaining({ event: 'set', seconds: 300 })]);
    });

    it('connection refused', async () => {
      const h = haHarness({ url: await closedUrl(), token: 'x' });
      await h.request('turn on the extractor fan');
      expect(h.spoken()).toEqual(["Home Assistant isn't answering."]);
      expect(h.logs().find((l) => l.msg === 'Home Assistant conversation failed')?.error).toMatch(/ECONNREFUSED/);
    });

    it('no token in the environment: a warning at start, the notice, nothing sent', async () => {
      const h = haHarness({ url: ha.url });
      expect(h.logs().some((l) => l.level === 'warn' && /HARK_HA_TOKEN is not/.test(l.msg))).toBe(true);
      await h.request('turn on the extractor fan');
      expect(h.spoken()).toEqual(['Home Assistant refused my access token.']);
      expect(ha.requests).toEqual([]);
    });

    it('a hung Home Assistant: the router answers a timer at once, while the call waits out its hard timeout', async () => {
      ha.fail('hang');
      const h = haHarness({ url: ha.url, token: ha.token, config: { ha: { conversation: { timeoutMs: 800 } } } });
      h.say('computer turn on the extractor fan');
      h.say('go');
      await h.core.router.idle();
      // The call is in flight; the router is not waiting for it.
      expect(h.core.busy).toBe(true);
      h.say('computer set a timer for 5 minutes');
      await h.core.router.idle();
      expect(h.of('timer')).toEqual([expect.objectContaining({ event: 'set', seconds: 300 })]);
      expect(h.spoken()).toEqual(['Timer set for 5 minutes.']);
      // The double never answers: only the hard timeout lets this settle.
      await h.settle();
      expect(h.spoken()).toEqual(['Timer set for 5 minutes.', "Home Assistant isn't answering."]);
      expect(h.logs().find((l) => l.msg === 'Home Assistant conversation failed')).toEqual(
        expect.objectContaining({ kind: 'timeout', error: expect.stringContaining('no answer within 800 ms') }),
      );
    });

    it('speakFailures: false keeps quiet but still logs', async () => {
      ha.fail('http-500');
      const h = haHarness({ url: ha.url, token: ha.token, config: { ha: { conversation: { speakFailures: false } } } });
      await h.request('turn on the extractor fan');
      expect(h.spoken()).toEqual([]);
      expect(h.logs().some((l) => l.msg === 'Home Assistant conversation failed')).toBe(true);
    });
  });

  it("each exchange is recorded as the utterance's action row (the debug page shows it)", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hark-ha-store-'));
    const store = new Store({ path: join(dir, 'hark.db'), housekeeping: null });
    store.start();
    try {
      const h = haHarness({ url: ha.url, token: ha.token, store });
      await h.request('turn on the extractor fan');
      ha.fail('http-500');
      await h.request('turn on the extractor fan');
      const rows = store.db
        .prepare("SELECT name, args_json AS args, outcome, error, utterance_id AS utteranceId FROM actions WHERE name = 'ha.conversation' ORDER BY id")
        .all() as { name: string; args: string; outcome: string; error: string | null; utteranceId: string }[];
      expect(rows).toHaveLength(2);
      expect(rows[0]).toEqual(expect.objectContaining({ outcome: 'ok', error: null, utteranceId: 'u1' }));
      expect(JSON.parse(rows[0]!.args)).toEqual(
        expect.objectContaining({
          request: { text: 'turn on the extractor fan', language: 'en' },
          reply: expect.objectContaining({ speech: 'Turned on the extractor fan', responseType: 'action_done' }),
        }),
      );
      expect(rows[1]).toEqual(expect.objectContaining({ outcome: 'error', error: expect.stringContaining('HTTP 500'), utteranceId: 'u3' }));
    } finally {
      store.close();
    }
  });
});

describe('with the intent pass on: hark first, the house second', () => {
  let ollama: OllamaDouble;
  beforeEach(async () => {
    ollama = await startOllamaDouble();
    ollama.on('three cases of milk', { verb: 'add_to_list', object: '3 cases of milk' });
  });
  afterEach(() => ollama.close());
  const withIntent = () => ({ intent: { enabled: true, warmUp: false, host: ollama.url, timeoutMs: 3000, retries: 0 } });

  it('what the model places is proposed as before; what it cannot place goes to Home Assistant without a clarifying question', async () => {
    const h = haHarness({ url: ha.url, token: ha.token, config: withIntent() });
    // No rule reads this (a rule takes "add … to the … list" itself): the model places it.
    await h.request("we're short three cases of milk for the order");
    expect(h.of('proposal')).toEqual([expect.objectContaining({ intent: 'add_to_list' })]);
    await h.script('no');
    expect(ha.requests).toEqual([]);
    h.clear();
    await h.request('turn on the extractor fan');
    expect(h.of('ambiguous')).toEqual([expect.objectContaining({ text: 'turn on the extractor fan' })]);
    expect(ha.conversationsAsked.map((b) => b.text)).toEqual(['turn on the extractor fan']);
    expect(h.spoken()).toEqual(['Turned on the extractor fan']);
    expect(h.of('delivered')[0]?.detail).toContain('handed to Home Assistant');
  });

  it("one of hark's intents with a part missing is still hark's question, not Home Assistant's", async () => {
    ollama.on('something for the order', { verb: 'add_to_list', object: null });
    const h = haHarness({ url: ha.url, token: ha.token, config: withIntent() });
    await h.request('we need something for the order');
    expect(ha.requests).toEqual([]);
    expect(h.of('ambiguous')).toHaveLength(1);
    expect(h.spoken()).toHaveLength(1);
    expect(h.stack()).toEqual(['base', 'query']);
  });

  it("Home Assistant's follow-up answer goes straight to it, not through the model", async () => {
    const h = haHarness({ url: ha.url, token: ha.token, config: withIntent() });
    await h.request('turn on the lights');
    const modelCalls = ollama.chats.length;
    await h.script('the kitchen', 'go');
    expect(ollama.chats.length).toBe(modelCalls);
    expect(ha.conversationsAsked.map((b) => b.text)).toEqual(['turn on the lights', 'the kitchen']);
    expect(h.spoken()).toEqual(['Which room?', 'Turned on the kitchen lights']);
  });

  it('Ollama down: the request still reaches Home Assistant', async () => {
    await ollama.close();
    const h = haHarness({ url: ha.url, token: ha.token, config: withIntent() });
    await h.request('turn on the extractor fan');
    expect(ha.conversationsAsked.map((b) => b.text)).toEqual(['turn on the extractor fan']);
    expect(h.spoken()).toContain('Turned on the extractor fan');
    ollama = await startOllamaDouble();
  });
});
