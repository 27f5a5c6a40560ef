import { describe, expect, it } from 'vitest';
import { parseConfigText, validateConfig } from '../../src/config/load.js';
import { DEFAULT_INTENTS } from '../../src/intent/intent-spec.js';
import { proposalFormat, renderPrompt } from '../../src/intent/prompt.js';
import { readProposal } from '../../src/intent/proposal.js';

/** Every problem the loader reports for this YAML, one line each. */
function problems(yaml: string): string[] {
  try {
    parseConfigText(yaml, 'hark.yaml');
    return [];
  } catch (err) {
    return (err as Error).message
      .split('\n')
      .slice(1)
      .map((l) => l.trim());
  }
}

const ONE_INTENT = `intent:
  intents:
    - name: restock_shelf
      description: ask for a shelf to be refilled; the object is the shelf
      examples: ["shelf B4 is empty", {say: "refill aisle two", object: "aisle 2"}]
      action: list.add
      list: restock
`;

describe('intent config: prompt and intents change together', () => {
  it('defaults: the kitchen and warehouse intents, qwen2.5:0.5b-instruct on 127.0.0.1, 6 s, keep_alive 30m', () => {
    const { intent } = validateConfig({}, 'defaults');
    expect(intent.intents.map((i) => i.name)).toEqual([
      'set_timer',
      'cancel_timer',
      'add_to_list',
      'remove_from_list',
      'read_list',
      'inventory_count',
      'locate_item',
      'report_issue',
      'call_manager',
    ]);
    expect(intent).toEqual(
      expect.objectContaining({
        enabled: true,
        host: 'http://127.0.0.1:11434',
        model: 'qwen2.5:0.5b-instruct',
        timeoutMs: 6000,
        keepAlive: '30m',
        memoryTurns: 5,
        breakerOpenMs: 30_000,
        frames: ['query'],
      }),
    );
    expect(intent.listen).toEqual(
      expect.objectContaining({
        bufferMaxChars: 800,
        contextChars: 1500,
        triggerTimeoutMs: 3000,
        rateLimitMs: 2000,
        dedupWindowMs: 30_000,
        dedupThreshold: 0.7,
        dedupMax: 50,
      }),
    );
  });

  it('the prompt is generated from the list: every intent, its description and worked examples', () => {
    const prompt = renderPrompt(validateConfig({}, 'defaults').intent.prompt, DEFAULT_INTENTS);
    for (const i of DEFAULT_INTENTS) expect(prompt).toContain(`- ${i.name}: ${i.description}`);
    expect(prompt).toContain('"add three cases of milk to the order list" → {"verb":"add_to_list","object":"3 cases of milk"}');
    expect(prompt).not.toContain('{intents}');
  });

  it('a new intent is one entry: the prompt names it, the schema allows it, the validator accepts it', () => {
    const { intent } = parseConfigText(ONE_INTENT, 'hark.yaml');
    const prompt = renderPrompt(intent.prompt, intent.intents);
    expect(prompt).toContain('- restock_shelf: ask for a shelf to be refilled');
    expect(prompt).toContain('"shelf B4 is empty"\n');
    expect(prompt).toContain('"refill aisle two" → {"verb":"restock_shelf","object":"aisle 2"}');
    expect(prompt).not.toContain('add_to_list');
    expect(proposalFormat(intent.intents)).toEqual(
      expect.objectContaining({ properties: expect.objectContaining({ verb: { type: 'string', enum: ['restock_shelf', 'unknown'] } }) }),
    );
    expect(readProposal('{"verb": "restock_shelf", "object": "B4"}', intent.intents)).toEqual(expect.objectContaining({ status: 'PROPOSED', target: 'B4' }));
    expect(readProposal('{"verb": "add_to_list", "object": "milk"}', intent.intents)).toEqual(expect.objectContaining({ status: 'AMBIGUOUS' }));
    // No ask given: a plain one from the name.
    expect(intent.intents[0]!.ask).toBe('Restock shelf {object}?');
  });

  it('rejects a prompt that cannot name the intents, or names them by hand', () => {
    expect(problems('intent:\n  prompt: "Answer with JSON."\n')).toEqual([
      'intent.prompt: must contain {intents}: the intent list is written there, so the model can name every intent in intent.intents',
    ]);
    expect(problems('intent:\n  prompt: "Intents: {intent_list}"\n')).toEqual([
      'intent.prompt: unknown placeholder {intent_list} (known: {intents}, {names})',
      'intent.prompt: must contain {intents}: the intent list is written there, so the model can name every intent in intent.intents',
    ]);
    expect(problems('intent:\n  prompt: "Use add_to_list for lists.\\n{intents}"\n')).toEqual([
      'intent.prompt: names the intent add_to_list itself; {intents} already lists every intent, so write intents only under intent.intents',
    ]);
    expect(problems('intent:\n  prompt: "Use refund_order for refunds.\\n{intents}"\n')).toEqual([
      'intent.prompt: names "refund_order", which is not in intent.intents: the model would propose it and hark would reject it',
    ]);
  });

  it('rejects an intent the prompt cannot name: bad names, "unknown", twice', () => {
    const intent = (name: string) => `    - {name: "${name}", description: d, action: list.add}\n`;
    expect(problems(`intent:\n  intents:\n${intent('Add To List')}${intent('unknown')}${intent('x')}${intent('x')}`)).toEqual([
      'intent.intents.0.name: the prompt cannot name "Add To List": use lower case letters, digits and underscores, starting with a letter (e.g. add_to_list)',
      'intent.intents.1.name: "unknown" is what the model answers when nothing fits; it cannot be an intent',
      'intent.intents.3.name: "x" is listed twice',
    ]);
  });

  it('rejects what hark could not carry out or ask', () => {
    expect(
      problems(`intent:
  frames: [inventory, kitchen]
  intents:
    - {name: page_chef, description: d, action: pager.send, ask: "Page {chef}?"}
`),
    ).toEqual([
      'intent.intents.0.ask: unknown slot {chef} (known: {object}, {item}, {quantity}, {unit}, {list}, {duration}, {timer}, {theTimer})',
      'intent.frames.0: an inventory frame submits no text; only query and dictation frames can',
      'intent.frames.1: unknown frame "kitchen" (router.frames has: base, query, voice, dictation, confirm, inventory)',
      'intent.intents.0.action: nothing carries out "pager.send": use one of hark\'s (stop, repeat, timer.set, timer.cancel, timer.status, list.add, list.remove, list.read, inventory.count, item.locate, issue.report, manager.call) or forward it to a target (actions.forward.pager.send)',
    ]);
    // Forwarded to a target, a custom action is fine.
    expect(
      problems(
        `intent:\n  intents:\n    - {name: page_chef, description: d, action: pager.send}\nactions:\n  targets:\n    pager: {type: webhook, url: "http://127.0.0.1:9/page"}\n  forward:\n    pager.send: [pager]\n`,
      ),
    ).toEqual([]);
  });

  it('checks the client settings', () => {
    expect(problems('intent:\n  host: "localhost:11434"\n  keepAlive: forever\n  timeoutMs: 50\n')).toEqual([
      'intent.host: must be an http:// or https:// URL such as http://127.0.0.1:11434',
      'intent.keepAlive: must be a duration such as 30m or 1h, or -1 (keep loaded)',
      'intent.timeoutMs: must be a whole number between 100 and 60000',
    ]);
    expect(validateConfig({ intent: { keepAlive: -1 } }, 't').intent.keepAlive).toBe('-1');
    expect(problems('actions:\n  targets:\n    intent: {type: speak}\n')).toEqual([
      'actions.targets.intent: the target name "intent" is the intent pass\'s; name this target something else',
    ]);
  });
});
