import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SegmentWrite } from '../../src/store/records.js';
import { jfkWrites, overPlaybackWrite } from '../store/fixtures.js';
import { outputDir } from '../support/paths.js';
import { startHarness, type Harness } from './harness.js';

/**
 * In headless Chromium: a segment heard while hark played shows the raw microphone above the
 * cleaned signal on one timeline, hark's playback shaded on both, the splice marked on both; a segment
 * heard in silence looks as before; a damaged raw track says so and the cleaned one still draws.
 */
const shots = outputDir('debug-browser-echo');
let h: Harness;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];
let w: SegmentWrite;
let echoId: number;
let plainId: number;
let damagedId: number;
let garbledId: number;

beforeAll(async () => {
  h = await startHarness({ suite: 'debug-browser-echo' });
  w = await overPlaybackWrite(Date.now() - 60_000);
  plainId = h.store.recordSegment((await jfkWrites(Date.now() - 90_000))[1]!)!.id;
  damagedId = h.store.recordSegment(w)!.id;
  h.store.db.prepare('UPDATE segment_raw_audio SET pcm = ? WHERE segment_id = ?').run(Buffer.alloc(11), damagedId);
  garbledId = h.store.recordSegment(w)!.id;
  h.store.db.prepare('UPDATE segments SET playback_json = ? WHERE id = ?').run('[[1,2],"<img src=x onerror=alert(1)>"]', garbledId);
  echoId = h.store.recordSegment(w)!.id;

  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  page = await browser.newPage({ viewport: { width: 1400, height: 1600 }, deviceScaleFactor: 1, colorScheme: 'dark' });
  page.on('dialog', (d) => {
    pageErrors.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  page.on('pageerror', (e) => pageErrors.push(e.message));
  page.on('console', (m) => {
    // The page's own fetch of a damaged raw track is a 404 the browser logs; that is the case under test.
    if (m.type() === 'error' && !/404/.test(m.text())) pageErrors.push(m.text());
  });
  await page.goto(h.url);
  await page.waitForSelector('body[data-ready="1"]', { timeout: 15_000 });
  await page.waitForSelector(`#seg-${echoId}`, { timeout: 15_000 }).catch(async (e) => {
    throw new Error(`${e.message}; page errors: ${pageErrors.join(' / ')}; body: ${(await page.textContent('body'))?.slice(0, 400)}`);
  });
  const shown = await page.$$eval('#list > article', (cs) => cs.map((c) => (c as HTMLElement).id).join(','));
  if (!shown.includes(`seg-${plainId}`)) throw new Error(`shown: ${shown}; errors: ${pageErrors.join(' / ')}; status: ${await page.textContent('#status')}`);
  for (const id of [echoId, plainId, damagedId, garbledId]) {
    await page.$eval(`#seg-${id}`, (c) => c.scrollIntoView());
    await page.waitForSelector(`#seg-${id} canvas[data-track="cleaned"][data-drawn="1"]`, { timeout: 15_000 });
  }
  await page.$eval(`#seg-${echoId}`, (c) => c.scrollIntoView());
  await page.waitForSelector(`#seg-${echoId} canvas[data-track="raw"][data-drawn="1"]`, { timeout: 15_000 });
  await page.locator(`#seg-${echoId}`).screenshot({ path: `${shots}/echo-segment.png` });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await h?.close();
});

/** Each canvas of a card: its track, place on screen, published marks, and ink inside/outside the playback spans. */
function tracks(id: number) {
  return page.evaluate((segId) => {
    return Array.from(document.querySelectorAll<HTMLCanvasElement>(`#seg-${segId} canvas`)).map((c) => {
      const css = getComputedStyle(c);
      const rgb = (name: string) => {
        const hex = css.getPropertyValue(name).trim().slice(1);
        return [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16));
      };
      const img = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
      const px = (x: number, y: number) => {
        const i = (Math.round(y) * c.width + Math.round(x)) * 4;
        return [img[i]!, img[i + 1]!, img[i + 2]!];
      };
      const spans = (c.dataset.playbackX ?? '')
        .split(' ')
        .filter(Boolean)
        .map((s) => s.split('-').map(Number) as [number, number]);
      // The waveform's own colours (the pre-roll's, and the live part's: each track has its own).
      const inks = [rgb('--wave-pre'), rgb(c.dataset.track === 'raw' ? '--wave-raw' : '--wave-live')];
      const isInk = (p: number[]) => inks.some((k) => Math.abs(p[0]! - k[0]!) + Math.abs(p[1]! - k[1]!) + Math.abs(p[2]! - k[2]!) < 60);
      // Pixels of the waveform's colours per column in a range: how much signal is drawn there.
      const ink = (x0: number, x1: number) => {
        let n = 0;
        for (let x = Math.ceil(x0); x < Math.floor(x1); x++)
          for (let y = 20; y < c.height; y++) {
            if (isInk(px(x, y))) n++;
          }
        return n / Math.max(1, Math.floor(x1) - Math.ceil(x0));
      };
      const box = c.getBoundingClientRect();
      return {
        track: c.dataset.track,
        top: box.top,
        width: c.clientWidth,
        drawn: c.dataset.drawn === '1',
        markerX: Number(c.dataset.markerX),
        view: [Number(c.dataset.viewStart), Number(c.dataset.viewEnd)],
        spans,
        // the edge stripe at the top of a shaded span, and the same row outside any span
        edge: rgb('--playback-edge'),
        inEdge: spans.map(([a, b]) => px((a + b) / 2, 15)),
        inkIn: spans.map(([a, b]) => ink(a, b)),
      };
    });
  }, id);
}

describe('the debug page shows both tracks of a segment heard over playback', () => {
  it('draws the raw microphone above the cleaned signal, on one timeline, with the playback shaded and the splice marked on both', async () => {
    const [raw, cleaned, ...rest] = await tracks(echoId);
    expect(rest).toEqual([]);
    expect([raw!.track, cleaned!.track]).toEqual(['raw', 'cleaned']);
    expect(raw!.drawn && cleaned!.drawn).toBe(true);
    expect(raw!.top).toBeLessThan(cleaned!.top);
    expect(raw!.width).toBe(cleaned!.width);
    const n = w.segment.pcm.length;
    const expected = w.segment.echo!.playback.map((p) => [(p.start / n) * cleaned!.width, (p.end / n) * cleaned!.width]);
    for (const t of [raw!, cleaned!]) {
      expect(t.spans.length, t.track).toBe(2);
      t.spans.forEach(([a, b], i) => {
        expect(Math.abs(a - expected[i]![0]!), `${t.track} span ${i} start`).toBeLessThanOrEqual(1);
        expect(Math.abs(b - expected[i]![1]!), `${t.track} span ${i} end`).toBeLessThanOrEqual(1);
      });
      for (const c of t.inEdge) expect(c, `${t.track} playback edge colour`).toEqual(t.edge);
      expect(Math.abs(t.markerX - (w.segment.prerollSamples / n) * t.width), `${t.track} splice marker`).toBeLessThanOrEqual(1);
    }
    // What the canceller removed is visible: inside hark's playback the raw track carries far more signal.
    for (let i = 0; i < 2; i++)
      expect(raw!.inkIn[i]!, `span ${i}: raw ${raw!.inkIn[i]} vs cleaned ${cleaned!.inkIn[i]}`).toBeGreaterThan(2 * cleaned!.inkIn[i]!);
    const text = await page.$eval(`#seg-${echoId}`, (c) => c.textContent ?? '');
    expect(text).toContain('over playback');
    expect(text).toContain('raw microphone');
    expect(text).toMatch(/hark playing.*2 spans/);
  });

  it('zooms both tracks together', async () => {
    await page.click(`#seg-${echoId} button[title="zoom in"]`);
    await page.click(`#seg-${echoId} button[title="zoom in"]`);
    const [raw, cleaned] = await tracks(echoId);
    expect(cleaned!.view[1]! - cleaned!.view[0]!).toBeLessThan(w.segment.pcm.length / 3);
    expect(raw!.view).toEqual(cleaned!.view);
    await page.click(`#seg-${echoId} button[title^="150 ms either side"]`);
    const [r2, c2] = await tracks(echoId);
    expect(r2!.view).toEqual(c2!.view);
    expect(Math.abs(r2!.markerX - r2!.width / 2)).toBeLessThanOrEqual(2);
    await page.click(`#seg-${echoId} button[title^="show everything"]`);
  });

  it('shows a segment heard in silence as before: one waveform, nothing shaded', async () => {
    const t = await tracks(plainId);
    expect(t.map((x) => x.track)).toEqual(['cleaned']);
    expect(t[0]!.spans).toEqual([]);
    const text = await page.$eval(`#seg-${plainId}`, (c) => c.textContent ?? '');
    expect(text).not.toContain('over playback');
    expect(text).not.toContain('raw microphone');
  });

  it('says why a damaged raw track is not drawn, and still draws the cleaned one with the playback marks', async () => {
    const t = await tracks(damagedId);
    expect(t.map((x) => x.track)).toEqual(['cleaned']);
    expect(t[0]!.spans).toHaveLength(2);
    const note = await page.$eval(`#seg-${damagedId} .wave-note`, (n) => n.textContent);
    expect(note).toMatch(/could not load the raw microphone track: segment \d+ has no raw microphone track: its raw track is damaged/);
  });

  it('says what is wrong with hand-edited playback marks, draws both tracks unshaded, and runs nothing from them', async () => {
    const t = await tracks(garbledId);
    expect(t.map((x) => x.track)).toEqual(['raw', 'cleaned']);
    expect(t.every((x) => x.spans.length === 0)).toBe(true);
    const note = await page.$eval(`#seg-${garbledId} .wave-note`, (n) => n.textContent);
    expect(note).toMatch(/playback spans unreadable: span 1: not a \[start, end\] pair/);
    expect(pageErrors).toEqual([]);
  });
});
