import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorMessage } from '../core/errors.js';
import { readBody } from './body.js';
import { sendJson } from './respond.js';

/** Voice picking as the device's HTTP API sees it (the daemon hands in picking's own API). */
export interface PickingRoutes {
  offer(body: unknown): { status: number; body: Record<string, unknown> };
  view(): unknown;
}

/** An assignment is a list of picks: a megabyte holds thousands. */
const MAX_ASSIGNMENT_BYTES = 1024 * 1024;

/**
 * `GET /api/picking` (the operator's day, the outbox) and `POST /api/picking/assignments` (an
 * assignment from the warehouse system, docs/picking.md), behind the debug page's token. False when
 * the path is not one of these.
 */
export async function pickingRoute(
  path: string,
  method: string,
  req: IncomingMessage,
  res: ServerResponse,
  picking: PickingRoutes | null,
  only: (allowed: string[]) => boolean,
): Promise<boolean> {
  if (path !== '/api/picking' && path !== '/api/picking/assignments') return false;
  if (!picking) {
    req.resume();
    sendJson(res, 404, { error: 'voice picking is off on this device (picking.enabled)' });
    return true;
  }
  if (path === '/api/picking') {
    if (only(['GET'])) sendJson(res, 200, picking.view());
    return true;
  }
  if (!only(['POST'])) return true;
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') {
    req.resume();
    sendJson(res, 415, { error: `Content-Type: must be application/json (got ${JSON.stringify(type || '(none)')})`, field: 'Content-Type' });
    return true;
  }
  const body = await readBody(req, MAX_ASSIGNMENT_BYTES);
  if (!body.ok) {
    sendJson(res, body.status, { error: body.message, field: '(body)' });
    return true;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.text);
  } catch (err) {
    sendJson(res, 400, { error: `(body): not valid JSON: ${errorMessage(err)}`, field: '(body)' });
    return true;
  }
  const r = picking.offer(parsed);
  sendJson(res, r.status, r.body);
  return true;
}
