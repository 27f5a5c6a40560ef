import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { validateConfig } from '../../src/config/load.js';
import type { Secrets } from '../../src/core/secrets.js';
import type { DoctorContext } from '../../src/doctor/check.js';
import { allChecks } from '../../src/doctor/registry.js';
import { haConversationCheck } from '../../src/doctor/ha-conversation.js';
import { startHaDouble, type HaDouble } from '../support/ha-server.js';
import { closedUrl } from '../support/http-double.js';

let ha: HaDouble;
beforeEach(async () => {
  ha = await startHaDouble();
});
afterEach(() => ha.close());

function ctx(conversation: Record<string, unknown>, secrets: Secrets): DoctorContext {
  const config = validateConfig({ ha: { conversation } }, 'test');
  return { loaded: { config, source: null, secrets }, configError: null, env: {}, exec: async () => ({ code: 0, stdout: '', stderr: '' }) };
}

describe('hark doctor: Home Assistant conversation agent', () => {
  it('is one of the checks hark doctor runs', () => {
    expect(allChecks()).toContain(haConversationCheck);
  });

  it('off until configured', async () => {
    expect(await haConversationCheck.run(ctx({}, {}))).toEqual({ status: 'ok', detail: 'off (ha.conversation.url is not set)' });
  });

  it('URL and token right: GET /api/ answers "API running."', async () => {
    const r = await haConversationCheck.run(ctx({ url: ha.url, agentId: 'conversation.home_assistant' }, { haToken: ha.token }));
    expect(r.status).toBe('ok');
    expect(r.detail).toContain('API running.');
    expect(r.detail).toContain('conversation.home_assistant');
    expect(ha.requests).toEqual([expect.objectContaining({ method: 'GET', path: '/api/', authorization: `Bearer ${ha.token}` })]);
  });

  it('a refused token names the token and how to make one', async () => {
    const r = await haConversationCheck.run(ctx({ url: ha.url }, { haToken: 'old' }));
    expect(r.status).toBe('fail');
    expect(r.detail).toContain('refused the token in HARK_HA_TOKEN');
    expect(r.fix).toContain('long-lived access token');
  });

  it('no token set', async () => {
    const r = await haConversationCheck.run(ctx({ url: ha.url }, {}));
    expect(r).toEqual(expect.objectContaining({ status: 'fail', detail: expect.stringContaining('HARK_HA_TOKEN is not set') }));
    expect(ha.requests).toEqual([]);
  });

  it('nothing listening at the URL', async () => {
    const url = await closedUrl();
    const r = await haConversationCheck.run(ctx({ url }, { haToken: 'x' }));
    expect(r.status).toBe('fail');
    expect(r.detail).toContain('ECONNREFUSED');
    expect(r.fix).toContain('ha.conversation.url');
  });

  it('a URL that is not Home Assistant (a page under it)', async () => {
    const r = await haConversationCheck.run(ctx({ url: `${ha.url}/lovelace` }, { haToken: ha.token }));
    expect(r.status).toBe('fail');
    expect(r.detail).toContain('HTTP 404');
    expect(r.fix).toContain("Home Assistant's base address");
  });
});

describe('ha.conversation config', () => {
  it('defaults: off, English, a few seconds hard timeout, the query frame', () => {
    const c = validateConfig({}, 'test').ha.conversation;
    expect(c).toEqual(expect.objectContaining({ url: '', agentId: '', language: 'en', timeoutMs: 4000, frames: ['query'] }));
  });
  it.each([
    [{ url: 'homeassistant.local:8123' }, 'ha.conversation.url: must be an http:// or https:// URL'],
    [{ timeoutMs: 100 }, 'ha.conversation.timeoutMs: must be a whole number between 500 and 30000'],
    [{ frames: ['voice'] }, 'ha.conversation.frames.0: a voice frame submits no text'],
    [{ frames: ['nope'] }, 'ha.conversation.frames.0: unknown frame "nope"'],
    [{ token: 'abc' }, 'ha.conversation.token: unknown setting'],
  ])('%j is refused: %s', (conversation, message) => {
    expect(() => validateConfig({ ha: { conversation } }, 'test')).toThrow(message);
  });
  it('a trailing slash is dropped', () => {
    expect(validateConfig({ ha: { conversation: { url: 'http://ha.local:8123/' } } }, 'test').ha.conversation.url).toBe('http://ha.local:8123');
  });
  it('no target may take the name home-assistant', () => {
    expect(() => validateConfig({ actions: { targets: { 'home-assistant': { type: 'speak' } } } }, 'test')).toThrow('actions.targets.home-assistant');
  });
});
