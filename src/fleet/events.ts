import type { KitchenTimer } from '../command/actions/timers.js';

/**
 * What the bus says, turned into what the fleet publishes (pure): JSON events on event/<type>, and
 * the retained state a dashboard shows now (heard, action, mode, microphone, led; timers are built
 * by timersState from the live list). `wallMs` stamps each message with wall time for readers.
 */
export type Publication =
  { kind: 'event'; type: string; body: Record<string, unknown> } | { kind: 'state'; name: string; body: Record<string, unknown> } | { kind: 'timers' };

/** The mode and the top frame, kept from router effects for the retained mode state. */
export interface Dashboard {
  mode: string;
  frame: string;
}

type P = Record<string, unknown>;

export function publicationsFor(name: string, payload: unknown, dash: Dashboard, wallMs: number): Publication[] {
  const p = (payload ?? {}) as P;
  const at = new Date(wallMs).toISOString();
  switch (name) {
    case 'segment.handled': {
      const u = p.utterance as { text: string; engine: string } | null;
      const ev: Publication = { kind: 'event', type: 'segment', body: { ...p, at } };
      if (!u) return [ev];
      return [
        ev,
        { kind: 'state', name: 'heard', body: { text: u.text, engine: u.engine, fate: p.fate, reason: p.reason ?? null, latencyMs: p.latencyMs, at } },
      ];
    }
    case 'router.effect':
      return effect(p, dash, at);
    case 'capture.up':
    case 'capture.down': {
      const state = name === 'capture.up' ? 'up' : 'down';
      const body = { state, device: p.device ?? null, reason: p.reason ?? null, at };
      return [
        { kind: 'event', type: 'capture', body },
        { kind: 'state', name: 'microphone', body },
      ];
    }
    case 'led.pattern': {
      const body = { state: p.state, pattern: p.pattern, at };
      return [
        { kind: 'event', type: 'led', body },
        { kind: 'state', name: 'led', body },
      ];
    }
    case 'fleet.arbitration':
      return [{ kind: 'event', type: 'arbitration', body: { ...p, at } }];
    default:
      return [];
  }
}

function effect(p: P, dash: Dashboard, at: string): Publication[] {
  switch (p.type) {
    case 'action': {
      const body = { name: p.name, args: p.args, seq: p.seq ?? null, at };
      return [
        { kind: 'event', type: 'action', body },
        { kind: 'state', name: 'action', body },
      ];
    }
    case 'timer': {
      const leftSeconds = Math.max(0, Math.round((Number(p.dueAtMs) - Number(p.atMs)) / 1000));
      const { type: _t, atMs: _a, dueAtMs: _d, ...rest } = p;
      return [{ kind: 'event', type: 'timer', body: { ...rest, leftSeconds, at } }, { kind: 'timers' }];
    }
    case 'list':
      return [{ kind: 'event', type: 'list', body: { op: p.op, list: p.list, item: p.item ?? null, at } }];
    case 'submit':
      return [{ kind: 'event', type: 'submit', body: { frame: p.frame, target: p.target, text: p.text, at } }];
    case 'mode':
      dash.mode = String(p.mode);
      return [
        { kind: 'event', type: 'mode', body: { mode: dash.mode, frame: dash.frame, at } },
        { kind: 'state', name: 'mode', body: { ...dash, at } },
      ];
    case 'stack': {
      const frames = (p.frames as string[]) ?? [];
      dash.frame = frames[frames.length - 1] ?? 'base';
      return [
        { kind: 'event', type: 'stack', body: { frames, top: dash.frame, at } },
        { kind: 'state', name: 'mode', body: { ...dash, at } },
      ];
    }
    default:
      return [];
  }
}

/** The retained timers state: every timer not finished, soonest first, with the seconds left now. */
export function timersState(timers: readonly KitchenTimer[], nowMs: number, wallMs: number): Record<string, unknown> {
  return {
    count: timers.length,
    timers: timers.map((t) => {
      const leftMs = Math.max(0, t.state === 'paused' ? (t.remainingMs ?? 0) : t.dueAtMs - nowMs);
      // dueAt (wall time) lets a dashboard count down between messages; a paused timer has none.
      return {
        id: t.id,
        label: t.label ?? null,
        seconds: t.seconds,
        state: t.state,
        leftSeconds: Math.round(leftMs / 1000),
        dueAt: t.state === 'running' ? new Date(wallMs + leftMs).toISOString() : null,
      };
    }),
    at: new Date(wallMs).toISOString(),
  };
}
