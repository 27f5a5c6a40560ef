import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { simulate as runSimulate } from '../conversation/sim.js';
import { startOllamaDouble, type OllamaDouble } from '../support/ollama-server.js';
import { closedUrl } from '../support/http-double.js';

/** `hark simulate` with `args` (`--ollama URL`), against the double in this process. */
const simulate = (input: string, args: string[]) => runSimulate(input, { args, drainMs: null, timeoutMs: 20_000 });

let ollama: OllamaDouble;
beforeEach(async () => {
  ollama = await startOllamaDouble();
  ollama.on('three cases of milk', { verb: 'add_to_list', object: '3 cases of milk' });
  ollama.on('read the order list', { verb: 'read_list', object: 'order list' });
});
afterEach(() => ollama.close());

describe('hark simulate --ollama', () => {
  it('proposal, the spoken question, commit on yes, then the action; the model is loaded first', async () => {
    const r = await simulate('computer we are short three cases of milk for the order list\ngo\nyes\ncomputer read the order list\n', ['--ollama', ollama.url]);
    expect(r.status).toBe(0);
    expect(r.lines[0]).toEqual(
      expect.objectContaining({
        type: 'simulate',
        intent: expect.objectContaining({ host: ollama.url, model: 'qwen2.5:0.5b-instruct', lists: expect.stringContaining('in memory') }),
      }),
    );
    expect(r.lines[0]!.targets).toEqual(expect.objectContaining({ intent: `intent pass (Ollama qwen2.5:0.5b-instruct at ${ollama.url})` }));
    // Warm-up: an empty chat before anything else.
    expect(ollama.requests[0]).toEqual(expect.objectContaining({ path: '/api/chat', body: expect.objectContaining({ messages: [], keep_alive: '30m' }) }));

    expect(r.of('proposal')[0]).toEqual({ type: 'proposal', intent: 'add_to_list', target: '3 cases of milk', atMs: 2000 });
    expect(r.of('commit')[0]).toEqual(
      expect.objectContaining({ type: 'commit', intent: 'add_to_list', target: '3 cases of milk', utteranceIds: ['line-1'], atMs: 3000 }),
    );
    expect(r.of('speak').map((l) => l.text)).toEqual([
      'Add three cases of milk to the order list? Say yes or no.',
      'Added three cases of milk to the order list.',
      // Said the kitchen way, a list request is the rules' own: read at once, the model not asked.
      'The order list: three cases of milk.',
    ]);
    expect(ollama.chats.map((c) => c.lastUser)).not.toContainEqual(expect.stringContaining('read the order list'));
    // The model call is waited for: each question comes before the next line is heard.
    const heardYes = r.lines.findIndex((l) => l.type === 'heard' && l.text === 'yes');
    expect(r.lines.findIndex((l) => l.type === 'proposal')).toBeLessThan(heardYes);
    expect(r.lines.at(-1)).toEqual(expect.objectContaining({ type: 'end', stack: ['base'] }));
  });

  it('ambiguous and discard lines', async () => {
    ollama.on('flux capacitor', { verb: 'recalibrate', object: 'flux capacitor' });
    const r = await simulate(
      'computer recalibrate the flux capacitor\ngo\nnever mind\ncomputer we are short three cases of milk for the order list\ngo\nno\n',
      ['--ollama', ollama.url],
    );
    expect(r.of('ambiguous')).toEqual([
      { type: 'ambiguous', text: 'recalibrate the flux capacitor', reason: '"recalibrate" is not one of the allowed intents', atMs: 2000 },
    ]);
    expect(r.of('discard')).toEqual([{ type: 'discard', intent: 'add_to_list', reason: 'no', atMs: 6000 }]);
    expect(r.of('commit')).toEqual([]);
    expect(r.stderr).toContain('intent reply unusable');
  });

  it('Ollama down: said for every request (in full once, then briefly), each kept in the submissions file, timers still work', async () => {
    const r = await simulate(
      'computer we are short three cases of milk for the order list\ngo\ncomputer we are short three cases of milk for the order list\ngo\ncomputer set a timer for ten minutes\n',
      ['--ollama', await closedUrl(), '--drain-ms', '0'],
    );
    expect(r.status).toBe(0);
    // Not only the first failure of an outage is spoken; nobody believes the second went through.
    expect(r.of('speak').map((l) => l.text)).toEqual(["I can't reach the intent model.", 'The intent model is still away.', 'Timer set for 10 minutes.']);
    const kept = readFileSync(join(r.outDir, 'submissions.jsonl'), 'utf8').trim().split('\n');
    expect(kept).toHaveLength(2);
    expect(r.stderr).toContain('intent model warm-up failed');
  });

  it('without --ollama nothing changes: queries go to the file target', async () => {
    const r = await simulate('computer add milk\ngo\n', []);
    expect(r.of('submit')).toEqual([expect.objectContaining({ target: 'file' })]);
    expect(r.of('proposal')).toEqual([]);
    expect(r.lines[0]!.intent).toBeUndefined();
  });

  it('rejects a URL that is not one', async () => {
    const r = await simulate('', ['--ollama', 'localhost']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--ollama must be an http:// URL such as http://127.0.0.1:11434, got "localhost"');
  });
});
