import { Bonjour } from 'bonjour-service';
import type { Logger } from '../../core/log.js';

/**
 * `_esphomelib._tcp` over mDNS with the TXT keys Home Assistant's ESPHome discovery reads, so hark
 * shows up under Settings → Devices as "discovered". bonjour-service is pure JavaScript (over
 * multicast-dns), so nothing to build on arm64.
 */
export function esphomeTxt(o: {
  mac: string;
  version: string;
  friendlyName: string;
  encryption: string | null;
  projectVersion: string;
}): Record<string, string> {
  return {
    friendly_name: o.friendlyName,
    version: o.version,
    mac: o.mac,
    platform: 'linux',
    board: 'hark',
    network: 'ethernet',
    project_name: 'hark.voice',
    project_version: o.projectVersion,
    ...(o.encryption ? { api_encryption: o.encryption } : {}),
  };
}

export function advertise(o: { name: string; port: number; txt: Record<string, string>; log: Logger; iface?: string }): () => Promise<void> {
  // multicast-dns takes `interface` (an address) for the one interface to send and listen on.
  const bonjour = new Bonjour((o.iface ? { interface: o.iface } : {}) as object, (err: Error) =>
    o.log.warn('ha satellite: mDNS error', { error: err.message }),
  );
  const service = bonjour.publish({ name: o.name, type: 'esphomelib', protocol: 'tcp', port: o.port, txt: o.txt });
  service.on('error', (err: Error) => o.log.warn('ha satellite: mDNS advertisement failed', { error: err.message }));
  o.log.info('ha satellite: advertised over mDNS', { service: `${o.name}._esphomelib._tcp.local`, port: o.port });
  return () => new Promise<void>((resolve) => bonjour.unpublishAll(() => bonjour.destroy(() => resolve())));
}
