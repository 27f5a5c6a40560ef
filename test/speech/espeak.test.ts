import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rms } from '../../src/audio/pcm.js';
import { EspeakTts } from '../../src/speech/espeak.js';
import { outputDir } from '../support/paths.js';
import { installedVoiceIds, installedVoices, onlyInstalled, parseVoiceList } from '../../src/speech/voices.js';

const tts = () => new EspeakTts({ voice: 'en-us', speed: 160, volume: 100, cacheEntries: 8 });
const seconds = (pcm: Int16Array) => pcm.length / 16_000;

// espeak-ng itself, rendering real speech.
describe('espeak-ng text to speech', () => {
  it('renders a phrase as audible 16 kHz speech of plausible length', async () => {
    const pcm = await tts().render('The pasta timer is done.');
    // five words at 160 words a minute: about two seconds, with espeak's padding
    expect(seconds(pcm)).toBeGreaterThan(1.0);
    expect(seconds(pcm)).toBeLessThan(3.5);
    expect(rms(pcm)).toBeGreaterThan(0.02);
  });

  it('speed and volume from the settings change the speech', async () => {
    const t = tts();
    const normal = await t.render('three onions and a leek');
    const fast = await t.render('three onions and a leek', { speed: 320 });
    const quiet = await t.render('three onions and a leek', { volume: 20 });
    expect(seconds(fast)).toBeLessThan(seconds(normal) * 0.75);
    expect(rms(quiet)).toBeLessThan(rms(normal) * 0.5);
  });

  it('caches a repeated phrase: the same audio, without running espeak-ng again', async () => {
    // The real espeak-ng behind a wrapper that counts its runs: "not run again" is counted, not timed
    // (a loaded CI machine made the cached render take 5.6 ms against a 5 ms bound).
    const dir = outputDir('speech-espeak-cache');
    mkdirSync(dir, { recursive: true });
    const runs = join(dir, 'runs');
    writeFileSync(runs, '');
    const bin = join(dir, 'espeak-ng-counted');
    writeFileSync(bin, `#!/bin/sh\necho run >> ${JSON.stringify(runs)}\nexec espeak-ng "$@"\n`);
    chmodSync(bin, 0o755);
    const ran = () => readFileSync(runs, 'utf8').split('\n').filter(Boolean).length;
    const t = new EspeakTts({ voice: 'en-us', speed: 160, volume: 100, cacheEntries: 8, bin });
    const first = await t.render('Added.');
    expect(ran()).toBe(1);
    const again = await t.render('Added.');
    expect(again).toBe(first);
    expect(ran()).toBe(1);
    // least recently used phrases make room for new ones
    for (let i = 0; i < 8; i++) await t.render(`item ${i}`);
    expect(t.cached).toBe(8);
    expect(await t.render('Added.')).not.toBe(first);
  });

  it('keeps the cache within its MB: a day of distinct timers does not grow it, and a long answer is not kept', async () => {
    // The hour-long capture soak's memory crept with each new "Timer set for N minutes".
    const t = new EspeakTts({ voice: 'en-us', speed: 160, volume: 100, cacheEntries: 128, cacheMb: 0.5 });
    const confirm = await t.render('Added.');
    for (let n = 1; n <= 20; n++) await t.render(`Timer set for ${n} minutes.`);
    expect(t.cachedBytes).toBeLessThanOrEqual(0.5 * 1024 * 1024);
    expect(t.cachedBytes).toBeGreaterThan(0.25 * 1024 * 1024);
    expect(t.cached).toBeLessThan(20);
    // the oldest went first; the newest is still there, the same audio
    const last = await t.render('Timer set for 20 minutes.');
    expect(await t.render('Timer set for 20 minutes.')).toBe(last);
    expect(await t.render('Added.')).not.toBe(confirm);
    // an answer over a quarter of the budget is said, and not kept
    const before = t.cachedBytes;
    const long = await t.render(
      'Here is the prep list: two kilos of onions, three litres of stock, a bunch of parsley, four lemons and six hundred grams of butter.',
    );
    expect(long.byteLength).toBeGreaterThan(0.125 * 1024 * 1024);
    expect(t.cachedBytes).toBe(before);
  });

  it('says text that starts with a dash instead of reading it as an option', async () => {
    const pcm = await tts().render('-5 degrees in the freezer');
    expect(rms(pcm)).toBeGreaterThan(0.02);
  });

  it('an unknown voice is an error that names the setting and how to list voices', async () => {
    const t = new EspeakTts({ voice: 'xx-nowhere', speed: 160, volume: 100 });
    await expect(t.render('hello')).rejects.toThrow(/speech\.voice is "xx-nowhere"; `espeak-ng --voices` lists the installed ones/);
  });

  it('empty text is silence without a process', async () => {
    expect((await tts().render('   ')).length).toBe(0);
  });
});

describe('installed voices for the voice picker', () => {
  it('lists the voices espeak-ng has here, by the id -v takes', async () => {
    const voices = await installedVoices();
    const ids = await installedVoiceIds();
    expect(ids).toEqual(expect.arrayContaining(['en-us', 'en-gb', 'en-gb-scotland', 'en-029']));
    expect(voices.find((v) => v.id === 'en-us' && v.file === 'gmw/en-US')).toMatchObject({ name: 'English (America)', gender: 'M' });
    // every listed voice can actually speak
    const sample = voices.filter((v) => v.id.startsWith('en'));
    for (const v of sample.slice(0, 3))
      expect(rms(await new EspeakTts({ voice: v.id, speed: 200, volume: 100, cacheEntries: 0 }).render('ok'))).toBeGreaterThan(0.01);
  });

  it('drops variants and MBROLA voices whose database is missing', () => {
    const text = [
      'Pty Language       Age/Gender VoiceName          File                 Other Languages',
      ' 2  en-us           --/M      English_(America)  gmw/en-US            (en 3)',
      ' 5  en-us           --/F      us-mbrola-1        mb/mb-us1            (en 8)',
      ' 5  variant         --/M      Storm              !v/Storm             (en-us 5)',
      ' 5  en-gb-scotland  --/M      English_(Scotland) gmw/en-GB-scotland   (en 4)',
    ].join('\n');
    expect(parseVoiceList(text).map((v) => v.id)).toEqual(['en-us', 'en-gb-scotland']);
    expect(parseVoiceList(text, (f) => f === 'mb/mb-us1').map((v) => v.file)).toEqual(['gmw/en-US', 'mb/mb-us1', 'gmw/en-GB-scotland']);
  });

  it("narrows the picker's voices to the installed ones", () => {
    const specs = [
      { id: 'en-us', say: ['american'] },
      { id: 'en-au', say: ['australian'] },
    ];
    expect(onlyInstalled(specs, ['en-US', 'en-gb'])).toEqual([{ id: 'en-us', say: ['american'] }]);
  });
});
