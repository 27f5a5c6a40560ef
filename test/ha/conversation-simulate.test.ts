import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { simulate as runSimulate } from '../conversation/sim.js';
import { startHaDouble, type HaDouble } from '../support/ha-server.js';
import { closedUrl } from '../support/http-double.js';

/** `hark simulate` against the double in this process, with Home Assistant's agent configured. */
function simulate(input: string, opts: { url: string; token?: string; args?: string[]; yaml?: string }) {
  return runSimulate(input, {
    yaml: `intent:\n  enabled: false\nha:\n  conversation:\n    url: ${opts.url}\n    agentId: conversation.home_assistant\n    timeoutMs: 1000\n${opts.yaml ?? ''}`,
    args: opts.args ?? ['--ha'],
    drainMs: null,
    env: { HARK_HA_TOKEN: opts.token },
    timeoutMs: 45_000,
  });
}

let ha: HaDouble;
beforeEach(async () => {
  ha = await startHaDouble();
  ha.on('extractor fan', { speech: 'Turned on the extractor fan' });
  ha.on('turn on the lights', { speech: 'Which room?', type: 'query_answer', continueConversation: true });
  ha.on('kitchen', { speech: 'Turned on the kitchen lights' });
});
afterEach(() => ha.close());

describe('hark simulate --ha', { timeout: 60_000 }, () => {
  it('"computer turn on the extractor fan": Home Assistant gets the text, hark says its answer', async () => {
    const r = await simulate('computer turn on the extractor fan\ngo\n', { url: ha.url, token: ha.token });
    expect(r.status).toBe(0);
    expect(r.lines[0]!.targets).toEqual(expect.objectContaining({ 'home-assistant': `Home Assistant ${ha.url} (agent conversation.home_assistant, en)` }));
    expect(ha.conversationsAsked).toEqual([{ text: 'turn on the extractor fan', language: 'en', agent_id: 'conversation.home_assistant' }]);
    expect(r.of('speak').map((l) => l.text)).toEqual(['Turned on the extractor fan']);
    // Said before the next line of input was read: the reply is waited for, as --ollama's are.
    expect(r.lines.findIndex((l) => l.type === 'speak')).toBeLessThan(r.lines.findIndex((l) => l.type === 'end'));
  });

  it('a continue_conversation reply: the next line, without the wake word, goes with the same conversation_id', async () => {
    const r = await simulate('computer turn on the lights\ngo\nthe kitchen\ngo\n', { url: ha.url, token: ha.token });
    const asked = ha.conversationsAsked;
    expect(asked.map((b) => b.text)).toEqual(['turn on the lights', 'the kitchen']);
    expect(asked[1]!.conversation_id).toEqual(expect.stringMatching(/^[0-9A-Z]{26}$/));
    expect(r.of('speak').map((l) => l.text)).toEqual(['Which room?', 'Turned on the kitchen lights']);
    expect(r.of('stack').map((l) => (l.frames as string[]).join('>'))).toEqual(['base>query', 'base', 'base>query', 'base']);
  });

  const failures: [string, (d: HaDouble) => void, string | undefined, string][] = [
    ['a bad token', () => undefined, 'wrong-token', 'Home Assistant refused my access token.'],
    ['a timeout', (d) => d.fail('hang'), undefined, "Home Assistant isn't answering."],
    ['garbage', (d) => d.fail('garbage'), undefined, "I couldn't understand Home Assistant's answer."],
    ['an HTTP 500', (d) => d.fail('http-500'), undefined, "Home Assistant isn't answering."],
  ];
  it.each(failures)('%s: a short notice, a log line naming it, and the router still sets a timer', async (_n, fault, token, notice) => {
    fault(ha);
    const r = await simulate('computer turn on the extractor fan\ngo\ncomputer set a timer for 5 minutes\n', {
      url: ha.url,
      token: token ?? ha.token,
      args: ['--ha', '--drain-ms', '0'],
    });
    expect(r.status).toBe(0);
    expect(r.of('speak').map((l) => l.text)).toEqual([notice, 'Timer set for 5 minutes.']);
    expect(r.of('delivery-failed')).toEqual([expect.objectContaining({ target: 'home-assistant', error: expect.stringContaining('Home Assistant:') })]);
    expect(r.stderr).toContain('Home Assistant conversation failed');
    expect(r.of('timer')[0]).toEqual(expect.objectContaining({ event: 'set', seconds: 300 }));
  });

  it('connection refused', async () => {
    const url = await closedUrl();
    const r = await simulate('computer turn on the extractor fan\ngo\ncomputer set a timer for 5 minutes\n', {
      url,
      token: 'x',
      args: ['--ha', '--drain-ms', '0'],
    });
    expect(r.of('speak').map((l) => l.text)).toEqual(["Home Assistant isn't answering.", 'Timer set for 5 minutes.']);
    expect(r.stderr).toContain('ECONNREFUSED');
  });

  it('without --ha the configured Home Assistant is reported, never called', async () => {
    const r = await simulate('computer turn on the extractor fan\ngo\n', { url: ha.url, token: ha.token, args: [] });
    expect(ha.requests).toEqual([]);
    expect(r.of('delivered')).toEqual([expect.objectContaining({ target: 'home-assistant', detail: `not called: ${ha.url} (pass --ha)` })]);
  });
});
