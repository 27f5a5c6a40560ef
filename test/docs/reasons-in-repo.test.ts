import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/paths.js';

/**
 * A reason a comment gives must be readable from a clone: it names the concept and, where the reason is
 * long, links a section of docs/decisions.md. A seed file or an issue number lives outside the repository
 * and says nothing to the next engineer, so a comment that cites one fails here, and so does a link to a
 * section that docs/decisions.md does not have.
 */
function files(dir: string, ends: string[]): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    if (n === 'node_modules' || n === 'vendor') return [];
    return statSync(p).isDirectory() ? files(p, ends) : ends.some((e) => p.endsWith(e)) ? [p] : [];
  });
}

/** The comment text of each line: after `//` outside a string, or inside a block comment. */
export function commentLines(text: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  let inBlock = false;
  text.split('\n').forEach((raw, i) => {
    if (inBlock) {
      const end = raw.indexOf('*/');
      out.push({ line: i + 1, text: end < 0 ? raw : raw.slice(0, end) });
      if (end >= 0) inBlock = false;
      return;
    }
    let quote: string | null = null;
    for (let k = 0; k < raw.length; k++) {
      const c = raw[k]!;
      if (quote) {
        if (c === '\\') k++;
        else if (c === quote) quote = null;
        continue;
      }
      if (c === "'" || c === '"' || c === '`') quote = c;
      else if (c === '/' && raw[k + 1] === '/') {
        out.push({ line: i + 1, text: raw.slice(k + 2) });
        return;
      } else if (c === '/' && raw[k + 1] === '*') {
        const end = raw.indexOf('*/', k + 2);
        out.push({ line: i + 1, text: end < 0 ? raw.slice(k + 2) : raw.slice(k + 2, end) });
        if (end < 0) inBlock = true;
        return;
      }
    }
  });
  return out;
}

const SEED = /\bseeds? 0\d+/i;
const ISSUE = /\bissues? #?\d+/i;
// A bare number sign and digits, not "silero-vad#725" (another project's own tracker), an arm64 immediate, nor a segment
// id in replay's output ("#1234 10:32:05 differs").
const BARE = /(?<![\w/&-])#\d+\b(?! \d\d:\d\d)/;
const ARM64 = 'src/stt/whisper/addon-elf.ts';

/** GitHub's anchor of a heading: lower case, punctuation but `-` and `_` dropped, spaces to `-`. */
export function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

describe('the reasons live in the repository', () => {
  it('no comment in src/ or test/ cites a seed file or an issue number', () => {
    const bad: string[] = [];
    for (const f of [...files(join(ROOT, 'src'), ['.ts']), ...files(join(ROOT, 'test'), ['.ts'])]) {
      const rel = relative(ROOT, f);
      for (const c of commentLines(readFileSync(f, 'utf8'))) {
        if (SEED.test(c.text) || ISSUE.test(c.text) || (rel !== ARM64 && BARE.test(c.text))) bad.push(`${rel}:${c.line}: ${c.text.trim()}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('nor does a comment in the build and the tools: the Makefile, scripts/, web/, the layer rules, CI', () => {
    const bad: string[] = [];
    const cited = (rel: string, line: number, text: string) =>
      (SEED.test(text) || ISSUE.test(text) || BARE.test(text)) && bad.push(`${rel}:${line}: ${text.trim()}`);
    const shell = [join(ROOT, 'Makefile'), join(ROOT, '.ci/run'), ...files(join(ROOT, 'scripts'), ['.sh']), ...files(join(ROOT, 'systemd'), ['.service'])];
    for (const f of shell) {
      readFileSync(f, 'utf8')
        .split('\n')
        .forEach((l, i) => /^\s*#/.test(l) && cited(relative(ROOT, f), i + 1, l));
    }
    for (const f of [join(ROOT, '.dependency-cruiser.cjs'), ...files(join(ROOT, 'scripts'), ['.mjs', '.js']), ...files(join(ROOT, 'web'), ['.js'])]) {
      for (const c of commentLines(readFileSync(f, 'utf8'))) cited(relative(ROOT, f), c.line, c.text);
    }
    expect(bad).toEqual([]);
  });

  it('every link to a section of decisions.md in src/, test/ and docs/ names a heading of docs/decisions.md', () => {
    const headings = readFileSync(join(ROOT, 'docs/decisions.md'), 'utf8')
      .split('\n')
      .filter((l) => /^#{1,6} /.test(l))
      .map((l) => anchorOf(l.replace(/^#+ /, '')));
    const known = new Set(headings);
    const bad: string[] = [];
    let links = 0;
    const all = [...files(join(ROOT, 'src'), ['.ts']), ...files(join(ROOT, 'test'), ['.ts']), ...files(join(ROOT, 'docs'), ['.md'])];
    for (const f of all) {
      for (const m of readFileSync(f, 'utf8').matchAll(/decisions\.md#([\w-]+)/g)) {
        links++;
        if (!known.has(m[1]!)) bad.push(`${relative(ROOT, f)}: #${m[1]}`);
      }
    }
    expect(bad).toEqual([]);
    expect(links).toBeGreaterThan(0);
  });

  it('reads anchors and comments the way GitHub and TypeScript do', () => {
    expect(anchorOf("Silero's state is reset after 2 s of quiet")).toBe('sileros-state-is-reset-after-2-s-of-quiet');
    expect(anchorOf('The command router is a stack of frames, and `check-parent` is a rule')).toBe(
      'the-command-router-is-a-stack-of-frames-and-check-parent-is-a-rule',
    );
    expect(commentLines("const a = 'x // #3'; // seed 002").map((c) => c.text)).toEqual([' seed 002']);
    expect(commentLines('/**\n * issue 4\n */ const b = 1;').map((c) => c.text.trim())).toEqual(['*', '* issue 4', '']);
  });
});
