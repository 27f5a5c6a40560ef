#!/usr/bin/env node
// Turns Home Assistant's public intent test sentences (github.com/home-assistant/intents,
// tests/<lang>/) for timers, "never mind" and list items into the cases.json the kitchen tests
// score hark with (test/kitchen/ha-cases.ts), in the shape of ../shared/ha-intents/cases.json.
// Test data only: the output is never part of what hark runs.
//
//   node scripts/ha-intents/convert.mjs --git DIR --lang es [--commit SHA] [--out FILE]
//
// DIR is a clone of home-assistant/intents (bare or not); the files are read at --commit (the
// one the English cases come from unless told), so the output names exactly what it was made of.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parse } from 'yaml';

export const INTENTS = [
  'HassStartTimer',
  'HassCancelTimer',
  'HassCancelAllTimers',
  'HassPauseTimer',
  'HassUnpauseTimer',
  'HassIncreaseTimer',
  'HassDecreaseTimer',
  'HassTimerStatus',
  'HassNevermind',
  'HassShoppingListAddItem',
  'HassListAddItem',
];
const FILE_OF = { HassShoppingListAddItem: 'shopping_list', HassListAddItem: 'todo' };
const ENGLISH_COMMIT = 'aa550032a57b67c13995c032220bc4101521ead2';

function args(argv) {
  const out = {};
  for (let i = 0; i < argv.length; i += 2) {
    const k = argv[i]?.replace(/^--/, '');
    if (!['git', 'lang', 'commit', 'out'].includes(k ?? '') || argv[i + 1] === undefined) {
      throw new Error(`convert.mjs: bad argument ${JSON.stringify(argv[i])}; usage: --git DIR --lang CODE [--commit SHA] [--out FILE]`);
    }
    out[k] = argv[i + 1];
  }
  if (!out.git || !out.lang) throw new Error('convert.mjs: --git DIR and --lang CODE are required');
  return out;
}

const first = (v) => (Array.isArray(v) ? v[0] : v);
const text = (v) => String(first(v)).trim();

/** HA's slots restated for a kitchen appliance, as the English cases' `expect` is. */
export function expectOf(intent, slots, where) {
  const e = {};
  const secs = (p) => (slots[`${p}hours`] ?? 0) * 3600 + (slots[`${p}minutes`] ?? 0) * 60 + (slots[`${p}seconds`] ?? 0);
  const has = (p) => ['hours', 'minutes', 'seconds'].some((u) => slots[`${p}${u}`] !== undefined);
  for (const [k, v] of Object.entries(slots)) {
    if (!/^(start_)?(hours|minutes|seconds)$/.test(k) && !['name', 'area', 'conversation_command', 'item'].includes(k)) {
      throw new Error(`${where}: slot ${k} is not one the converter knows`);
    }
    if (/(hours|minutes|seconds)$/.test(k) && typeof first(v) !== 'number') throw new Error(`${where}: slot ${k} is not a number: ${JSON.stringify(v)}`);
  }
  if (has('')) e.seconds = secs('');
  if (has('start_')) e.target_seconds = secs('start_');
  if (slots.item !== undefined) e.item = text(slots.item);
  if (intent === 'HassShoppingListAddItem') e.list = 'shopping list';
  else if (slots.name !== undefined && intent === 'HassListAddItem') e.list = text(slots.name);
  else if (slots.name !== undefined) e.name = text(slots.name);
  if (slots.area !== undefined) e.area = text(slots.area);
  if (slots.conversation_command !== undefined) e.command = text(slots.conversation_command).toLowerCase();
  return e;
}

export function convert(lang, commit, read, list) {
  const cases = [];
  const paths = [];
  for (const intent of INTENTS) {
    const file = `tests/${lang}/${FILE_OF[intent] ?? 'homeassistant'}_${intent}.yaml`;
    if (!list.includes(file)) throw new Error(`${file}: not in home-assistant/intents at ${commit}`);
    paths.push(file);
    const doc = parse(read(file));
    if (!Array.isArray(doc?.tests)) throw new Error(`${file}: tests: is not a list`);
    const seen = new Set();
    let n = 0;
    doc.tests.forEach((t, i) => {
      const where = `${file}#tests[${i}]`;
      if (t?.intent?.name !== intent) throw new Error(`${where}: intent.name is ${JSON.stringify(t?.intent?.name)}, not ${intent}`);
      if (!Array.isArray(t.sentences)) throw new Error(`${where}: sentences: is not a list`);
      const slots = t.intent.slots ?? {};
      const expect = expectOf(intent, slots, where);
      for (const raw of t.sentences) {
        const sentence = String(raw).trim().replace(/\s+/g, ' ');
        if (seen.has(sentence.toLowerCase())) continue;
        seen.add(sentence.toLowerCase());
        n += 1;
        cases.push({ id: `${intent}-${String(n).padStart(2, '0')}`, intent, sentence, slots, expect, source: where });
      }
    });
  }
  return {
    about: `Home Assistant's ${lang} timer, never mind and list-add test sentences, used only as held-out evaluation data for hark (not shipped). Made by scripts/ha-intents/convert.mjs; "expect" restates HA's slots as the English cases' does.`,
    source: {
      repository: 'https://github.com/home-assistant/intents',
      commit,
      paths,
      license: 'CC BY 4.0 (Creative Commons Attribution 4.0 International), LICENSE.md of that repository',
      attribution:
        'Test sentences (c) Home Assistant intents contributors, CC BY 4.0; extracted and restated as JSON (slots normalised, durations summed to seconds).',
    },
    cases,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const a = args(process.argv.slice(2));
  const commit = execFileSync('git', ['-C', a.git, 'rev-parse', `${a.commit ?? ENGLISH_COMMIT}^{commit}`], { encoding: 'utf8' }).trim();
  const list = execFileSync('git', ['-C', a.git, 'ls-tree', '-r', '--name-only', commit, `tests/${a.lang}/`], { encoding: 'utf8' }).split('\n');
  const read = (p) => execFileSync('git', ['-C', a.git, 'show', `${commit}:${p}`], { encoding: 'utf8' });
  const out = convert(a.lang, commit, read, list);
  const json = JSON.stringify(out, null, 1) + '\n';
  if (a.out) {
    mkdirSync(dirname(a.out), { recursive: true });
    writeFileSync(a.out, json);
    console.log(`${a.out}: ${out.cases.length} cases from ${out.source.paths.length} files at ${commit.slice(0, 7)}`);
  } else process.stdout.write(json);
}
