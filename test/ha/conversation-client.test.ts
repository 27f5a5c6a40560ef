import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HaCallError, HaClient } from '../../src/ha/conversation/client.js';
import { readReply } from '../../src/ha/conversation/reply.js';
import { startHaDouble, type HaDouble } from '../support/ha-server.js';
import { closedUrl } from '../support/http-double.js';

let ha: HaDouble;
beforeEach(async () => {
  ha = await startHaDouble();
});
afterEach(() => ha.close());

const client = (over: Partial<ConstructorParameters<typeof HaClient>[0]> = {}) => new HaClient({ url: ha.url, token: ha.token, timeoutMs: 1000, ...over });

async function failure(p: Promise<unknown>): Promise<HaCallError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(HaCallError);
  return err as HaCallError;
}

describe('Home Assistant conversation API client', () => {
  it('sends the documented request with the bearer token and reads the documented reply', async () => {
    ha.on('extractor fan', { speech: 'Turned on the extractor fan', type: 'action_done' });
    const reply = await client().process({ text: 'turn on the extractor fan', language: 'en', agent_id: 'conversation.home_assistant' });
    expect(reply).toEqual({
      speech: 'Turned on the extractor fan',
      responseType: 'action_done',
      errorCode: null,
      conversationId: expect.stringMatching(/^[0-9A-Z]{26}$/),
      continueConversation: false,
    });
    expect(ha.requests[0]).toEqual(
      expect.objectContaining({ method: 'POST', path: '/api/conversation/process', authorization: `Bearer ${ha.token}`, answered: true }),
    );
    expect(ha.conversationsAsked).toEqual([{ text: 'turn on the extractor fan', language: 'en', agent_id: 'conversation.home_assistant' }]);
  });

  it('an unmatched sentence is an error reply with its code, not a failure', async () => {
    const reply = await client().process({ text: 'recalibrate the flux capacitor' });
    expect(reply).toEqual(expect.objectContaining({ responseType: 'error', errorCode: 'no_intent_match', speech: "Sorry, I couldn't understand that" }));
  });

  it('a wrong token is "unauthorized" and names HARK_HA_TOKEN', async () => {
    const err = await failure(client({ token: 'stale' }).process({ text: 'hello' }));
    expect(err.kind).toBe('unauthorized');
    expect(err.message).toContain('HTTP 401');
    expect(err.message).toContain('HARK_HA_TOKEN');
    expect(ha.conversationsAsked).toEqual([]);
  });

  it('no token at all: nothing is sent', async () => {
    const err = await failure(client({ token: undefined }).process({ text: 'hello' }));
    expect(err.kind).toBe('no-token');
    expect(err.message).toContain('HARK_HA_TOKEN');
    expect(ha.requests).toEqual([]);
  });

  it('a hung server is a timeout within the hard limit', async () => {
    // The double never answers: only the client's own deadline ends this (else the test times out).
    ha.fail('hang');
    const err = await failure(client({ timeoutMs: 300 }).process({ text: 'hello' }));
    expect(err.kind).toBe('timeout');
    expect(err.message).toContain('no answer within 300 ms');
  });

  it('garbage, a wrong shape and an HTTP 500 each name what was wrong', async () => {
    ha.fail('garbage').fail('wrong-shape').fail('http-500');
    const garbage = await failure(client().process({ text: 'a' }));
    expect(garbage.kind).toBe('garbled');
    expect(garbage.message).toContain('not JSON');
    const shape = await failure(client().process({ text: 'b' }));
    expect(shape.kind).toBe('garbled');
    expect(shape.message).toContain('no "response" object');
    const http = await failure(client().process({ text: 'c' }));
    expect(http.kind).toBe('http');
    expect(http.message).toContain('HTTP 500');
  });

  it('connection refused is "unreachable" and says ECONNREFUSED', async () => {
    const err = await failure(client({ url: await closedUrl() }).process({ text: 'hello' }));
    expect(err.kind).toBe('unreachable');
    expect(err.message).toContain('ECONNREFUSED');
  });

  it('GET /api/ answers "API running." with the right token', async () => {
    await expect(client().running()).resolves.toBe('API running.');
    expect((await failure(client({ token: 'bad' }).running())).kind).toBe('unauthorized');
  });

  it('the double refuses bodies Home Assistant would refuse (extra keys, no text)', async () => {
    const post = (body: unknown) =>
      fetch(`${ha.url}/api/conversation/process`, { method: 'POST', headers: { authorization: `Bearer ${ha.token}` }, body: JSON.stringify(body) });
    expect((await post({ text: 'a', device: 'x' })).status).toBe(400);
    expect((await post({ language: 'en' })).status).toBe(400);
    expect((await post({ text: 'a', conversation_id: 5 })).status).toBe(400);
  });
});

describe('reading a reply', () => {
  const body = (o: unknown) => JSON.stringify(o);
  it('a continue_conversation reply and a missing speech', () => {
    expect(
      readReply(
        body({
          response: { response_type: 'query_answer', speech: { plain: { speech: ' Which room? ' } } },
          conversation_id: 'abc',
          continue_conversation: true,
        }),
      ),
    ).toEqual({
      speech: 'Which room?',
      responseType: 'query_answer',
      errorCode: null,
      conversationId: 'abc',
      continueConversation: true,
    });
    expect(readReply(body({ response: { response_type: 'action_done', speech: {} }, conversation_id: null })).speech).toBe('');
  });
  it.each([
    ['[]', 'not a JSON object'],
    [body({ response: { response_type: 'done' } }), 'response.response_type is "done"'],
    [body({ response: { response_type: 'action_done', speech: { plain: { speech: 5 } } } }), 'not text'],
    [body({ response: { response_type: 'action_done' }, conversation_id: 7 }), 'conversation_id is not text'],
  ])('%s is refused: %s', (b, why) => {
    expect(() => readReply(b)).toThrow(why);
  });
});
