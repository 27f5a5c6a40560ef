import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { HarkError } from '../core/errors.js';

/**
 * Who may look. Bound to loopback (reached through an SSH tunnel) no token is needed, but the Host
 * header must be a loopback name, so a web page in the technician's browser cannot reach the
 * viewer through DNS rebinding. Bound to the LAN, every request carries the token: a bearer header
 * for tools, or a cookie the browser gets by opening `/?token=...` once.
 */
export const TOKEN_COOKIE = 'hark_debug_token';
/** A LAN-facing token shorter than this is refused at start (`openssl rand -hex 16` gives 32). */
export const MIN_TOKEN_LENGTH = 16;

export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** Refuse to listen on the LAN without a usable token. */
export function checkBind(host: string, token: string | undefined): void {
  if (isLoopbackHost(host)) return;
  if (!token) {
    throw new HarkError(
      `debug server: refusing to listen on ${host} without a token; set HARK_DEBUG_TOKEN (or debug.token), e.g. HARK_DEBUG_TOKEN=$(openssl rand -hex 16), or bind to 127.0.0.1 and use an SSH tunnel`,
    );
  }
  if (token.length < MIN_TOKEN_LENGTH) {
    throw new HarkError(`debug server: the token must be at least ${MIN_TOKEN_LENGTH} characters to listen on ${host} (try: openssl rand -hex 16)`);
  }
}

export type AuthDecision = { ok: true; setCookie?: string; redirect?: string } | { ok: false; status: 401 | 403; message: string };

export function authorize(url: URL, headers: IncomingHttpHeaders, token: string | undefined): AuthDecision {
  if (!token) {
    const host = hostName(headers.host ?? '');
    if (!isLoopbackHost(host)) {
      return {
        ok: false,
        status: 403,
        message: `Host "${host.slice(0, 100)}" is not allowed: open the viewer as http://localhost:<port>/ (this server only answers loopback names)`,
      };
    }
    return { ok: true };
  }
  const fromQuery = url.searchParams.get('token');
  if (fromQuery !== null) {
    if (!same(fromQuery, token)) return { ok: false, status: 401, message: 'wrong token' };
    const cookie = `${TOKEN_COOKIE}=${encodeURIComponent(token)}; Path=/; HttpOnly; SameSite=Strict`;
    // A page load drops the token from the address bar (and history) once the cookie is set.
    const clean = new URL(url);
    clean.searchParams.delete('token');
    return { ok: true, setCookie: cookie, redirect: clean.pathname + clean.search };
  }
  const bearer = /^Bearer\s+(.+)$/i.exec(headers.authorization ?? '')?.[1]?.trim();
  if (bearer !== undefined) return same(bearer, token) ? { ok: true } : { ok: false, status: 401, message: 'wrong token' };
  const cookie = readCookie(headers.cookie ?? '', TOKEN_COOKIE);
  if (cookie !== undefined && same(cookie, token)) return { ok: true };
  return {
    ok: false,
    status: 401,
    message: 'this hark debug server needs its token: open /?token=<token> once in the browser, or send Authorization: Bearer <token>',
  };
}

function hostName(host: string): string {
  // "[::1]:8080" → "[::1]", "localhost:8080" → "localhost"
  const m = /^(\[[^\]]*\]|[^:]*)(?::\d+)?$/.exec(host.trim());
  return m ? m[1]! : host;
}

function readCookie(header: string, name: string): string | undefined {
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    try {
      return decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** Constant-time comparison (hashing first makes the lengths equal). */
function same(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}
