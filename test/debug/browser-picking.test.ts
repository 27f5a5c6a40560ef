import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkAssignment, type Assignment } from '../../src/picking/assignment.js';
import { SqliteLedger } from '../../src/picking/sqlite-ledger.js';
import { pickingDay } from '../../src/picking/stats.js';
import { jfkWrites } from '../store/fixtures.js';
import { assignment } from '../picking/sim.js';
import { startHarness, type Harness } from './harness.js';

/**
 * The operator's day on the debug page, in headless Chromium: the counts a supervisor reads, and
 * each pick linked to the segment that confirmed it (whose card has the waveform and raw tokens).
 * The ledger is the real one, in the harness's store file.
 */
let h: Harness;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];
const segIds: number[] = [];

beforeAll(async () => {
  let ledger: SqliteLedger | null = null;
  h = await startHarness({
    suite: 'debug-browser-picking',
    server: {
      picking: () => ({
        offer: () => ({ status: 404, body: {} }),
        view: () => ({ operator: ledger!.operator(), outbox: { pending: 2, sent: 0, queueMax: 10 }, today: pickingDay(h.store.db, 0) }),
      }),
    },
  });
  for (const w of await jfkWrites(Date.now() - 60_000)) segIds.push(h.store.recordSegment(w)!.id);
  ledger = new SqliteLedger(h.store.db, 'dock');
  const checked = checkAssignment(assignment('D1', 3));
  if (!checked.ok) throw new Error(checked.problems.join('; '));
  const a: Assignment = checked.value;
  ledger.add(a);
  ledger.signOn('12');
  ledger.note('wrong-check', { assignment: 'D1', pick: 'P1', utteranceId: 'utt-0' });
  ledger.confirm({ assignment: a, pick: a.picks[0]!, operator: '12', picked: a.picks[0]!.quantity, utteranceId: 'utt-1' });
  ledger.note('short', { assignment: 'D1', pick: 'P2', utteranceId: 'utt-2' });
  ledger.confirm({ assignment: a, pick: a.picks[1]!, operator: '12', picked: a.picks[1]!.quantity - 1, utteranceId: 'utt-2' });

  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  page = await browser.newPage({ viewport: { width: 1200, height: 1400 } });
  page.on('pageerror', (e) => pageErrors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && pageErrors.push(m.text()));
  await page.goto(h.url);
  await page.waitForSelector('body[data-ready="1"]', { timeout: 15_000 });
  await page.waitForSelector('#picking-day', { timeout: 15_000 });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await h?.close();
});

describe("the operator's day on the debug page", () => {
  it('shows the counts and each pick beside the segment that confirmed it', async () => {
    const day = await page.textContent('#picking-day');
    expect(day).toContain('operator 12');
    expect(day).toContain('2 picks');
    expect(day).toContain('1 short');
    expect(day).toContain('1 wrong check digits');
    expect(day).toContain('outbox 2 waiting');
    const picks = await page.$$eval('#picking-recent li', (ls) =>
      ls.map((l) => ({
        text: l.textContent,
        href: l.querySelector('a')?.getAttribute('href'),
        wrong: Array.from(l.querySelectorAll('a.wrong'), (a) => a.getAttribute('href')),
      })),
    );
    // Newest first: the short pick, confirmed by the third phrase's segment, then the first pick.
    expect(picks).toEqual([
      { text: expect.stringMatching(/^D1\/P2: \d+ of \d+ \(short\) · not sent · segment \d+$/), href: `#seg-${segIds[2]}`, wrong: [] },
      // The first pick's check digits were read wrong once: that reading's segment is there to hear.
      {
        text: expect.stringMatching(/^D1\/P1: (\d+) of \1 · not sent · segment \d+ · wrong check digits: segment \d+$/),
        href: `#seg-${segIds[1]}`,
        wrong: [`#seg-${segIds[0]}`],
      },
    ]);
    // The link lands on that segment's card, with its waveform.
    await page.click('#picking-recent li:last-child a');
    await page.waitForSelector(`#seg-${segIds[1]} canvas[data-drawn="1"]`, { timeout: 15_000 });
    expect(page.url()).toMatch(new RegExp(`#seg-${segIds[1]}$`));
    expect(pageErrors).toEqual([]);
  }, 30_000);
});
