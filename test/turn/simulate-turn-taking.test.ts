import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { HARK_BIN } from '../support/paths.js';

/**
 * The turn-taking side, as a cook would try it through `hark simulate` (hark's voice is
 * modelled on the virtual clock at 70 ms a character; each plain line comes 1 s after the last).
 */
type Line = Record<string, unknown>;

function simulate(input: string, args: string[] = []): Promise<Line[]> {
  return new Promise((resolve, reject) => {
    const child = execFile(process.execPath, [HARK_BIN, 'simulate', '--drain-ms', '0', ...args], { timeout: 20_000 }, (err, stdout) => {
      if (err && !stdout) return reject(err);
      resolve(
        stdout
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as Line),
      );
    });
    child.stdin!.end(input);
  });
}

const at = (text: string, atMs: number) => JSON.stringify({ text, atMs });
const spoken = (lines: Line[]) => lines.filter((l) => l.type === 'speak').map((l) => l.text);

describe('"repeat" twice', () => {
  it('the second "repeat" cuts off the first and is said, not refused by the cooldown the first started', async () => {
    const lines = await simulate(['computer set a timer for ten minutes', 'repeat', 'repeat'].join('\n') + '\n');
    // The timer notice, then two repeats of it: the second one was heard while the first was playing.
    expect(spoken(lines)).toEqual(['Timer set for 10 minutes.', 'Timer set for 10 minutes.', 'Timer set for 10 minutes.']);
    expect(lines.filter((l) => l.type === 'action.dropped')).toEqual([]);
    expect(lines.filter((l) => l.type === 'speak.stopped').map((l) => l.reason)).toEqual(['barge-in', 'barge-in']);
  });
});

describe('a double "stop"', () => {
  it('is not recorded as superseded by itself', async () => {
    const lines = await simulate([at('computer set a timer for ten minutes', 1000), at('stop', 1500), at('stop', 2000)].join('\n') + '\n');
    expect(lines.filter((l) => l.type === 'action' && l.name === 'stop')).toHaveLength(2);
    expect(lines.filter((l) => l.type === 'action.superseded')).toEqual([]);
  });
});

describe('talk not addressed to hark', () => {
  const answer = 'computer what is on the shopping list';

  it('wake-word mode: "behind you" between two cooks does not cut hark off; it is logged as not addressed to hark', async () => {
    const lines = await simulate([at(answer, 1000), at('behind you', 1500)].join('\n') + '\n');
    expect(lines.filter((l) => l.type === 'speak.stopped')).toEqual([]);
    expect(lines.filter((l) => l.type === 'interruption')).toMatchObject([
      { decision: 'filter', text: 'behind you', reason: expect.stringContaining('not addressed to hark') },
    ]);
    // Not routed: nothing ignored, nothing appended.
    expect(lines.filter((l) => l.type === 'ignored')).toEqual([]);
  });

  it.each([
    ['computer set a timer for two minutes', 'timer.set'],
    ['repeat', 'repeat'],
    ['stop', 'stop'],
    ['wait stop', null],
  ] as const)('wake-word mode: "%s" (the wake phrase, a command of the top frame, a stop word) still interrupts', async (said, expectAction) => {
    const lines = await simulate([at(answer, 1000), at(said, 1500)].join('\n') + '\n');
    expect(lines.filter((l) => l.type === 'speak.stopped')).toHaveLength(1);
    if (expectAction) expect(lines.filter((l) => l.type === 'action').map((l) => l.name)).toContain(expectAction);
  });

  it('always-listen mode keeps the one-listener filter: any words but a backchannel interrupt', async () => {
    const lines = await simulate(['always listen', at(answer.replace('computer ', ''), 3000), at('behind you', 3500)].join('\n') + '\n');
    expect(lines.filter((l) => l.type === 'interruption')).toMatchObject([{ decision: 'allow', text: 'behind you' }]);
    expect(lines.filter((l) => l.type === 'speak.stopped')).toHaveLength(1);
  });
});

describe('content frames take every word', () => {
  it('"okay" said while the dictation prompt plays is dictated, and the prompt goes on', async () => {
    const lines = await simulate(
      ['start dictation', at('okay', 1500), at('the walk-in is at four degrees', 6000), at('end dictation', 7000)].join('\n') + '\n',
    );
    expect(lines.filter((l) => l.type === 'submit')).toMatchObject([{ frame: 'dictation', text: 'okay the walk-in is at four degrees' }]);
    // A backchannel does not cut the prompt off.
    expect(lines.filter((l) => l.type === 'speak.stopped')).toEqual([]);
  });

  it('"yeah" said over the inventory read-back is an item, and hark reads on', async () => {
    const lines = await simulate(
      ['start inventory', at('two cases of milk', 4000), at('read back', 5000), at('yeah', 5500), at('save', 9000)].join('\n') + '\n',
    );
    expect(lines.filter((l) => l.type === 'speak.stopped')).toEqual([]);
    const submit = lines.find((l) => l.type === 'submit') as { items?: unknown[] } | undefined;
    expect(JSON.stringify(submit?.items)).toContain('yeah');
  });
});
