import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SystemClock } from '../../src/core/clock.js';
import { memoryLogger } from '../../src/core/log.js';
import { speechServicesView } from '../../src/debug/speech-view.js';
import type { SpeechServicesView } from '../../src/debug/views.js';
import { EspeakTts } from '../../src/speech/espeak.js';
import { WyomingTts, WyomingVoice } from '../../src/speech/wyoming-voice.js';
import type { EngineSlot, SttEngine } from '../../src/stt/engine.js';
import { WyomingSttEngine } from '../../src/stt/wyoming/engine.js';
import { parseServerUrl } from '../../src/wyoming/server-url.js';
import { outputDir } from '../support/paths.js';
import { WyomingDouble } from '../support/wyoming-server.js';
import { startHarness, type Harness } from './harness.js';

/**
 * The speech services in use, on /healthz and the page — the engines in order, a Wyoming
 * server with the models its info listed at start (over a real socket to the protocol double), one
 * that did not answer, and a Wyoming voice with its voices. A server's names are text, never markup.
 */
const XSS = '<img src=x onerror=alert(1)>';
const shots = outputDir('debug-browser');

const whisper: SttEngine = {
  id: 'whisper',
  remote: false,
  trustBlank: false,
  close: async () => {},
  transcribe: async () => ({ engine: 'whisper', rawText: '', text: '', ms: 0 }),
};

function server(url: string) {
  const parsed = parseServerUrl(url);
  if ('error' in parsed) throw new Error(parsed.error);
  return parsed.server;
}

function wyomingEngine(url: string): WyomingSttEngine {
  return new WyomingSttEngine({
    server: server(url),
    language: 'en',
    model: '',
    connectTimeoutMs: 500,
    deadlineBaseMs: 2000,
    deadlinePerSecondMs: 0,
    chunkSamples: 1024,
    logger: memoryLogger(),
    clock: new SystemClock(),
  });
}

let asr: WyomingDouble;
let tts: WyomingDouble;
let away: string;
let h: Harness;
let h2: Harness;
let view: () => SpeechServicesView;

beforeAll(async () => {
  asr = await WyomingDouble.start({ models: ['tiny-int8', `base ${XSS}`], streaming: true });
  tts = await WyomingDouble.start({ voices: ['en_US-lessac-medium', 'en_GB-alan-low'] });
  // A server that went away before hark started: its port, closed.
  const gone = await WyomingDouble.start();
  away = gone.url;
  await gone.close();

  const up = wyomingEngine(asr.url);
  const down = wyomingEngine(away);
  await up.describe();
  await down.describe(500);
  const voice = new WyomingVoice({
    server: server(tts.url),
    voice: 'en_US-lessac-medium',
    connectTimeoutMs: 500,
    firstChunkTimeoutMs: 2000,
    chunkGapTimeoutMs: 2000,
  });
  await voice.describe();
  const slots: EngineSlot[] = [
    { id: 'whisper', engine: whisper },
    { id: 'deepgram', engine: null, missing: 'DEEPGRAM_API_KEY is not set' },
    { id: 'wyoming', engine: up },
    { id: 'wyoming', engine: down },
  ];
  const speechTts = new WyomingTts(voice, new EspeakTts({ voice: 'en', speed: 175, volume: 100 }));
  view = () => speechServicesView(slots, speechTts);
  h = await startHarness({ suite: 'debug-speech', server: { speech: view } });
  h2 = await startHarness({ suite: 'debug-speech-viewer', server: { mode: 'viewer' } });
});

afterAll(async () => {
  await h?.close();
  await h2?.close();
  await asr?.close();
  await tts?.close();
});

describe('the speech services on /healthz', () => {
  it('lists each engine in order, a Wyoming server with its models and whether it answered, and the voice with its voices', async () => {
    const body = (await (await fetch(new URL('/healthz', h.url))).json()) as { speech: SpeechServicesView };
    expect(body.speech.engines).toEqual([
      { id: 'whisper', missing: null, wyoming: null },
      { id: 'deepgram', missing: 'DEEPGRAM_API_KEY is not set', wyoming: null },
      { id: 'wyoming', missing: null, wyoming: { server: asr.url, answered: true, error: null, models: ['tiny-int8', `base ${XSS}`], streams: true } },
      { id: 'wyoming', missing: null, wyoming: expect.objectContaining({ server: away, answered: false, models: [], streams: false }) },
    ]);
    expect(body.speech.engines[3]!.wyoming!.error).toMatch(/\S/);
    expect(body.speech.voice).toEqual({
      server: tts.url,
      answered: true,
      error: null,
      voice: 'en_US-lessac-medium',
      voices: ['en_US-lessac-medium', 'en_GB-alan-low'],
    });
  });

  it('is null where there are no speech services (hark viewer)', async () => {
    const body = (await (await fetch(new URL('/healthz', h2.url))).json()) as { speech: unknown };
    expect(body.speech).toBeNull();
  });
});

describe('the speech services on the page (real Chromium)', () => {
  let browser: Browser;
  afterAll(async () => {
    await browser?.close();
  });

  it('shows the engines, the Wyoming model names and voices as text, and flags a server that did not answer', async () => {
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    const page = await browser.newPage({ viewport: { width: 1400, height: 400 }, deviceScaleFactor: 1, colorScheme: 'dark' });
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.goto(h.url);
    await page.waitForSelector('#pill-speech:not([hidden])', { timeout: 15_000 });
    const text = await page.textContent('#pill-speech');
    expect(text).toBe(
      `stt whisper → deepgram (missing) → wyoming ${asr.url} tiny-int8, base ${XSS} → wyoming ${away} not answering · voice ${tts.url} en_US-lessac-medium, en_GB-alan-low`,
    );
    expect(await page.getAttribute('#pill-speech', 'class')).toContain('warn');
    // The full lists, and why a server did not answer, on hover.
    const error = view().engines[3]!.wyoming!.error!;
    expect((await page.getAttribute('#pill-speech', 'title'))!.split('\n')).toEqual([
      `wyoming ${asr.url}: tiny-int8, base ${XSS}`,
      `wyoming ${away}: not answering (${error})`,
      `voice ${tts.url}: en_US-lessac-medium, en_GB-alan-low`,
    ]);
    // A model's name is never markup.
    expect(await page.$$('header img')).toEqual([]);
    expect(dialogs).toEqual([]);
    await page.screenshot({ path: join(shots, 'speech-services.png'), clip: { x: 0, y: 0, width: 1400, height: 120 } });

    // The viewer has no speech services: no pill.
    await page.goto(h2.url);
    await page.waitForSelector('body[data-ready="1"]', { timeout: 15_000 });
    expect(await page.$eval('#pill-speech', (e) => (e as HTMLElement).hidden)).toBe(true);
  }, 60_000);
});
