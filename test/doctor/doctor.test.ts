import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deviceListed, parseAlsaList, stableCaptureNames } from '../../src/doctor/alsa.js';
import { HARK_BIN, outputDir } from '../support/paths.js';

const run = promisify(execFile);

/** What `arecord -L` prints on a Pi with a cheap USB microphone. */
const PI_ARECORD_L = `null
    Discard all samples (playback) or generate zero samples (capture)
hw:CARD=Device,DEV=0
    USB PnP Sound Device, USB Audio
    Direct hardware device without any conversions
plughw:CARD=Device,DEV=0
    USB PnP Sound Device, USB Audio
    Hardware device with all software conversions
default:CARD=Device
    USB PnP Sound Device, USB Audio
    Default Audio Device
dsnoop:CARD=Device,DEV=0
    USB PnP Sound Device, USB Audio
    Direct sample snooping device
`;

describe('reading arecord -L', () => {
  it('finds the devices and suggests stable plughw:CARD= names', () => {
    const devices = parseAlsaList(PI_ARECORD_L);
    expect(devices.map((d) => d.name)).toEqual(['null', 'hw:CARD=Device,DEV=0', 'plughw:CARD=Device,DEV=0', 'default:CARD=Device', 'dsnoop:CARD=Device,DEV=0']);
    expect(stableCaptureNames(devices)).toEqual([
      { name: 'plughw:CARD=Device,DEV=0', description: 'USB PnP Sound Device, USB Audio; Direct hardware device without any conversions' },
    ]);
  });

  it.each([
    ['default', true],
    ['plughw:CARD=Device,DEV=0', true],
    ['hw:CARD=Device', true],
    ['plughw:CARD=Other,DEV=0', false],
    ['hw:1,0', 'unknown'],
    ['nonsense', false],
  ] as const)('device %s listed: %s', (device, want) => {
    expect(deviceListed(device, parseAlsaList(PI_ARECORD_L))).toBe(want);
  });
});

/** A fake arecord: `-L` prints the Pi listing; recording succeeds unless the device is "broken". */
function fakeAlsaPath(): string {
  const bin = join(outputDir('doctor-bin'), 'bin');
  mkdirSync(bin, { recursive: true });
  const listing = join(bin, 'listing.txt');
  writeFileSync(listing, PI_ARECORD_L);
  writeFileSync(
    join(bin, 'arecord'),
    `#!/bin/sh
if [ "$1" = "-L" ]; then cat "${listing}"; exit 0; fi
for a in "$@"; do
  case "$a" in *Gone*) echo "arecord: main:831: audio open error: No such file or directory" >&2; exit 1;; esac
done
exit 0
`,
  );
  chmodSync(join(bin, 'arecord'), 0o755);
  return bin;
}

describe('hark doctor', () => {
  const bin = fakeAlsaPath();
  const env = { ...process.env, PATH: `${bin}:${process.env.PATH}` };
  const cfgDir = outputDir('doctor-cfg');

  async function doctor(device: string) {
    const cfg = join(cfgDir, `${device.replace(/\W/g, '_')}.yaml`);
    writeFileSync(cfg, `capture:\n  device: "${device}"\n`);
    const r = await run(process.execPath, [HARK_BIN, 'doctor', '--json', '--config', cfg], { env }).catch((e: { code: number; stdout: string }) => e);
    const parsed = JSON.parse((r as { stdout: string }).stdout) as { ok: boolean; checks: { id: string; status: string; detail: string; fix?: string }[] };
    return { code: (r as { code?: number }).code ?? 0, ...parsed, mic: parsed.checks.find((c) => c.id === 'microphone')! };
  }

  it('passes the microphone with a stable name', async () => {
    const r = await doctor('plughw:CARD=Device,DEV=0');
    expect(r.mic.status).toBe('ok');
    expect(r.mic.detail).toContain('plughw:CARD=Device,DEV=0');
  });

  it('fails a device that is not there, suggesting the stable names', async () => {
    const r = await doctor('plughw:CARD=Other,DEV=0');
    expect(r.mic.status).toBe('fail');
    expect(r.mic.fix).toContain('plughw:CARD=Device,DEV=0');
    expect(r.code).not.toBe(0);
    expect(r.ok).toBe(false);
  });

  it('warns about card numbers, which move when USB devices are replugged', async () => {
    const r = await doctor('hw:1,0');
    expect(r.mic.status).toBe('warn');
    expect(r.mic.fix).toMatch(/stable name: .*plughw:CARD=Device,DEV=0/);
  });

  it('says why recording failed', async () => {
    const r = await doctor('hw:CARD=Gone,DEV=0');
    expect(r.mic.status).toBe('fail');
  });

  it('reports an invalid config as a failed check instead of crashing', async () => {
    const cfg = join(cfgDir, 'bad.yaml');
    writeFileSync(cfg, 'vad:\n  threshold: 7\n');
    const r = (await run(process.execPath, [HARK_BIN, 'doctor', '--json', '--config', cfg], { env }).catch((e) => e)) as { code: number; stdout: string };
    expect(r.code).toBe(1);
    const parsed = JSON.parse(r.stdout) as { checks: { id: string; status: string }[] };
    expect(parsed.checks.find((c) => c.id === 'config')?.status).toBe('fail');
  });
});
