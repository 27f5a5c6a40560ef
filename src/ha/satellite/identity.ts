import { createHash } from 'node:crypto';
import { hostname, networkInterfaces } from 'node:os';

/** The ESPHome node name: ha.satellite.name, or hark-<host name> made a valid node name. */
export function nodeName(configured: string, host = hostname()): string {
  if (configured) return configured;
  const h = host
    .split('.')[0]!
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return `hark-${h || 'device'}`.slice(0, 63);
}

/**
 * The MAC Home Assistant keys the device by (12 lower-case hex digits, as ESPHome's hello sends it):
 * the first real network interface's, so the device keeps its identity across restarts; a
 * stable one made from the node name where there is none (a container).
 */
export function macAddress(name: string, ifaces = networkInterfaces()): string {
  for (const list of Object.values(ifaces)) {
    for (const i of list ?? []) {
      if (!i.internal && i.mac && i.mac !== '00:00:00:00:00:00') return i.mac.replace(/:/g, '').toLowerCase();
    }
  }
  // Locally administered, unicast: first octet x2.
  const h = createHash('sha256').update(name).digest();
  h[0] = (h[0]! & 0xfc) | 0x02;
  return h.subarray(0, 6).toString('hex');
}
