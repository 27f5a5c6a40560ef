import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Utterance } from '../../src/core/utterance.js';
import type { Fate } from '../../src/path/fate.js';
import { segmentWrite } from '../../src/path/segment-record.js';
import type { SttAttempt } from '../../src/stt/events.js';
import { JFK_PHRASES, cutSegment, jfkPcm, jfkWrites } from '../store/fixtures.js';
import { startHarness, type Harness } from './harness.js';

/**
 * What a technician reads on a card. A segment heard without hark's playback
 * showed "falsenull" under its controls; a segment the first engine dropped and the next one heard
 * had a red "dropped: …" headline though it was acted on. Read as the page shows it (innerText).
 */
const BLANK = 'whisper blank on clear speech (blank audio; VAD peak 0.97)';
let h: Harness;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];
let plainId: number;
let fellBackId: number;
let filteredId: number;
let spanishId: number;

/** A segment's words as the daemon's path records them: Whisper heard a blank, Deepgram the words. */
async function handled(fate: (u: Utterance) => Fate, startedAt: number, index: number, language?: string) {
  const p = JFK_PHRASES[1];
  const cut = cutSegment(await jfkPcm(), p.vad, p.end);
  const segment = { ...cut, index, closeReason: 'hangover' as const, maxProb: 0.97, openedBy: 'vad' as const };
  const attempts: SttAttempt[] = [
    { engine: 'whisper', outcome: 'ok', rawText: '[BLANK_AUDIO]', text: '', sttMs: 410, droppedReason: BLANK },
    { engine: 'deepgram', outcome: 'ok', rawText: p.text, text: p.text, sttMs: 620, fallbackReason: BLANK },
  ];
  const u: Utterance = {
    id: `utt-${index}`,
    text: p.text,
    rawText: p.text,
    engine: 'deepgram',
    sttMs: 1030,
    fallbackReason: BLANK,
    atMs: 0,
    ...(language ? { language } : {}),
  };
  const f = fate(u);
  const rec = {
    segment,
    transcript: { segmentId: index, attempts, hearing: { kind: 'heard' as const, utterance: u }, sttMs: 1030 },
    fate: f,
    actions: f.kind === 'dispatched' ? [{ name: 'note.append', args: { text: p.text }, outcome: 'ok' }] : [],
    closedAt: 0,
    closedWallAt: startedAt + 1200,
    speechEndAt: 0,
    firstActionAt: null,
    written: false,
  };
  return segmentWrite(rec, 'mic');
}

beforeAll(async () => {
  h = await startHarness({ suite: 'debug-browser-card-text' });
  plainId = h.store.recordSegment((await jfkWrites(Date.now() - 90_000))[0]!)!.id;
  fellBackId = h.store.recordSegment(await handled((u) => ({ kind: 'dispatched', utterance: u }), Date.now() - 60_000, 1))!.id;
  filteredId = h.store.recordSegment(
    await handled((u) => ({ kind: 'filtered', utterance: u, reason: 'backchannel only ("ask not")' }), Date.now() - 30_000, 2),
  )!.id;
  spanishId = h.store.recordSegment(await handled((u) => ({ kind: 'dispatched', utterance: u }), Date.now() - 20_000, 3, 'es'))!.id;

  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  page = await browser.newPage({ viewport: { width: 1400, height: 2400 }, deviceScaleFactor: 1 });
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto(h.url);
  await page.waitForSelector('body[data-ready="1"]', { timeout: 15_000 });
  // Every card as it finally reads: its waveform loaded (the note under it is written then).
  for (const id of [plainId, fellBackId, filteredId, spanishId]) {
    await page.$eval(`#seg-${id}`, (c) => c.scrollIntoView());
    await page.waitForSelector(`#seg-${id} canvas[data-drawn="1"]`, { timeout: 15_000 });
  }
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await h?.close();
});

/** What a person sees of a part of a card. */
const seen = (id: number, part = '') => page.$eval(`#seg-${id} ${part}`.trim(), (e) => (e as HTMLElement).innerText);

describe('a card reads as a sentence, not as JavaScript', () => {
  it('shows no "false", "null" or "undefined" on any card, with or without hark playing', async () => {
    for (const id of [plainId, fellBackId, filteredId, spanishId]) {
      const text = await seen(id);
      expect(text, `card #${id}`).not.toMatch(/false|null|undefined|NaN/);
    }
    expect(pageErrors).toEqual([]);
  });

  it('heads a segment the second engine heard with what became of it, the first engine’s drop below', async () => {
    const head = await seen(fellBackId, '.seg-head');
    expect(head).toContain('dispatched');
    expect(head).not.toContain('dropped');
    const body = await seen(fellBackId, '.seg-body');
    expect(body).toContain(BLANK);
    expect(body).toContain(JFK_PHRASES[1].text);
    expect(body).toContain('note.append');
  });

  it('heads a filtered segment with its filter, not with an engine’s drop', async () => {
    const head = await seen(filteredId, '.seg-head');
    expect(head).toContain('filtered: backchannel only ("ask not")');
    expect(head).not.toMatch(/dropped|dispatched/);
    expect(await seen(filteredId, '.seg-body')).toContain(BLANK);
  });
});

describe('a card says which language its segment was heard in', () => {
  it('heads a segment heard in Spanish with "es" and names it on its utterance; one with no language named shows none', async () => {
    const head = await seen(spanishId, '.seg-head');
    expect(head).toMatch(/\bes\b/);
    expect(await seen(spanishId, '.seg-body')).toContain('[es]');
    expect(await seen(fellBackId, '.seg-head')).not.toMatch(/\bes\b|\ben\b/);
    expect(await seen(fellBackId, '.seg-body')).not.toMatch(/\[(es|en)\]/);
    expect(pageErrors).toEqual([]);
  });
});
