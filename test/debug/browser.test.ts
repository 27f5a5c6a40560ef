import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nonSpeechMarkers } from '../../src/stt/clean-text.js';
import { JFK_PHRASES, cutSegment, jfkPcm, jfkWrites, splicedWithJump } from '../store/fixtures.js';
import { outputDir } from '../support/paths.js';
import { startHarness, type Harness } from './harness.js';
import type { KitchenView } from '../../src/debug/views.js';

const XSS = '<img src=x onerror=alert(1)>';
const shots = outputDir('debug-browser');

let h: Harness;
let browser: Browser;
let page: Page;
const dialogs: string[] = [];
const pageErrors: string[] = [];
let jumpId: number;
/** What the daemon's command core would report: changed by a test, announced by a timer effect. */
let kitchen: KitchenView = { timers: [], lists: [] };
let xssId: number;

beforeAll(async () => {
  h = await startHarness({ suite: 'debug-browser', server: { kitchen: () => kitchen } });
  for (const w of await jfkWrites(Date.now() - 60_000)) h.store.recordSegment(w);
  const pcm = await jfkPcm();
  const jump = splicedWithJump(pcm);
  jumpId = h.store.recordSegment({
    segment: { ...jump, startedAt: Date.now() - 30_000, closeReason: 'hangover', openedBy: 'vad', maxProb: 0.91 },
    transcripts: [{ engine: 'whisper', rawText: '[BLANK_AUDIO]', text: '', droppedReason: 'blank-audio', sttMs: 402 }],
  })!.id;
  const digit = cutSegment(pcm, JFK_PHRASES[1].vad, JFK_PHRASES[1].vad + 0.3);
  xssId = h.store.recordSegment({
    segment: { ...digit, startedAt: Date.now() - 20_000, closeReason: 'ptt-release', openedBy: 'ptt' },
    transcripts: [{ engine: 'whisper', rawText: `${XSS} [MUSIC] seven`, text: `${XSS} seven`, sttMs: 250 }],
    intents: [{ kind: 'ambiguous', intent: XSS, reason: 'not in the allowed list' }],
    actions: [{ name: 'webhook', args: { body: XSS }, outcome: 'error', error: XSS, latencyMs: 31 }],
  })!.id;

  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  page = await browser.newPage({ viewport: { width: 1400, height: 1300 }, deviceScaleFactor: 1, colorScheme: 'dark' });
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  page.on('pageerror', (e) => pageErrors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') pageErrors.push(m.text());
  });
  await page.goto(h.url);
  await page.waitForSelector('body[data-ready="1"]', { timeout: 15_000 });
  await page.waitForFunction(() => document.querySelectorAll('canvas[data-drawn="1"]').length >= 3, null, { timeout: 15_000 });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await h?.close();
});

/** Pixels (in the waveform area below the ruler) that differ from the canvas background; the marker's pixel colour. */
function inkAndMarker(id: number) {
  return page.evaluate((segId) => {
    const c = document.querySelector<HTMLCanvasElement>(`#seg-${segId} canvas`)!;
    const css = getComputedStyle(c);
    const rgb = (name: string) => {
      const hex = css.getPropertyValue(name).trim().slice(1);
      return [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16));
    };
    const bg = rgb('--wave-bg');
    const img = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
    let ink = 0;
    for (let y = 20; y < c.height; y++) {
      for (let x = 0; x < c.width; x++) {
        const i = (y * c.width + x) * 4;
        if (Math.abs(img[i]! - bg[0]!) + Math.abs(img[i + 1]! - bg[1]!) + Math.abs(img[i + 2]! - bg[2]!) > 40) ink++;
      }
    }
    const mx = Number(c.dataset.markerX);
    const at = (Math.round(c.height * 0.85) * c.width + Math.round(mx)) * 4;
    return {
      ink,
      total: c.width * (c.height - 20),
      markerX: mx,
      expectedX: (Number(c.dataset.prerollSamples) / Number(c.dataset.sampleCount)) * c.clientWidth,
      markerRgb: [img[at]!, img[at + 1]!, img[at + 2]!],
      marker: rgb('--marker'),
      markerWarn: rgb('--marker-warn'),
    };
  }, id);
}

/** The canvas's published view: what sample range is shown and where the marker is (CSS px). */
function view(card: string) {
  return page.$eval(`${card} canvas`, (c) => {
    const d = (c as HTMLCanvasElement).dataset;
    return { markerX: Number(d.markerX), viewStart: Number(d.viewStart), viewEnd: Number(d.viewEnd), w: (c as HTMLCanvasElement).clientWidth };
  });
}

describe('the viewer page in headless Chromium', () => {
  it('lists the segments newest first', async () => {
    const ids = await page.$$eval('#list > article', (cards) => cards.map((c) => Number((c as HTMLElement).dataset.id)));
    expect(ids).toEqual([6, 5, 4, 3, 2, 1]);
  });

  it('draws each waveform and puts the splice marker at the pre-roll position', async () => {
    for (const id of [1, 2, jumpId]) {
      await page.$eval(`#seg-${id}`, (c) => c.scrollIntoView());
      await page.waitForSelector(`#seg-${id} canvas[data-drawn="1"]`, { timeout: 5000 });
      const r = await inkAndMarker(id);
      expect(r.ink / r.total, `segment ${id} ink`).toBeGreaterThan(0.05);
      expect(Math.abs(r.markerX - r.expectedX), `segment ${id} marker`).toBeLessThanOrEqual(1);
      // the marker is drawn in its own colour: orange, or red where the splice jumps
      expect(r.markerRgb, `segment ${id} marker colour`).toEqual(id === jumpId ? r.markerWarn : r.marker);
    }
  });

  it('warns about the level jump at the splice on that segment only', async () => {
    const badge = (id: number) => page.$$eval(`#seg-${id} .seg-head .badge`, (b) => b.map((x) => x.textContent));
    expect(await badge(jumpId)).toContain('splice jump (level)');
    expect((await badge(1)).some((t) => t?.startsWith('splice jump'))).toBe(false);
    expect(await badge(jumpId)).toContain('dropped: blank-audio');
  });

  it('makes [BLANK_AUDIO] stand out in the raw transcript', async () => {
    const marks = await page.$$eval(`#seg-${jumpId} .raw mark`, (m) => m.map((x) => [x.className, x.textContent]));
    expect(marks).toEqual([['tok blank', '[BLANK_AUDIO]']]);
    expect(await page.textContent(`#seg-${jumpId} .empty`)).toBe('(empty)');
  });

  it('shows a hostile transcript as text: no element made from it, no dialog', async () => {
    const card = `#seg-${xssId}`;
    expect(await page.$$(`${card} img`)).toHaveLength(0);
    expect(await page.$$('#list img')).toHaveLength(0);
    expect(await page.textContent(`${card} .raw`)).toBe(`${XSS} [MUSIC] seven`);
    expect(await page.textContent(`${card} .clean`)).toBe(`${XSS} seven`);
    // exactly the markers the speech-to-text cleaner strips are highlighted
    expect(await page.$$eval(`${card} .raw mark`, (m) => m.map((x) => x.textContent))).toEqual(nonSpeechMarkers(`${XSS} [MUSIC] seven`));
    expect(await page.textContent(`${card} table`)).toContain(XSS);
    await page.waitForTimeout(300);
    expect(dialogs).toEqual([]);
  });

  it('shows the metadata a technician asks for', async () => {
    const meta = await page.$$eval(`#seg-2 .meta dt, #seg-2 .meta dd`, (els) => els.map((e) => e.textContent));
    const get = (k: string) => meta[meta.indexOf(k) + 1];
    const w = (await jfkWrites())[1]!;
    expect(get('samples')).toBe(w.segment.pcm.length.toLocaleString('en-US'));
    expect(get('duration')).toBe(`${Math.round(w.segment.pcm.length / 16).toLocaleString('en-US')} ms`);
    expect(get('pre-roll')).toBe('8,000 (500 ms)');
    expect(get('VAD trigger')).toMatch(/^\d\d:\d\d:\d\d\.\d{3} \(\+500 ms\)$/);
  });

  it('zooms a 300 ms digit to fill the canvas, and the splice button centres the marker', async () => {
    const card = `#seg-${xssId}`;
    await page.click(`${card} button[title^="show everything"]`);
    const fit = await view(card);
    const canvas = await page.$(`${card} canvas`);
    const box = (await canvas!.boundingBox())!;
    // drag across the live part (the 300 ms digit) to zoom into it
    const x0 = box.x + Number(fit.markerX);
    await page.mouse.move(x0, box.y + 60);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width - 1, box.y + 60, { steps: 5 });
    await page.mouse.up();
    const zoomed = await view(card);
    const spanMs = ((zoomed.viewEnd - zoomed.viewStart) / 16000) * 1000;
    expect(spanMs).toBeGreaterThan(280);
    expect(spanMs).toBeLessThan(320);
    expect(await page.textContent(`${card} .zoom-label`)).toMatch(/ms in view/);
    await canvas!.screenshot({ path: join(shots, 'digit-zoomed.png') });

    await page.click(`#seg-${jumpId} button[title^="150 ms either side"]`);
    const around = await view(`#seg-${jumpId}`);
    expect(around.viewEnd - around.viewStart).toBe(4800);
    expect(Math.abs(around.markerX - around.w / 2)).toBeLessThanOrEqual(1);
    await (await page.$(`#seg-${jumpId} .wave`))!.screenshot({ path: join(shots, 'splice-jump-zoomed.png') });
  });

  it('plays the audio on click and stops on the second', async () => {
    await page.click('#seg-1 .play');
    await page.waitForFunction(() => document.querySelector('#seg-1 .play')!.textContent === '■ stop', null, { timeout: 5000 });
    await page.click('#seg-1 .play');
    await page.waitForFunction(() => document.querySelector('#seg-1 .play')!.textContent === '▶ play', null, { timeout: 5000 });
  });

  it('adds a segment logged while the page is open at the top, live', async () => {
    const [w] = await jfkWrites(Date.now());
    const { id } = h.store.recordSegment(w!)!;
    await page.waitForSelector(`#seg-${id}`, { timeout: 5000 });
    await page.evaluate(() => window.scrollTo(0, 0));
    expect(await page.$eval('#list > article', (c) => Number((c as HTMLElement).dataset.id))).toBe(id);
    expect(await page.textContent('#pill-live')).toBe('live');
    await page.waitForFunction((segId) => document.querySelector(`#seg-${segId} canvas[data-drawn="1"]`), id, { timeout: 5000 });
  });

  it('shows what the open segment sounds like while it is said: settled words, the rest, the hint — then clears', async () => {
    h.bus.emit('hearing.update', { segmentId: '@4000', engine: 'deepgram', stableText: 'what is a', rawText: `what is a lock ${XSS}`, atMs: 0 });
    h.bus.emit('intent.candidate', { segmentId: '@4000', candidate: 'definition', stableText: 'what is a' });
    await page.waitForSelector('#hearing:not([hidden])', { timeout: 5000 });
    await page.waitForFunction(() => document.querySelector('#hearing-intent')?.textContent === 'maybe: definition', null, { timeout: 5000 });
    expect(await page.textContent('#hearing-stable')).toBe('what is a');
    // What was heard is text, never markup.
    expect(await page.textContent('#hearing-rest')).toBe(` lock ${XSS}`);
    expect(await page.$$('#hearing img')).toEqual([]);
    await page.screenshot({ path: join(shots, 'hearing.png'), clip: { x: 0, y: 0, width: 1400, height: 160 } });
    h.bus.emit('segment.dropped', { reason: 'too-short', openedBy: 'vad', vadStartMs: 0, endMs: 100, speechMs: 90 });
    await page.waitForSelector('#hearing[hidden]', { state: 'attached', timeout: 5000 });
  });

  it('shows the fleet broker state once MQTT reports it, live and in /healthz', async () => {
    expect(await page.$eval('#pill-mqtt', (e) => (e as HTMLElement).hidden)).toBe(true);
    h.bus.emit('fleet.state', {
      state: 'reconnecting',
      url: 'mqtt://10.0.0.5:1883',
      device: 'kitchen-1',
      room: 'kitchen',
      queued: 2,
      dropped: 0,
      lastError: 'connect ECONNREFUSED',
    });
    await page.waitForFunction(() => document.querySelector('#pill-mqtt')?.textContent === 'mqtt reconnecting · connect ECONNREFUSED', null, { timeout: 5000 });
    const health = (await (await fetch(new URL('/healthz', h.url))).json()) as { mqtt: { state: string }; problems: string[] };
    expect(health.mqtt).toMatchObject({ state: 'reconnecting', device: 'kitchen-1' });
    expect(health.problems).toContain('mqtt reconnecting: connect ECONNREFUSED (this device acts alone; events wait in a queue)');
    h.bus.emit('fleet.state', {
      state: 'connected',
      url: 'mqtt://10.0.0.5:1883',
      device: 'kitchen-1',
      room: 'kitchen',
      queued: 0,
      dropped: 0,
      lastError: null,
    });
    await page.waitForFunction(() => document.querySelector('#pill-mqtt')?.textContent === 'mqtt kitchen-1 · room kitchen', null, { timeout: 5000 });
  });

  it('shows running timers and the lists, live, and serves them at /api/kitchen and in /healthz', async () => {
    kitchen = {
      timers: [{ id: 1, label: 'pizza', seconds: 480, state: 'running', leftSeconds: 250, command: null }],
      lists: [
        {
          name: 'shopping',
          items: [
            { item: 'olive oil', quantity: null, unit: null, note: null },
            { item: `eggs ${XSS}`, quantity: 12, unit: null, note: null },
          ],
        },
      ],
    };
    h.bus.emit('router.effect', { type: 'timer', event: 'set', id: 1, label: 'pizza', seconds: 480, dueAtMs: 0, atMs: 0 });
    await page.waitForSelector('#kitchen:not([hidden])', { timeout: 5000 });
    expect(await page.$$eval('#kitchen > div', (d) => d.map((x) => x.textContent))).toEqual([
      'timer pizza · 4:10 left',
      `shopping list · olive oil, 12 eggs ${XSS}`,
    ]);
    expect(await page.$$('#kitchen img')).toEqual([]);
    expect(await (await fetch(new URL('/api/kitchen', h.url))).json()).toEqual(kitchen);
    expect(((await (await fetch(new URL('/healthz', h.url))).json()) as { timers: unknown }).timers).toEqual(kitchen.timers);
    kitchen = { timers: [], lists: [] };
    h.bus.emit('router.effect', { type: 'timer', event: 'cancelled', id: 1, label: 'pizza', seconds: 480, dueAtMs: 0, atMs: 0 });
    await page.waitForSelector('#kitchen[hidden]', { state: 'attached', timeout: 5000 });
  });

  it("shows what rings, where and for how long: a timer rung for its area, and another device's rung here", async () => {
    kitchen = {
      timers: [
        { id: 2, label: 'pasta', seconds: 60, state: 'ringing', leftSeconds: 0, command: null, ringingSeconds: 75, from: null, ringsOn: 'area' },
        { id: 3, label: 'fryer', seconds: 0, state: 'ringing', leftSeconds: 0, command: null, ringingSeconds: 9, from: 'back' },
      ],
      lists: [],
    };
    h.bus.emit('router.effect', { type: 'timer', event: 'done', id: 2, label: 'pasta', seconds: 60, dueAtMs: 0, atMs: 0 });
    await page.waitForFunction(() => document.querySelectorAll('#kitchen > div.ringing').length === 2, null, { timeout: 5000 });
    expect(await page.$$eval('#kitchen > div', (d) => d.map((x) => x.textContent))).toEqual([
      'timer pasta · RINGING in its area 1:15',
      'timer fryer · RINGING from back 0:09',
    ]);
    expect(await (await fetch(new URL('/api/kitchen', h.url))).json()).toEqual(kitchen);
    kitchen = { timers: [], lists: [] };
    h.bus.emit('router.effect', { type: 'timer', event: 'stopped', id: 2, label: 'pasta', seconds: 60, dueAtMs: 0, atMs: 0 });
    await page.waitForSelector('#kitchen[hidden]', { state: 'attached', timeout: 5000 });
  });

  it('renders without script errors, and looks right (screenshot kept under test-output/debug-browser/)', async () => {
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(shots, 'viewer.png'), fullPage: false });
    await page.emulateMedia({ colorScheme: 'light' });
    await page.evaluate(() => window.dispatchEvent(new Event('resize'))); // canvases pick up the new colours
    await page.screenshot({ path: join(shots, 'viewer-light.png'), fullPage: false });
    expect(pageErrors).toEqual([]);
  });
});
