/** A Wyoming server as configured: `tcp://host:port` (what Home Assistant's add-ons print). */
export interface WyomingServer {
  host: string;
  port: number;
  /** As written back in messages: "tcp://10.0.0.5:10300". */
  url: string;
}

/** Parse `tcp://host:port`; null and a reason when it is not one (the config section says where). */
export function parseServerUrl(raw: string): { server: WyomingServer } | { error: string } {
  const s = raw.trim();
  const m = /^tcp:\/\/(\[[0-9a-fA-F:.]+\]|[^:/\s[\]]+):(\d{1,5})\/?$/.exec(s);
  if (!m) return { error: `"${raw}" is not a Wyoming server address (tcp://host:port, e.g. tcp://10.0.0.5:10300)` };
  const port = Number(m[2]);
  if (port < 1 || port > 65535) return { error: `"${raw}" has port ${port}, outside 1-65535` };
  const host = m[1]!.startsWith('[') ? m[1]!.slice(1, -1) : m[1]!;
  return { server: { host, port, url: `tcp://${m[1]}:${port}` } };
}
