import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import { memoryLogger } from '../../src/core/log.js';
import { validateConfig } from '../../src/config/load.js';
import { buildTargets } from '../../src/command/actions/targets/index.js';
import { CommandCore } from '../../src/command/core.js';
import type { TimedEffect } from '../../src/core/effects.js';

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

/** The real core with real targets (files in a temp dir, webhooks to 127.0.0.1). */
function core(rawConfig: Record<string, unknown>) {
  const dir = mkdtempSync(join(tmpdir(), 'hark-core-'));
  const cfg = validateConfig(rawConfig, 'test');
  const clock = new VirtualClock(0);
  const effects: TimedEffect[] = [];
  const c = new CommandCore({
    clock,
    router: cfg.router,
    actions: cfg.actions,
    log: memoryLogger(),
    onEffect: (e) => effects.push({ ...e, atMs: clock.now() }),
    targets: (emit) => buildTargets(cfg.actions.targets, { dataDir: dir, emit }),
  });
  let n = 0;
  const say = (text: string, at: number) => {
    clock.advanceTo(at);
    c.dispatch({ id: `u${++n}`, text, rawText: text, engine: 'text', atMs: at });
  };
  return { dir, clock, core: c, effects, say };
}

describe('command core with real targets', () => {
  it('writes a query submission to the file target under the data dir', async () => {
    const s = core({});
    s.say('computer', 0);
    s.say('two soups for table four', 1000);
    s.say('send', 2000);
    await s.core.idle();
    const line = JSON.parse(readFileSync(join(s.dir, 'submissions.jsonl'), 'utf8').trim());
    expect(line).toEqual(
      expect.objectContaining({ target: 'file', kind: 'submit', frame: 'query', text: 'two soups for table four', atMs: 2000, utteranceIds: ['u2'] }),
    );
    expect(s.effects.filter((e) => e.type === 'delivered')).toEqual([expect.objectContaining({ target: 'file', kind: 'submit' })]);
  });

  it('forwards a fired action to a webhook (timer.done to the kitchen display)', async () => {
    const got: unknown[] = [];
    const srv = createServer((req, res) => {
      let b = '';
      req.on('data', (c) => (b += c));
      req.on('end', () => {
        got.push(JSON.parse(b));
        res.writeHead(204).end();
      });
    });
    servers.push(srv);
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(srv.address() as AddressInfo).port}/timers`;
    const s = core({ actions: { targets: { display: { type: 'webhook', url, timeoutMs: 2000, retries: 0 } }, forward: { 'timer.done': ['display'] } } });
    s.say('computer set a pasta timer for one minute', 0);
    s.clock.advanceTo(60_000);
    await s.core.idle();
    expect(got).toEqual([{ target: 'display', kind: 'action', atMs: 60_000, action: 'timer.done', args: { label: 'pasta', seconds: 60 } }]);
    expect(s.effects.filter((e) => e.type === 'delivered')).toEqual([expect.objectContaining({ target: 'display', kind: 'action', detail: 'HTTP 204' })]);
  });

  it('reports a failed delivery without stopping the pipeline', async () => {
    const s = core({
      router: { frames: { query: { target: 'display' } } },
      actions: { targets: { display: { type: 'webhook', url: 'http://127.0.0.1:9/', timeoutMs: 200, retries: 1, backoffMs: 0 } } },
    });
    s.say('computer soup', 0);
    s.say('go', 1000);
    s.say('computer set a timer for 1 minute', 2000);
    await s.core.idle();
    expect(s.effects.filter((e) => e.type === 'delivery-failed')).toEqual([expect.objectContaining({ target: 'display', kind: 'submit', attempts: 2 })]);
    expect(s.effects.filter((e) => e.type === 'action').map((e) => e.type === 'action' && e.name)).toEqual(['timer.set']);
  });

  it('a speak target reads the submission back', async () => {
    const s = core({ router: { frames: { dictation: { target: 'speak' } } } });
    s.say('start dictation', 0);
    s.say('hello there', 1000);
    s.say('end dictation', 2000);
    await s.core.idle();
    expect(
      s.effects
        .filter((e) => e.type === 'speak')
        .map((e) => e.type === 'speak' && e.text)
        .at(-1),
    ).toBe('hello there');
  });
});

describe('words over hark inside the follow-up window, both at once', () => {
  it('"and two pints of milk" after "add eggs…" is taken as said to hark; chatter is not; after the window nothing is', () => {
    const s = core({});
    s.say('computer add eggs to the shopping list', 1000);
    expect(s.core.followUpOpen()).toBe(true);
    expect(s.core.takesAsFollowUp('and two pints of milk')).toBe(true);
    expect(s.core.takesAsFollowUp('behind you')).toBe(false);
    s.clock.advanceTo(1000 + 6001);
    expect(s.core.takesAsFollowUp('and two pints of milk')).toBe(false);
  });
});
