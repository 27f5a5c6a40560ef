import { describe, expect, it } from 'vitest';
import { haSatelliteSection } from '../../src/ha/satellite/config.js';
import { macAddress, nodeName } from '../../src/ha/satellite/identity.js';
import { esphomeTxt } from '../../src/ha/satellite/mdns.js';
import { parseKey } from '../../src/ha/satellite/noise.js';

describe('what Home Assistant knows hark by', () => {
  it('the node name: configured, or hark-<host name> made valid', () => {
    expect(nodeName('', 'Kitchen_Pi.local')).toBe('hark-kitchen-pi');
    expect(nodeName('prep-line')).toBe('prep-line');
  });

  it('the MAC: the first real interface, else a stable locally administered one', () => {
    const lo = { address: '127.0.0.1', netmask: '255.0.0.0', family: 'IPv4', mac: '00:00:00:00:00:00', internal: true, cidr: null } as const;
    const eth = { ...lo, address: '10.0.0.5', mac: 'DC:A6:32:01:02:03', internal: false };
    expect(macAddress('x', { lo: [lo], eth0: [eth] })).toBe('dca632010203');
    const made = macAddress('hark-kitchen', { lo: [lo] });
    expect(made).toMatch(/^[0-9a-f]{12}$/);
    expect(parseInt(made.slice(0, 2), 16) & 0x03).toBe(0x02);
    expect(macAddress('hark-kitchen', { lo: [lo] })).toBe(made);
  });

  it('the mDNS TXT keys, with api_encryption only when a key is set', () => {
    const txt = esphomeTxt({ mac: 'dca632010203', version: '2025.10.0', friendlyName: 'Kitchen', encryption: null, projectVersion: '0.1.0' });
    expect(txt).toMatchObject({ mac: 'dca632010203', version: '2025.10.0', friendly_name: 'Kitchen', platform: 'linux', board: 'hark', network: 'ethernet' });
    expect(txt).not.toHaveProperty('api_encryption');
    expect(
      esphomeTxt({ mac: 'm', version: 'v', friendlyName: 'f', encryption: 'Noise_NNpsk0_25519_ChaChaPoly_SHA256', projectVersion: '0' }).api_encryption,
    ).toBe('Noise_NNpsk0_25519_ChaChaPoly_SHA256');
  });

  it('a bad key is refused at start, naming what is wrong', () => {
    expect(() => parseKey('not base64!')).toThrow(/not base64/);
    expect(() => parseKey(Buffer.alloc(16).toString('base64'))).toThrow(/16 bytes; it must be 32/);
    expect(parseKey(Buffer.alloc(32, 1).toString('base64'))).toHaveLength(32);
  });

  it('config: off by default, a bad node name named', () => {
    expect(haSatelliteSection.parse(undefined)).toMatchObject({ enabled: false, port: 6053, localFirst: true, mdns: true });
    const bad = haSatelliteSection.safeParse({ name: 'Kitchen Hark' });
    expect(bad.success).toBe(false);
    expect(JSON.stringify(bad.error?.issues)).toMatch(/ESPHome node name/);
  });
});
