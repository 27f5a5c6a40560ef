import { statfsSync, existsSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Check } from './check.js';
import { deviceListed, parseAlsaList, stableCaptureNames } from './alsa.js';

const ok = (detail: string) => ({ status: 'ok' as const, detail });
const warn = (detail: string, fix: string) => ({ status: 'warn' as const, detail, fix });
const fail = (detail: string, fix: string) => ({ status: 'fail' as const, detail, fix });

export const configCheck: Check = {
  id: 'config',
  title: 'configuration',
  async run(ctx) {
    if (!ctx.loaded) return fail(ctx.configError ?? 'the config could not be loaded', 'fix the lines named, then run `hark config` to see the result');
    return ok(ctx.loaded.source ? `valid: ${ctx.loaded.source}` : 'no config file; built-in defaults in use');
  },
};

export const microphoneCheck: Check = {
  id: 'microphone',
  title: 'arecord and the microphone',
  async run(ctx) {
    const list = await ctx.exec('arecord', ['-L']);
    if (list.code === 127) return fail('arecord is not installed', 'sudo apt-get install alsa-utils');
    const devices = parseAlsaList(list.stdout);
    const stable = stableCaptureNames(devices);
    const device = ctx.loaded?.config.capture.device ?? 'default';
    const suggestions = stable.length
      ? `capture devices: ${stable.map((d) => `${d.name} (${d.description.split(';')[0]})`).join(', ')}`
      : 'no capture cards found: is the USB microphone plugged in? (`lsusb`)';
    const listed = deviceListed(device, devices);
    if (listed === false)
      return fail(`capture.device "${device}" is not among arecord -L's devices`, `set capture.device to one of these stable names; ${suggestions}`);
    // Record 4000 samples (a quarter second) for real: permissions, busy devices and unplugged mics show up here.
    const probe = await ctx.exec('arecord', ['-q', '-D', device, '-f', 'S16_LE', '-r', '16000', '-c', '1', '-t', 'raw', '-s', '4000', '/dev/null'], {
      timeoutMs: 4000,
    });
    if (probe.code !== 0) {
      const why = probe.stderr.trim().split('\n').pop() ?? `exit ${probe.code}`;
      return fail(`cannot record from "${device}": ${why}`, `check the mic is plugged in and hark's user is in the audio group; ${suggestions}`);
    }
    if (/^(plug)?hw:\d/.test(device))
      return warn(`recording from "${device}" works, but card numbers change when USB devices are replugged`, `use a stable name: ${suggestions}`);
    return ok(`recording from "${device}" works; ${suggestions}`);
  },
};

export const playbackCheck: Check = {
  id: 'aplay',
  title: 'aplay (speech output)',
  async run(ctx) {
    const r = await ctx.exec('aplay', ['--version']);
    if (r.code === 127) return fail('aplay is not installed', 'sudo apt-get install alsa-utils');
    const list = await ctx.exec('aplay', ['-L']);
    const cards = stableCaptureNames(parseAlsaList(list.stdout));
    return ok(
      `${r.stdout.trim().split('\n')[0]}; ${cards.length ? `playback cards: ${cards.map((c) => c.name).join(', ')}` : 'no playback cards found (speech will go nowhere)'}`,
    );
  },
};

export const espeakCheck: Check = {
  id: 'espeak-ng',
  title: 'espeak-ng (text to speech)',
  async run(ctx) {
    const r = await ctx.exec('espeak-ng', ['--version']);
    if (r.code === 127) return fail('espeak-ng is not installed', 'sudo apt-get install espeak-ng');
    return ok(r.stdout.trim().split('\n')[0] ?? 'espeak-ng present');
  },
};

export const deepgramCheck: Check = {
  id: 'deepgram',
  title: 'Deepgram key (optional cloud fallback)',
  async run(ctx) {
    if (ctx.loaded?.secrets.deepgramApiKey) return ok('DEEPGRAM_API_KEY is set');
    return warn('no DEEPGRAM_API_KEY: speech-to-text is local Whisper only', 'optional: put DEEPGRAM_API_KEY=... in /etc/hark/hark.env for a cloud fallback');
  },
};

/** Free space where the database lives: audio retention needs room, and a full SD card stops storage. */
export const diskCheck: Check = {
  id: 'disk',
  title: 'disk space for the segment log',
  async run(ctx) {
    let dir = dirname(ctx.loaded?.config.store.path ?? '/var/lib/hark/hark.db');
    while (!existsSync(dir) && dirname(dir) !== dir) dir = dirname(dir);
    const s = statfsSync(dir);
    const freeMb = Math.floor((s.bavail * s.bsize) / 1e6);
    const wantMb = ctx.loaded?.config.store.maxAudioMb ?? 500;
    if (freeMb < 200)
      return fail(`${freeMb} MB free on ${dir}`, 'free space on the SD card (apt-get clean, journalctl --vacuum-size=50M) or lower store.maxAudioMb');
    if (freeMb < wantMb * 2) return warn(`${freeMb} MB free on ${dir}; audio retention may use up to ${wantMb} MB`, 'free space, or lower store.maxAudioMb');
    return ok(`${freeMb} MB free on ${dir}`);
  },
};
