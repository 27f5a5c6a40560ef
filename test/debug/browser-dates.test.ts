import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

/**
 * A row stored with a timestamp JavaScript cannot turn into a date (9e15 ms, as an
 * old POST accepted) must cost one label, not the page: every card is rendered, and no script error.
 */
let h: Harness;
let browser: Browser;

beforeAll(async () => {
  h = await startHarness({ suite: 'debug-browser-dates' });
  const seg = (startedAt: number, text: string) =>
    h.store.recordSegment({ segment: { pcm: new Int16Array(1600), prerollSamples: 0, startedAt }, transcripts: [{ engine: 'whisper', rawText: text, text }] });
  seg(Date.now() - 60_000, 'before');
  seg(9e15, 'from the far future'); // past JavaScript's last date (8.64e15 ms)
  seg(Date.now() - 30_000, 'after');
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await h?.close();
});

describe('the viewer with a bad stored date', () => {
  it('renders every card and throws nothing', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(h.url);
    await page.waitForSelector('body[data-ready="1"]', { timeout: 15_000 });
    const cards = await page.$$eval('#list > article', (c) => c.length);
    expect(errors).toEqual([]);
    expect(cards).toBe(3);
    expect(await page.textContent('#list')).toContain('bad time');
  });
});
