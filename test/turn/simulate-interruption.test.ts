import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { HARK_BIN } from '../support/paths.js';

function simulate(input: string): Promise<Record<string, unknown>[]> {
  return new Promise((resolve, reject) => {
    const child = execFile(process.execPath, [HARK_BIN, 'simulate'], { timeout: 20_000 }, (err, stdout) => {
      if (err && !stdout) return reject(err);
      resolve(
        stdout
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as Record<string, unknown>),
      );
    });
    child.stdin!.end(input);
  });
}

describe('hark simulate: talking over hark', () => {
  it('filters a backchannel while hark speaks, lets command words stop it, and times playback at 70 ms per character', async () => {
    // "computer, read back" in an empty query speaks; inventory's read-back speaks the items
    const lines = await simulate(
      ['computer start inventory', 'two cases of milk', 'three boxes of eggs', 'read back', 'yeah', 'uh huh', 'wait stop'].join('\n') + '\n',
    );
    const decisions = lines.filter((l) => l.type === 'interruption').map((l) => [l.text, l.decision]);
    expect(decisions).toContainEqual(['yeah', 'filter']);
    expect(decisions).toContainEqual(['uh huh', 'filter']);
    expect(decisions).toContainEqual(['wait stop', 'allow']);
    const readBack = lines.find((l) => l.type === 'speak' && String(l.text).startsWith('2 items'))!;
    const stopped = lines.filter((l) => l.type === 'speak.stopped').at(-1)!;
    expect(stopped.text).toBe(readBack.text);
    // stopped by "wait stop" 3 s (3 lines) after the read-back started; it would have run 70 ms/char
    expect(stopped.playedMs).toBe(3000);
    expect(String(readBack.text).length * 70).toBeGreaterThan(3000);
  });

  it('treats the same words as ordinary input while hark is silent', async () => {
    const lines = await simulate('computer\nyeah\n');
    expect(lines.filter((l) => l.type === 'interruption')).toEqual([]);
    const submit = lines.find((l) => l.type === 'submit');
    expect(submit?.text).toBe('yeah');
  });
});
