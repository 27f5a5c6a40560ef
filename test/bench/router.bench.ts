import { bench, describe } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import { CommandRouter } from '../../src/command/router.js';
import type { FramesSpec, RuleSpec } from '../../src/command/spec.js';

/**
 * Dispatch through a 4-deep stack (base + 3 frames) with 50 rules per frame: the utterance misses
 * every rule on the way down and is taken by the last rule of the base frame, so it is the worst
 * case of a realistic config. Target: ≤ 50 µs per utterance on the Pi.
 */
function misses(frame: string): RuleSpec[] {
  const rules: RuleSpec[] = [];
  for (let i = 0; i < 24; i++) rules.push({ exact: [`${frame} word ${i}`, `${frame} other ${i}`, `${frame} third ${i}`], do: [{ say: 'x' }] });
  // Half the patterns start with literal text (skipped by a startsWith check), half with a group
  // (the regex always runs), as the default timer patterns do.
  for (let i = 0; i < 12; i++) rules.push({ pattern: `^${frame} (?:thing|item) ${i} (?<rest>.+)$`, do: [{ say: 'x' }] });
  for (let i = 0; i < 12; i++) rules.push({ pattern: `^(?:please )?${frame} (?:thing|item) ${i} (?<rest>.+)$`, do: [{ say: 'x' }] });
  return rules;
}

const frames: FramesSpec = {
  base: {
    kind: 'base',
    rules: [
      ...misses('base'),
      { exact: ['open a'], do: [{ push: 'a' }] },
      { pattern: '^(?:please )?find the (?<item>\\w+) on shelf (?<shelf>\\w+)$', do: [{ action: 'find', args: { item: '{item}' } }] },
    ],
  },
  a: { kind: 'query', silenceMs: 4000, target: 'file', rules: [...misses('a'), { exact: ['open b'], do: [{ push: 'b' }] }, 'check-parent'] },
  b: { kind: 'query', silenceMs: 4000, target: 'file', rules: [...misses('b'), { exact: ['open c'], do: [{ push: 'c' }] }, 'check-parent'] },
  c: { kind: 'query', silenceMs: 4000, target: 'file', rules: [...misses('c'), { intent: ['generate'], do: [{ say: 'x' }] }, 'check-parent'] },
};

const clock = new VirtualClock(0);
let effects = 0;
const router = new CommandRouter({ clock, frames, emit: () => void effects++ });
let n = 0;
const say = (text: string) => router.dispatch({ id: `b${n++}`, text, rawText: text, engine: 'text', atMs: 0 });
for (const open of ['open a', 'open b', 'open c']) say(open);
if (router.stack.join() !== 'base,a,b,c') throw new Error(`stack not built: ${router.stack.join()}`);

describe('router dispatch, 4-deep stack, 50 rules per frame', () => {
  bench('taken by the last rule of the bottom frame (pattern, 200 rules tried)', () => {
    say('Please find the bolts on shelf A3.');
  });
  bench('ignored after every frame (200 rules and the intent detector tried)', () => {
    say('the delivery came in early today');
  });
  bench('taken by the first rule of the top frame', () => {
    say('c word 0');
  });
});
