import { rng } from '../../support/prng.js';
import type { Entry, Expect, Setup } from './entries.js';

/**
 * Generated corpus lines: everyday ways of asking for the same few things, crossed with names,
 * durations, quantities and lists. The phrasings are written from how cooks and pickers talk
 * (the examples and their neighbours), independently of hark's own templates: a line here
 * that hark cannot read is a miss to count, not a template to copy.
 *
 * Deterministic: each group's combinations are enumerated and a fixed subset is taken (a simple
 * linear congruential pick), so the corpus is the same on every run and on every commit.
 */
type Args = Record<string, unknown>;
interface Group {
  name: string;
  setup?: Setup;
  before?: string[];
  /** How many lines to take from the group. */
  take: number;
  lines: () => [string, Expect][];
}

const act = (name: string, args: Args = {}): Expect => ({ kind: 'actions', actions: [{ name, args }] });

/** The timers every standard window has running (run.ts SETUPS.standard). */
const RUNNING = ['rice', 'brisket', 'chips'];
/** [said, seconds] for an amount of time added or taken off. */
const MORE: [string, number][] = [
  ['five more minutes', 300],
  ['5 more minutes', 300],
  ['two more minutes', 120],
  ['another ten minutes', 600],
  ['another minute', 60],
  ['30 more seconds', 30],
  ['another half an hour', 1800],
  ['a couple more minutes', 120],
];
const AMOUNT: [string, number][] = [
  ['five minutes', 300],
  ['two minutes', 120],
  ['a minute', 60],
  ['30 seconds', 30],
  ['ten minutes', 600],
  ['a minute and a half', 90],
  ['half an hour', 1800],
];
const LENGTH: [string, number][] = [
  ['ten minutes', 600],
  ['12 minutes', 720],
  ['twenty-five minutes', 1500],
  ['an hour', 3600],
  ['an hour and a half', 5400],
  ['45 seconds', 45],
  ['three and a half minutes', 210],
  ['half an hour', 1800],
  ['1/2 an hour', 1800],
  ['three quarters of an hour', 2700],
  ['90 seconds', 90],
];
const NEW_NAMES = ['pasta', 'bread', 'stock', 'pork belly', 'boiled eggs', 'focaccia', 'custard', 'lamb shoulder'];
const LISTS: [string, string][] = [
  ['the shopping list', 'shopping'],
  ['the stores list', 'stores'],
  ['the prep list', 'prep'],
  ['the order list', 'order'],
  ['my shopping list', 'shopping'],
  ['our stores list', 'stores'],
];
/** [said, item, quantity, unit]. */
const ITEMS: [string, string, number?, string?][] = [
  ['three lemons', 'lemons', 3],
  ['lemons', 'lemons'],
  ['2 kilos of onions', 'onions', 2, 'kilos'],
  ['a bag of flour', 'flour', 1, 'bag'],
  ['some parsley', 'parsley'],
  ['double cream', 'double cream'],
  ['six tins of tomatoes', 'tomatoes', 6, 'tins'],
  ['two boxes of gloves', 'gloves', 2, 'boxes'],
  ['a case of milk', 'milk', 1, 'case'],
  ['more cling film', 'cling film'],
  ['twelve eggs', 'eggs', 12],
  ['a dozen limes', 'limes', 12],
];
const itemArgs = (i: (typeof ITEMS)[number]): Args => ({ item: i[1], ...(i[2] !== undefined ? { quantity: i[2] } : {}), ...(i[3] ? { unit: i[3] } : {}) });

function cross<A, B>(as: readonly A[], bs: readonly B[]): [A, B][] {
  return as.flatMap((a) => bs.map((b) => [a, b] as [A, B]));
}

const GROUPS: Group[] = [
  {
    name: 'add time to a timer named without "timer"',
    take: 36,
    lines: () =>
      cross(RUNNING, MORE).flatMap(([t, [d, s]]) => [
        [`give the ${t} ${d}`, act('timer.add', { seconds: s, label: t })],
        [`${t} needs ${d}`, act('timer.add', { seconds: s, label: t })],
        [`put ${d} on the ${t}`, act('timer.add', { seconds: s, label: t })],
        [`can you give the ${t} timer ${d} please`, act('timer.add', { seconds: s, label: t })],
        [`stick ${d} on the ${t} timer`, act('timer.add', { seconds: s, label: t })],
      ]),
  },
  {
    name: 'add or take off an amount',
    take: 30,
    lines: () =>
      cross(RUNNING, AMOUNT).flatMap(([t, [d, s]]) => [
        [`add ${d} to the ${t}`, act('timer.add', { seconds: s, label: t })],
        [`add ${d} to the ${t} timer`, act('timer.add', { seconds: s, label: t })],
        [`take ${d} off the ${t}`, act('timer.remove', { seconds: s, label: t })],
        [`knock ${d} off the ${t} timer`, act('timer.remove', { seconds: s, label: t })],
        [`the ${t} timer, take off ${d}`, act('timer.remove', { seconds: s, label: t })],
        [`extend the ${t} timer by ${d}`, act('timer.add', { seconds: s, label: t })],
        [`cut ${d} off the ${t}`, act('timer.remove', { seconds: s, label: t })],
      ]),
  },
  {
    name: 'cancel in everyday verbs',
    take: 36,
    lines: () =>
      RUNNING.flatMap((t) =>
        [
          `cancel the ${t} timer`,
          `scrap the ${t} timer`,
          `bin the ${t} timer`,
          `kill the ${t} timer`,
          `knock the ${t} timer off`,
          `knock off the ${t} timer`,
          `get rid of the ${t} timer`,
          `stop the ${t} timer`,
          `turn the ${t} timer off`,
          `you can cancel the ${t} timer`,
          `the ${t} timer can go`,
          `ditch the ${t} timer`,
          `uh, could you just cancel the ${t} timer please`,
          `forget the ${t} timer`,
          `lose the ${t} timer`,
          `cancel the ${t}`,
          `we don't need the ${t} timer any more`,
          `clear the ${t} timer`,
        ].map((l): [string, Expect] => [l, act('timer.cancel', { label: t })]),
      ),
  },
  {
    name: 'how long a timer has left',
    take: 30,
    lines: () =>
      RUNNING.flatMap((t) =>
        [
          `how long left on the ${t}`,
          `how long is left on the ${t} timer`,
          `how long has the ${t} got`,
          `how long till the ${t} is done`,
          `how long until the ${t} is ready`,
          `how much longer on the ${t}`,
          `what's left on the ${t} timer`,
          `when's the ${t} done`,
          `how's the ${t} timer doing`,
          `time left on the ${t}`,
          `how much time is left on the ${t}`,
          `is the ${t} timer still going`,
          `check the ${t} timer`,
        ].map((l): [string, Expect] => [l, act('timer.status', { label: t })]),
      ),
  },
  {
    name: 'which timers are running',
    take: 16,
    lines: () =>
      [
        'what timers do we have',
        'what have you got running',
        'what timers are going',
        'which timers are set',
        'what timers have we got',
        'have we got any timers going',
        "what's running",
        'what timers are on',
        'any timers running',
        'list the timers',
        'read me the timers',
        'how are the timers looking',
        'what have we got on the timers',
        'how long is left on the timers',
        'timers please',
        'what timers are running at the moment',
        'which timers have we got on',
      ].map((l): [string, Expect] => [l, act('timer.status')]),
  },
  {
    name: 'start a timer',
    setup: 'empty',
    take: 40,
    lines: () =>
      cross(LENGTH, ['', ...NEW_NAMES]).flatMap(([[d, s], n]) => {
        const args = n ? { seconds: s, label: n } : { seconds: s };
        if (!n)
          return [
            [`set a timer for ${d}`, act('timer.set', args)],
            [`timer for ${d} please`, act('timer.set', args)],
            [`stick a timer on for ${d}`, act('timer.set', args)],
            [`give me a timer for ${d}`, act('timer.set', args)],
            [`can you start a timer for ${d}`, act('timer.set', args)],
          ] as [string, Expect][];
        return [
          [`set a ${n} timer for ${d}`, act('timer.set', args)],
          [`${n} timer, ${d}`, act('timer.set', args)],
          [`start a timer for the ${n}, ${d}`, act('timer.set', args)],
          [`set a timer for ${d} for the ${n}`, act('timer.set', args)],
          [`put a timer on for the ${n} for ${d}`, act('timer.set', args)],
          [`timer for the ${n}, ${d}`, act('timer.set', args)],
        ] as [string, Expect][];
      }),
  },
  {
    name: 'pause and resume',
    take: 18,
    lines: () =>
      RUNNING.flatMap(
        (t) =>
          [
            [`pause the ${t} timer`, act('timer.pause', { label: t })],
            [`hold the ${t} timer`, act('timer.pause', { label: t })],
            [`put the ${t} timer on hold`, act('timer.pause', { label: t })],
            [`pause the ${t}`, act('timer.pause', { label: t })],
            [`freeze the ${t} timer`, act('timer.pause', { label: t })],
            [`stop the ${t} timer for a minute`, act('timer.pause', { label: t })],
          ] as [string, Expect][],
      ),
  },
  {
    name: 'resume',
    take: 10,
    lines: () =>
      RUNNING.flatMap((t) =>
        [`resume the ${t} timer`, `start the ${t} timer again`, `unpause the ${t}`, `carry on with the ${t} timer`, `restart the ${t} timer`].map(
          (l): [string, Expect] => [`[pause the ${t} timer] ${l}`, act('timer.resume', { label: t })],
        ),
      ),
  },
  {
    name: 'add to a list',
    take: 40,
    lines: () =>
      cross(ITEMS, LISTS).flatMap(
        ([i, [said, list]]) =>
          [
            [`add ${i[0]} to ${said}`, act('list.add', { list, ...itemArgs(i) })],
            [`put ${i[0]} on ${said}`, act('list.add', { list, ...itemArgs(i) })],
            [`stick ${i[0]} on ${said}`, act('list.add', { list, ...itemArgs(i) })],
            [`can you pop ${i[0]} on ${said} please`, act('list.add', { list, ...itemArgs(i) })],
            [`we need ${i[0]}, put it on ${said}`, act('list.add', { list, ...itemArgs(i) })],
            [`${said.replace(/^(the|my|our) /, '')}: ${i[0]}`, act('list.add', { list, ...itemArgs(i) })],
            [`write ${i[0]} on ${said}`, act('list.add', { list, ...itemArgs(i) })],
          ] as [string, Expect][],
      ),
  },
  {
    name: 'several items at once',
    take: 10,
    lines: () =>
      cross(
        [
          [ITEMS[0]!, ITEMS[2]!],
          [ITEMS[5]!, ITEMS[4]!, ITEMS[1]!],
          [ITEMS[3]!, ITEMS[6]!],
          [ITEMS[7]!, ITEMS[8]!, ITEMS[9]!],
          [ITEMS[10]!, ITEMS[11]!],
        ],
        LISTS.slice(0, 4),
      ).flatMap(([items, [said, list]]) => {
        const words = items.map((i) => i[0]);
        const joined = words.length === 2 ? `${words[0]} and ${words[1]}` : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
        return [[`add ${joined} to ${said}`, act('list.add', { list, items: items.map(itemArgs) })]] as [string, Expect][];
      }),
  },
  {
    name: 'take off a list',
    take: 16,
    lines: () =>
      cross(
        ITEMS.filter((i) => !i[0].startsWith('more')),
        LISTS.slice(0, 4),
      ).flatMap(([i, [said, list]]) => {
        const before = `add ${i[0]} to ${said}`;
        return [
          [`take the ${i[1]} off ${said}`, { list, item: i[1] }, before],
          [`cross ${i[1]} off ${said}`, { list, item: i[1] }, before],
          [`remove ${i[1]} from ${said}`, { list, item: i[1] }, before],
          [`scratch the ${i[1]} off ${said}`, { list, item: i[1] }, before],
        ].map(([l, a, b]) => [`[${b as string}] ${l as string}`, act('list.remove', a as Args)] as [string, Expect]);
      }),
  },
  {
    name: 'read a list',
    take: 26,
    lines: () =>
      LISTS.flatMap(([said, list]) =>
        [
          `what's on ${said}`,
          `tell me what's on ${said}`,
          `go through ${said}`,
          `read me ${said}`,
          `read out ${said}`,
          `what have we got on ${said}`,
          `what've we got on ${said}`,
          `run through ${said}`,
          `what's on ${said} at the moment`,
          `can you read ${said} back to me`,
          `read ${said}`,
        ].map((l): [string, Expect] => [l, act('list.read', { list })]),
      ),
  },
  {
    name: 'clear a list',
    take: 10,
    lines: () =>
      LISTS.flatMap(([said, list]) =>
        [`clear ${said}`, `wipe ${said}`, `empty ${said}`, `bin ${said}`, `scrap ${said}`, `start ${said} again from scratch`].map((l): [string, Expect] => [
          l,
          act('list.clear', { list }),
        ]),
      ),
  },
];

/** A fixed pick of `take` of the group's lines, spread over all of them. */
function pick<T>(all: readonly T[], take: number): T[] {
  if (all.length <= take) return [...all];
  // A seeded shuffle, then the first `take` in their original order.
  const rand = rng(12345);
  const order = all.map((_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order
    .slice(0, take)
    .sort((a, b) => a - b)
    .map((i) => all[i]!);
}

export function generatedEntries(): Entry[] {
  return GROUPS.flatMap((g) =>
    pick(g.lines(), g.take).map(([line, expect]): Entry => {
      const b = /^\[([^\]]*)\]\s*(.*)$/.exec(line);
      return { text: b ? b[2]! : line, expect, setup: g.setup ?? 'standard', before: b ? [b[1]!] : (g.before ?? []), source: `generated:${g.name}` };
    }),
  );
}
