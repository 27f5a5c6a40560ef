/**
 * Reading `arecord -L` / `aplay -L`: device names, and the stable `plughw:CARD=<name>,DEV=<n>`
 * forms a technician should put in the config (card numbers move when USB devices are replugged).
 */
export interface AlsaDevice {
  name: string;
  description: string;
}

export function parseAlsaList(text: string): AlsaDevice[] {
  const out: AlsaDevice[] = [];
  let current: AlsaDevice | null = null;
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    if (!/^\s/.test(line)) {
      current = { name: line.trim(), description: '' };
      out.push(current);
    } else if (current) {
      current.description = current.description ? `${current.description}; ${line.trim()}` : line.trim();
    }
  }
  return out;
}

/** The stable names for hardware cards: one plughw:CARD=X,DEV=N per hw:CARD=X,DEV=N. */
export function stableCaptureNames(devices: AlsaDevice[]): AlsaDevice[] {
  return devices.filter((d) => /^hw:CARD=[^,]+,DEV=\d+$/.test(d.name)).map((d) => ({ name: d.name.replace(/^hw:/, 'plughw:'), description: d.description }));
}

/** Does the configured device appear in the list? Numeric `hw:1,0` forms can't be checked by name. */
export function deviceListed(device: string, devices: AlsaDevice[]): boolean | 'unknown' {
  if (device === 'default' || devices.some((d) => d.name === device)) return true;
  const m = /^(plug)?hw:CARD=([^,]+)(,DEV=(\d+))?$/.exec(device);
  if (m) return devices.some((d) => d.name === `hw:CARD=${m[2]},DEV=${m[4] ?? '0'}`);
  if (/^(plug)?hw:\d+/.test(device)) return 'unknown';
  return false;
}
