import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_FRAMES } from '../../src/command/defaults.js';
import { Store } from '../../src/store/store.js';
import { hark, sha256, sideFiles, writeConfig, writeLog, type Spoken } from './fixtures.js';

/**
 * `hark replay --text-only` on a real segment log, through the real CLI: a technician's question is
 * "if I add this rule, what would yesterday's kitchen have done differently?".
 */

const HOUR = 3_600_000;
const now = Date.now();
/** Yesterday morning, and twenty minutes ago. */
const Y = now - 26 * HOUR;
const R = now - HOUR / 3;

const kitchen: Spoken[] = [
  { at: Y, phrase: 'computer', heard: 'Computer.' },
  // Within the query frame's 4 s of silence after "computer": a timer, which rings ten minutes later.
  {
    at: Y + 2_500,
    phrase: 'set a timer for ten minutes',
    heard: 'Set a timer for ten minutes.',
    actions: [{ name: 'timer.set', args: { seconds: 600 }, outcome: 'ok' }],
    later: [{ afterMs: 600_000 - 300, action: { name: 'timer.done', args: { seconds: 600 }, outcome: 'ok' } }],
  },
  // No wake phrase in wake-word mode: ignored, nothing stored but the words.
  { at: Y + 30_000, phrase: 'eighty six the salmon', heard: 'Eighty six the salmon.' },
  { at: Y + 45_000, phrase: 'computer', heard: null, cancelled: true },
  { at: Y + 50_000, phrase: 'hmm', heard: null },
  // "repeat" acts at once (last-wins no longer holds it back), so it is stored with its segment.
  { at: Y + 60_000, phrase: 'repeat', heard: 'Repeat.', actions: [{ name: 'repeat', args: {}, outcome: 'ok' }] },
  { at: R, phrase: 'eighty six the chicken', heard: 'Eighty six the chicken.' },
  { at: R + 20_000, phrase: 'stop', heard: 'Stop.', actions: [{ name: 'stop', args: {}, outcome: 'ok' }], noAudio: true },
];

const eightySix = { pattern: '^eighty six (?<item>.+)$', do: [{ action: 'eighty-six', args: { item: '{item}' } }] };

let dir: string;
let db: string;
let ids: number[];
let same: string;
let newRule: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hark-replay-'));
  db = join(dir, 'hark.db');
  ({ ids } = await writeLog(db, kitchen));
  same = writeConfig(dir, 'same.yaml', {});
  // `rules` replaces the frame's list: the defaults, plus the new rule.
  newRule = writeConfig(dir, 'new.yaml', { router: { frames: { base: { rules: [eightySix, ...DEFAULT_FRAMES.base.rules] } } } });
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Rec = Record<string, any>;
const jsonLines = (stdout: string): Rec[] =>
  stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Rec);

describe('hark replay --text-only', () => {
  it('shows a vocabulary change on exactly the segments it touches', async () => {
    const r = await hark(['replay', '--db', db, '--text-only', '--config', newRule]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(
      new RegExp(
        `^#${ids[2]} \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d differs  text: "Eighty six the salmon\\."  actions: \\(none\\) → eighty-six\\{item=the salmon\\}$`,
      ),
    );
    expect(lines[1]).toMatch(new RegExp(`^#${ids[6]} .* differs  text: "Eighty six the chicken\\."  actions: \\(none\\) → eighty-six\\{item=the chicken\\}$`));
    expect(lines[2]).toBe('6 segments replayed (text only): 2 differ [actions 2], 4 same; 2 skipped (1 push-to-talk cancelled, 1 nothing was heard)');
  });

  it('reports no difference for an unchanged config (timers, the last-wins window and the stored later actions agree)', async () => {
    const r = await hark(['replay', '--db', db, '--text-only', '--config', same]);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe('6 segments replayed (text only): 0 differ, 6 same; 2 skipped (1 push-to-talk cancelled, 1 nothing was heard)');
  });

  it('--all prints every segment with its status, and the later actions on the segment before them', async () => {
    const r = await hark(['replay', '--db', db, '--text-only', '--config', same, '--all']);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(kitchen.length + 1);
    expect(lines.slice(0, -1).map((l) => l.split(' ')[3])).toEqual(['same', 'same', 'same', 'skipped', 'skipped', 'same', 'same', 'same']);
    expect(lines[1]).toContain('actions: timer.set{seconds=600}');
    expect(lines[3]).toContain('(push-to-talk cancelled)');
    // The repeat acts with its segment; the timer ringing ten minutes on comes after "repeat".
    expect(lines[5]).toContain('actions: repeat, timer.done{seconds=600} (later)');
  });

  it('--since keeps only the recent segments', async () => {
    const r = await hark(['replay', '--db', db, '--text-only', '--config', newRule, '--since', '1h']);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    // Time of day only, unless the hour straddles midnight.
    expect(lines[0]).toMatch(new RegExp(`^#${ids[6]} (\\d{4}-\\d\\d-\\d\\d )?\\d\\d:\\d\\d:\\d\\d differs`));
    expect(lines[1]).toBe('2 segments replayed (text only): 1 differ [actions 1], 1 same');
    const none = await hark(['replay', '--db', db, '--text-only', '--config', newRule, '--since', new Date(now + HOUR).toISOString()]);
    expect(none.code).toBe(0);
    expect(none.stdout).toMatch(/^no segments since .* \(the newest is from /);
  });

  it('--json: one object per segment with the old and new outcome, then the summary', async () => {
    const r = await hark(['replay', '--db', db, '--text-only', '--config', newRule, '--json', '--since', '1h']);
    const [chicken, stop, summary] = jsonLines(r.stdout);
    expect(chicken).toEqual({
      type: 'segment',
      id: ids[6],
      startedAt: new Date(R).toISOString(),
      status: 'differs',
      differences: ['actions'],
      input: 'text',
      note: null,
      skipped: null,
      old: { texts: ['Eighty six the chicken.'], languages: [null], dropped: null, engine: 'whisper', actions: [] },
      new: {
        texts: ['Eighty six the chicken.'],
        languages: [null],
        dropped: null,
        engine: 'whisper',
        vad: null,
        actions: [{ name: 'eighty-six', args: { item: 'the chicken' }, outcome: 'ok' }],
        submissions: [],
        ignored: [],
        said: [],
        saidAfterMs: [],
        // The fixture's rows say nothing of the hangover in force: the config's base one.
        trailingSilenceMs: 600,
        stacks: [],
      },
    });
    // Stored without audio (disk-full mode): text-only does not care.
    expect(stop).toEqual(
      expect.objectContaining({ id: ids[7], status: 'same', old: expect.objectContaining({ actions: [{ name: 'stop', args: {}, outcome: 'ok' }] }) }),
    );
    expect(summary).toEqual({
      type: 'summary',
      replayed: 2,
      differ: 1,
      same: 1,
      skipped: 0,
      skippedBy: {},
      fromText: 2,
      differences: { vad: 0, text: 0, actions: 1 },
    });
  });

  it('explains a lost action from what only the new run knows (ignored, and why)', async () => {
    // The reverse change: "stop" no longer a base command, so the stored stop is not fired.
    const noStop = writeConfig(dir, 'no-stop.yaml', {
      router: { frames: { base: { rules: DEFAULT_FRAMES.base.rules.filter((r) => !JSON.stringify(r).includes('"stop"')) } } },
    });
    const r = await hark(['replay', '--db', db, '--text-only', '--config', noStop, '--since', '1h']);
    expect(r.stdout.trim().split('\n')[0]).toMatch(/ differs  text: "Stop\."  actions: stop → \(none: ignored: wake-word mode and no wake phrase\)$/);
  });

  it('never writes the log it reads: the file is byte-identical and no -wal or -shm appears', async () => {
    const before = sha256(db);
    expect(sideFiles(db)).toEqual([]);
    const r = await hark(['replay', '--db', db, '--text-only', '--config', newRule]);
    expect(r.code).toBe(0);
    expect(sha256(db)).toBe(before);
    expect(sideFiles(db)).toEqual([]);
  });

  it('reads the live log of a running daemon (newest rows still in the WAL) without disturbing it', async () => {
    const live = join(dir, 'live.db');
    copyFileSync(db, live);
    const store = new Store({ path: live, housekeeping: null, backgroundCheckpoint: false });
    try {
      store.recordSegment({
        segment: { pcm: new Int16Array(16_000), prerollSamples: 0, startedAt: now - 60_000, source: 'mic', openedBy: 'vad' },
        transcripts: [{ engine: 'whisper', rawText: ' Eighty six the soup.', text: 'Eighty six the soup.' }],
        utterance: { id: 'u-live', text: 'Eighty six the soup.', engine: 'whisper' },
      });
      expect(sideFiles(live)).toContain('-wal');
      const r = await hark(['replay', '--db', live, '--text-only', '--config', newRule, '--since', '5m']);
      expect(r.stdout).toContain('actions: (none) → eighty-six{item=the soup}');
      // The daemon carries on writing after the replay.
      expect(store.recordSegment({ segment: { pcm: new Int16Array(1600), prerollSamples: 0, startedAt: now } })).not.toBeNull();
    } finally {
      store.close();
    }
  });
});

describe('hark replay: no side effects', () => {
  it('calls no webhook and writes no target file: submissions and forwarded actions only show in the output', async () => {
    const hits: string[] = [];
    const server = createServer((req, res) => {
      hits.push(req.url ?? '');
      res.end('ok');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const small = join(dir, 'soup.db');
      await writeLog(small, [
        { at: R, phrase: 'computer', heard: 'Computer.' },
        {
          at: R + 2_500,
          phrase: 'what is the soup of the day',
          heard: 'What is the soup of the day?',
          intents: [{ kind: 'proposal', intent: 'question', target: 'file', confidence: 0.7, model: 'qwen2.5:0.5b', latencyMs: 900 }],
        },
        { at: R + 30_000, phrase: 'eighty six the soup', heard: 'Eighty six the soup.' },
      ]);
      const submissions = join(dir, 'submissions.jsonl');
      const cfg = writeConfig(dir, 'targets.yaml', {
        router: { frames: { base: { rules: [eightySix, ...DEFAULT_FRAMES.base.rules] } } },
        actions: {
          dataDir: join(dir, 'data'),
          targets: {
            file: { type: 'file', path: submissions },
            kitchen: { type: 'webhook', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook` },
          },
          forward: { 'eighty-six': ['kitchen'] },
        },
      });
      const r = await hark(['replay', '--db', small, '--text-only', '--config', cfg, '--json']);
      expect(r.code).toBe(0);
      expect(r.stderr).toBe(
        'hark replay: note: 1 segment(s) have intent-pass rows (model proposals); without --ollama replay does not run the intent pass, so what it committed shows as missing\n',
      );
      const [, soup, salmon] = jsonLines(r.stdout);
      // The query frame's silence timer ran out between segments and submitted, as on the appliance.
      expect(soup!.new.submissions).toEqual([{ frame: 'query', target: 'file', text: 'What is the soup of the day?' }]);
      expect(salmon!.new.actions).toEqual([{ name: 'eighty-six', args: { item: 'the soup' }, outcome: 'ok' }]);
      expect(hits).toEqual([]);
      expect(existsSync(submissions)).toBe(false);
      expect(existsSync(join(dir, 'data'))).toBe(false);
    } finally {
      server.close();
    }
  });
});

describe('hark replay: bad input', () => {
  it('a missing file says so, with the path', async () => {
    const r = await hark(['replay', '--db', join(dir, 'nope.db'), '--text-only', '--config', same]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`hark: ${join(dir, 'nope.db')}: no such database file (give the segment log with --db, e.g. /var/lib/hark/hark.db)\n`);
  });

  it('a file that is not SQLite, a SQLite file that is not a hark log, and a corrupt log are refused by name', async () => {
    const text = join(dir, 'notes.txt');
    writeFileSync(text, 'shopping list: milk, eggs\n'.repeat(200));
    const other = join(dir, 'other.db');
    const o = new BetterSqlite3(other);
    o.exec('CREATE TABLE recipes (name TEXT)');
    o.close();
    const corrupt = join(dir, 'corrupt.db');
    copyFileSync(db, corrupt);
    const bytes = Buffer.from(sha256(corrupt).repeat(200));
    const fd = (await import('node:fs')).openSync(corrupt, 'r+');
    (await import('node:fs')).writeSync(fd, bytes, 0, bytes.length, 4096 * 2);
    (await import('node:fs')).closeSync(fd);

    const a = await hark(['replay', '--db', text, '--text-only', '--config', same]);
    expect(a.code).toBe(1);
    expect(a.stderr).toMatch(new RegExp(`^hark: ${text}: not a SQLite database`));
    const b = await hark(['replay', '--db', other, '--text-only', '--config', same]);
    expect(b.stderr).toBe(`hark: ${other}: not a hark segment log (no segments table); give the file hark run writes (store.path)\n`);
    const c = await hark(['replay', '--db', corrupt, '--text-only', '--config', same]);
    expect(c.code).toBe(1);
    expect(c.stderr).toMatch(new RegExp(`^hark: ${corrupt}: database is corrupt \\(.+\\); replay will not read it\\n$`));
  });

  it('an invalid config exits 2 naming every problem; a bad --since exits 2 saying what it takes', async () => {
    const bad = writeConfig(dir, 'bad.yaml', {
      vad: { threshold: 3 },
      router: { frames: { base: { rules: [{ pattern: '^eighty six (?<item>.+$', do: ['submit'] }] } } },
    });
    const r = await hark(['replay', '--db', db, '--text-only', '--config', bad]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('vad.threshold');
    expect(r.stderr).toContain('router.frames.base.rules.0.pattern');
    const s = await hark(['replay', '--db', db, '--text-only', '--config', same, '--since', 'yesterday']);
    expect(s.code).toBe(2);
    expect(s.stderr).toBe('hark: --since: expected a duration such as 30m, 1h or 2d, or a time such as 2026-03-14T09:30, got "yesterday"\n');
  });
});
