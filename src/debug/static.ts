import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

/**
 * The viewer page is plain files in the package's top-level web/ directory, served as they are:
 * no build step, and the same path resolves from src/debug/ (tests) and dist/debug/ (installed),
 * both two levels below the package root.
 */
export const WEB_ROOT = fileURLToPath(new URL('../../web/', import.meta.url));

const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
};

/** Flat names only (no slashes, no dots but the extension): nothing outside web/ can be named. */
const NAME = /^[a-z0-9][a-z0-9-]*\.(html|js|css|svg)$/;

export async function readAsset(name: string, root = WEB_ROOT): Promise<{ body: Buffer; type: string } | null> {
  const m = NAME.exec(name);
  if (!m) return null;
  try {
    return { body: await readFile(join(root, name)), type: TYPES[m[1]!]! };
  } catch {
    return null;
  }
}

/** Defence in depth for a page that shows untrusted transcripts: no inline script can ever run. */
export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "media-src 'self' blob:",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');
