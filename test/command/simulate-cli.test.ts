import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HARK_BIN, ROOT } from '../support/paths.js';

/** Run the built CLI (`node bin/hark.js simulate`) with stdin piped; parse its JSON lines. */
function simulate(input: string, args: string[] = []) {
  const outDir = mkdtempSync(join(tmpdir(), 'hark-sim-test-'));
  const r = spawnSync(process.execPath, [HARK_BIN, 'simulate', '--out-dir', outDir, ...args], {
    cwd: ROOT,
    input,
    encoding: 'utf8',
    timeout: 20_000,
    env: { ...process.env, HARK_CONFIG: '' },
  });
  const lines = r.stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown> & { type: string });
  return { status: r.status, stderr: r.stderr, lines, outDir, of: (type: string) => lines.filter((l) => l.type === type) };
}

/** A config file in a temp dir. */
function configFile(yaml: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'hark-sim-cfg-'));
  const path = join(dir, 'hark.yaml');
  writeFileSync(path, yaml);
  return path;
}

describe('hark simulate', () => {
  it('runs a kitchen session end to end: stack, timer, speech, ringing at the right virtual time until "thanks"', () => {
    const r = simulate('computer\nset a timer for ten minutes\n{"atMs": 620000}\nthanks\n');
    expect(r.status).toBe(0);
    expect(r.lines[0]).toEqual(expect.objectContaining({ type: 'simulate', outDir: r.outDir, mode: 'wake-word', stack: ['base'] }));
    expect(r.of('stack').map((l) => l.frames)).toEqual([['base', 'query'], ['base']]);
    expect(r.of('action')).toEqual([
      { type: 'action', name: 'timer.set', args: { seconds: 600 }, seq: 1, atMs: 2000 },
      { type: 'action', name: 'timer.done', args: { seconds: 600 }, seq: 2, atMs: 602_000 },
    ]);
    // It rings (earcon and words) every 6 s until someone says "thanks", with no wake word.
    expect(r.of('speak').map((l) => [l.text, l.atMs])).toEqual([
      ['Timer set for 10 minutes.', 2000],
      ['Timer done.', 602_000],
      ['Timer done.', 608_000],
      ['Timer done.', 614_000],
      ['Timer done.', 620_000],
    ]);
    expect(r.of('timer').at(-1)).toEqual(expect.objectContaining({ event: 'stopped', by: 'voice', atMs: 621_000 }));
    const end = r.lines.at(-1)!;
    expect(end).toEqual({ type: 'end', atMs: 621_000, stack: ['base'], pendingTimers: 0, rejectedLines: 0 });
  });

  it('a [tap] silences a ringing timer first; two due timers ring in turn, each named', () => {
    const r = simulate('computer set a pasta timer for 1 minute\ncomputer set a rice timer for 1 minute\n{"atMs": 75000}\n[tap]\n{"atMs": 200000}\n');
    expect(r.status).toBe(0);
    expect(
      r
        .of('speak')
        .filter((s) => s.earcon === 'timer')
        .map((s) => [s.text, s.atMs]),
    ).toEqual([
      ['Pasta timer done.', 61_000],
      ['Rice timer done.', 62_000],
      ['Pasta timer done.', 67_000],
      ['Rice timer done.', 73_000],
    ]);
    expect(r.of('button')).toEqual([expect.objectContaining({ consumed: true, atMs: 76_000 })]);
    expect(
      r
        .of('timer')
        .filter((t) => t.event === 'stopped')
        .map((t) => [t.label, t.by]),
    ).toEqual([
      ['pasta', 'button'],
      ['rice', 'button'],
    ]);
  });

  it('takes JSON lines with atMs, and {atMs} alone only moves the clock', () => {
    const r = simulate(
      ['{"text": "computer", "atMs": 500}', '{"text": "soup of the day", "atMs": 700}', '{"atMs": 4000}', '{"atMs": 4700}', 'hello'].join('\n'),
    );
    expect(r.of('submit')).toEqual([{ type: 'submit', frame: 'query', target: 'file', text: 'soup of the day', utteranceIds: ['line-2'], atMs: 4700 }]);
    // Plain text is 1 s after the previous line, including an {atMs} line.
    expect(r.of('heard').at(-1)).toEqual({ type: 'heard', line: 5, text: 'hello', atMs: 5700 });
    expect(r.of('ignored')).toEqual([expect.objectContaining({ frame: 'base', text: 'hello', atMs: 5700 })]);
  });

  it('writes submissions to the file target in the out dir and says where', () => {
    const r = simulate('computer\nwhat is the special\ngo\n');
    const file = join(r.outDir, 'submissions.jsonl');
    expect((r.lines[0]!.targets as Record<string, string>).file).toBe(`file ${file}`);
    expect(JSON.parse(readFileSync(file, 'utf8').trim())).toEqual(expect.objectContaining({ frame: 'query', text: 'what is the special' }));
    expect(r.of('delivered')).toEqual([expect.objectContaining({ target: 'file', detail: file })]);
  });

  it('reports a malformed line on stderr with its number, and carries on (exit 1 at the end)', () => {
    const r = simulate('computer\n{"text": 7}\n{not json\nmode query\n');
    expect(r.stderr).toContain('hark simulate: line 2: "text" must be a string, got 7 (line skipped)');
    expect(r.stderr).toMatch(/hark simulate: line 3: not valid JSON/);
    expect(r.of('heard').map((l) => l.text)).toEqual(['computer', 'mode query']);
    expect(r.of('speak').map((l) => l.text)).toEqual(['Wake word mode. Say computer first.']);
    expect(r.lines.at(-1)).toEqual(expect.objectContaining({ type: 'end', rejectedLines: 2 }));
    expect(r.status).toBe(1);
  });

  it('stops draining after one virtual hour and says how many timers are left', () => {
    const r = simulate('computer set a timer for two hours\n');
    expect(r.lines.at(-1)).toEqual(expect.objectContaining({ type: 'end', pendingTimers: 1 }));
    expect(r.of('action').map((l) => l.name)).toEqual(['timer.set']);
  });

  it('uses frames from --config (a technician trying a rule change)', () => {
    const cfg = configFile(`router:
  frames:
    base:
      rules:
        - prefix: [chef]
          do: {push: query}
        - pattern: '^eighty six (?<item>.+)$'
          do: {action: menu.out, args: {item: '{item}'}}
`);
    const r = simulate('eighty six the halibut\nchef\nsoup\n', ['--config', cfg]);
    expect(r.status).toBe(0);
    expect(r.of('action')).toEqual([expect.objectContaining({ name: 'menu.out', args: { item: 'the halibut' } })]);
    expect(r.of('submit').map((l) => l.text)).toEqual(['soup']);
  });

  it('[tap] presses the button: in dictation it submits and closes; in the base frame it is not consumed', () => {
    const r = simulate('start dictation\n{"atMs": 5000}\nfirst line\n[tap]\n[tap]\n');
    expect(r.status).toBe(0);
    expect(r.of('button')).toEqual([
      { type: 'button', line: 4, gesture: 'tap', consumed: true, atMs: 7000 },
      { type: 'button', line: 5, gesture: 'tap', consumed: false, atMs: 8000 },
    ]);
    expect(r.of('submit')).toEqual([expect.objectContaining({ frame: 'dictation', text: 'first line', atMs: 7000 })]);
    expect(r.of('stack').map((l) => l.frames)).toEqual([['base', 'dictation'], ['base']]);
  });

  it('a misheard exit ("and dictation.") still ends dictation', () => {
    const r = simulate('start dictation\n{"atMs": 5000}\nfirst line\nand dictation.\n');
    expect(r.of('submit').map((l) => l.text)).toEqual(['first line']);
    expect(r.lines.at(-1)).toEqual(expect.objectContaining({ type: 'end', stack: ['base'] }));
  });

  it('--trace shows which rule took each utterance', () => {
    const r = simulate('computer\n', ['--trace']);
    expect(r.of('matched')).toEqual([expect.objectContaining({ frame: 'base', rule: 0, kind: 'prefix' })]);
    expect(simulate('computer\n').of('matched')).toEqual([]);
  });

  it('does not call webhooks unless asked', () => {
    const cfg = configFile(
      'router:\n  frames:\n    query:\n      target: display\nactions:\n  targets:\n    display: {type: webhook, url: "http://127.0.0.1:9/hook"}\n',
    );
    const r = simulate('computer soup\ngo\n', ['--config', cfg]);
    expect(r.of('delivered')).toEqual([expect.objectContaining({ target: 'display', detail: 'not called: http://127.0.0.1:9/hook (pass --live-webhooks)' })]);
  });

  it('keeps file targets with absolute paths inside the out dir', () => {
    const cfg = configFile('actions:\n  targets:\n    file: {type: file, path: /var/lib/hark/q.jsonl}\n');
    const r = simulate('computer soup\ngo\n', ['--config', cfg]);
    expect(existsSync(join(r.outDir, 'q.jsonl'))).toBe(true);
  });

  it('rejects a config with an unknown frame or a bad regex: exit 2, each problem by path', () => {
    const cfg = configFile(`router:
  frames:
    base:
      rules:
        - exact: hi
          do: {push: lobby}
    query:
      rules:
        - pattern: '(unclosed'
          do: append
`);
    const r = simulate('computer\n', ['--config', cfg]);
    expect(r.status).toBe(2);
    expect(r.lines).toEqual([]);
    expect(r.stderr).toContain('router.frames.base.rules.0.do.push: unknown frame "lobby"');
    expect(r.stderr).toMatch(/router\.frames\.query\.rules\.0\.pattern: invalid regular expression: .*\(unclosed/);
  });
});
