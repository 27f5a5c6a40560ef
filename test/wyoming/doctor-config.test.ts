import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseConfigText, validateConfig } from '../../src/config/load.js';
import { ROOT } from '../support/paths.js';
import type { DoctorContext } from '../../src/doctor/check.js';
import { allChecks } from '../../src/doctor/registry.js';
import { wyomingCheck } from '../../src/doctor/wyoming.js';
import { WyomingDouble } from '../support/wyoming-server.js';

function ctx(raw: unknown): DoctorContext {
  return {
    loaded: { config: validateConfig(raw, 'test'), source: 'test', secrets: {} as never },
    configError: null,
    env: {},
    exec: async () => ({ code: 0, stdout: '', stderr: '' }),
  };
}

let server: WyomingDouble | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

describe('config: stt.wyoming and speech.wyoming', () => {
  it('defaults: no servers, the engine and voice unused', () => {
    const c = validateConfig({}, 'test');
    expect(c.stt.wyoming).toMatchObject({ server: '', language: '', connectTimeoutMs: 1000, chunkSamples: 1024 });
    expect(c.speech.wyoming).toMatchObject({ server: '', voice: '' });
  });

  it.each([
    ['http://10.0.0.5:10300', /stt\.wyoming\.server: "http:\/\/10.0.0.5:10300" is not a Wyoming server address \(tcp:\/\/host:port/],
    ['tcp://speech.lan', /is not a Wyoming server address/],
    ['tcp://speech.lan:99999', /port 99999, outside 1-65535/],
  ])('a bad address %s is refused, naming the setting', (server, error) => {
    expect(() => validateConfig({ stt: { wyoming: { server } } }, 'test')).toThrow(error);
  });

  it('the shipped config’s commented Wyoming example is valid once uncommented', () => {
    const text = readFileSync(join(ROOT, 'config', 'hark.yaml'), 'utf8');
    const block = text.slice(text.indexOf('# The site’s Wyoming'.replace('’', "'")));
    const yaml = block
      .split('\n')
      .filter((l) => /^# {0,1}(stt|speech|  )/.test(l))
      .map((l) => l.replace(/^# ?/, ''))
      .join('\n');
    const c = parseConfigText(yaml, 'hark.yaml');
    expect(c.stt.engines).toEqual(['wyoming', 'whisper']);
    expect(c.stt.wyoming.server).toBe('tcp://speech.lan:10300');
    expect(c.speech.wyoming).toMatchObject({ server: 'tcp://speech.lan:10200', voice: 'en_US-lessac-medium' });
  });

  it('tcp://host:port and [ipv6]:port are taken', () => {
    expect(
      validateConfig(
        { stt: { engines: ['wyoming', 'whisper'], wyoming: { server: 'tcp://speech.lan:10300' } }, speech: { wyoming: { server: 'tcp://[fd00::5]:10200' } } },
        'test',
      ).speech.wyoming.server,
    ).toBe('tcp://[fd00::5]:10200');
  });
});

describe('hark doctor: the Wyoming check', () => {
  it('is registered', () => {
    expect(allChecks().map((c) => c.id)).toContain('wyoming');
  });

  it('not configured: ok, says it is not used', async () => {
    expect(await wyomingCheck.run(ctx({}))).toMatchObject({ status: 'ok', detail: expect.stringMatching(/not used/) });
  });

  it('both servers up: their models and voices', async () => {
    server = await WyomingDouble.start({ models: ['small-int8'], voices: ['en_US-lessac-medium', 'en_GB-alan-low'], streaming: true });
    const r = await wyomingCheck.run(
      ctx({ stt: { engines: ['wyoming', 'whisper'], wyoming: { server: server.url } }, speech: { wyoming: { server: server.url, voice: 'en_GB-alan-low' } } }),
    );
    expect(r.status).toBe('ok');
    expect(r.detail).toMatch(/speech-to-text tcp:\/\/127\.0\.0\.1:\d+: speech-to-text faster-whisper \(models: small-int8; streams transcripts\)/);
    expect(r.detail).toMatch(/voices: en_US-lessac-medium, en_GB-alan-low/);
    expect(r.data).toMatchObject({ stt: { models: ['small-int8'], streams: true }, voice: { voices: ['en_US-lessac-medium', 'en_GB-alan-low'] } });
  });

  it('a voice or model the server does not have: a warning naming what it has', async () => {
    server = await WyomingDouble.start();
    const r = await wyomingCheck.run(
      ctx({
        stt: { engines: ['wyoming'], wyoming: { server: server.url, model: 'large-v3' } },
        speech: { wyoming: { server: server.url, voice: 'nl_NL-mls-medium' } },
      }),
    );
    expect(r.status).toBe('warn');
    expect(r.detail).toMatch(/has no model "large-v3" \(has: tiny-int8\)/);
    expect(r.detail).toMatch(/has no voice "nl_NL-mls-medium" \(has: en_US-lessac-medium, en_GB-alan-low\)/);
  });

  it('servers down: a warning when Whisper follows and espeak-ng speaks; a failure when wyoming is the only engine', async () => {
    server = await WyomingDouble.start();
    const url = server.url;
    await server.close();
    server = null;
    const withFallback = await wyomingCheck.run(
      ctx({ stt: { engines: ['wyoming', 'whisper'], wyoming: { server: url } }, speech: { wyoming: { server: url } } }),
    );
    expect(withFallback.status).toBe('warn');
    expect(withFallback.detail).toMatch(/connection refused.*whisper takes the segments.*espeak-ng speaks instead/);
    const alone = await wyomingCheck.run(ctx({ stt: { engines: ['wyoming'], wyoming: { server: url } } }));
    expect(alone.status).toBe('fail');
    expect(alone.fix).toMatch(/rhasspy\/wyoming-whisper/);
  });

  it('stt.engines names wyoming without a server: a failure saying what to set', async () => {
    const r = await wyomingCheck.run(ctx({ stt: { engines: ['wyoming', 'whisper'] } }));
    expect(r).toMatchObject({ status: 'fail', detail: expect.stringMatching(/stt\.wyoming\.server is not set/) });
  });
});
