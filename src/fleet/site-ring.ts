import type { KitchenTimer } from '../command/actions/timers.js';

/**
 * A ring for the whole site or area (pure: no client, no clock of its own). The device that owns a
 * timer keeps, retained on the broker, which of its timers ring for others (state/ringing): every
 * device of the area (or the site) rings those by name, and stops when that state no longer lists
 * one — so a device that missed a stop (broker down), or joins while a timer rings, follows the
 * owner's word as soon as it hears it. A stop said at any device goes to the owner with a stop id,
 * at least once (QoS 1, queued while the broker is away); the owner stops its timer and records it
 * once (a stop id seen before, or a timer no longer ringing, changes nothing). A retained state rings
 * nothing new until the owner says it again: after a broker restart it may be older than a stop. A
 * device that loses the broker rings only its own timers.
 */
export type RingScope = 'device' | 'area' | 'site';

export interface RingEntry {
  id: number;
  label: string | null;
  /** The duration it was set for: the other devices show and pick it by it ("the 5 minute timer"). */
  seconds?: number;
  scope: 'area' | 'site';
  /** The owner's area (an area ring rings only on the devices of this area). */
  area: string | null;
  /** Wall time it began ringing at the owner. */
  since: string;
}

export interface RingingState {
  device: string;
  ringing: RingEntry[];
  at: string;
}

export interface RingStop {
  /** The owner's timer id. */
  id: number;
  /** Unique per stop said: the owner records a stop once however often it arrives. */
  stopId: string;
  by: 'voice' | 'button';
  /** The device it was stopped at. */
  device: string;
}

/** The scope a timer rings in: by its name first (mqtt.ringOnByName), else mqtt.ringOn. */
export function scopeOf(label: string | undefined, settings: { ringOn: RingScope; ringOnByName: Record<string, RingScope> }): RingScope {
  return (label !== undefined ? settings.ringOnByName[label.toLowerCase()] : undefined) ?? settings.ringOn;
}

/**
 * What the owner retains on state/ringing: its own ringing timers that ring beyond it. `since`: when
 * each began ringing, by wall time (kept from the first state that listed it).
 */
export function ringingState(
  device: string,
  area: string | null,
  timers: readonly KitchenTimer[],
  scope: (label: string | undefined) => RingScope,
  since: (id: number) => string,
  wallMs: number,
): RingingState {
  const ringing: RingEntry[] = [];
  for (const t of timers) {
    if (t.state !== 'ringing' || t.from) continue;
    const s = scope(t.label);
    if (s !== 'device') ringing.push({ id: t.id, label: t.label ?? null, seconds: t.seconds, scope: s, area, since: since(t.id) });
  }
  return { device, ringing, at: new Date(wallMs).toISOString() };
}

export function parseRingingState(text: string): RingingState | null {
  try {
    const v = JSON.parse(text) as Partial<RingingState>;
    if (typeof v.device !== 'string' || !Array.isArray(v.ringing)) return null;
    const ringing = v.ringing.filter((r): r is RingEntry => typeof r?.id === 'number' && (r.scope === 'area' || r.scope === 'site'));
    return { device: v.device, ringing, at: typeof v.at === 'string' ? v.at : '' };
  } catch {
    return null;
  }
}

export function parseRingStop(text: string): RingStop | { error: string } {
  let v: Partial<RingStop>;
  try {
    v = JSON.parse(text) as Partial<RingStop>;
  } catch {
    return { error: 'ring stop: payload is not JSON (expected {"id": 3, "stopId": "...", "by": "voice", "device": "pass-1"})' };
  }
  if (typeof v !== 'object' || v === null) return { error: 'ring stop: payload must be a JSON object' };
  if (typeof v.id !== 'number' || !Number.isInteger(v.id))
    return { error: `ring stop: "id" must be the timer's id, a whole number (got ${JSON.stringify(v.id ?? null)})` };
  if (typeof v.stopId !== 'string' || !v.stopId || v.stopId.length > 100)
    return { error: 'ring stop: "stopId" must be a non-empty string of at most 100 characters' };
  if (v.by !== 'voice' && v.by !== 'button') return { error: `ring stop: "by" must be voice or button (got ${JSON.stringify(v.by ?? null)})` };
  if (typeof v.device !== 'string' || !v.device) return { error: 'ring stop: "device" must name the device it was stopped at' };
  return { id: v.id, stopId: v.stopId, by: v.by, device: v.device };
}

export interface SiteRingHooks {
  /** `ring`: the owner's timer as its state lists it (its duration, and since when it rings there). */
  ringGuest(from: { device: string; id: number }, label?: string, ring?: { seconds: number; since: string }): void;
  endGuest(from: { device: string; id: number }): void;
  stopOwn(id: number, by: 'voice' | 'button', at: string): boolean;
}

/** Where stops said here wait until their owner confirms (the store's ring_stops; Store.ringStops() fits). */
export interface RingOutbox {
  save(s: RingStop & { owner: string; timerId: number }): void;
  settle(owner: string, timerId: number): void;
  all(): { stopId: string; owner: string; timerId: number; by: 'voice' | 'button'; device: string }[];
}

/** Stop ids remembered by the owner: far more than can be said over one ring. */
const SEEN_STOPS = 512;

/** The fleet's part of a site ring: what the peers ring, what was stopped here, the stops already seen. */
export class SiteRing {
  /** Guest rings by owner: timer ids its last state listed and this device rings. */
  private readonly guests = new Map<string, Set<number>>();
  /** Guest rings stopped here whose owner has not yet said they ended: not rung again meanwhile. */
  private readonly stoppedHere = new Set<string>();
  private readonly seen: string[] = [];
  private readonly since = new Map<number, string>();

  /**
   * `outbox`: where a stop said here is stored before it is sent, and kept until the owner's state no
   * longer lists the timer (sent again at every reconnect meanwhile, across a restart too).
   */
  constructor(private readonly o: { device: string; area: string | null; hooks: SiteRingHooks; outbox?: RingOutbox | null }) {
    for (const s of this.outboxRows()) this.stoppedHere.add(key(s.owner, s.timerId));
  }

  /** Stops said here that their owners have not yet confirmed, oldest first: sent again at each connect. */
  pending(): { owner: string; stop: RingStop }[] {
    return this.outboxRows().map((s) => ({ owner: s.owner, stop: { id: s.timerId, stopId: s.stopId, by: s.by, device: s.device } }));
  }

  private outboxRows(): ReturnType<RingOutbox['all']> {
    return this.o.outbox?.all() ?? [];
  }

  /**
   * A peer's state/ringing: ring what it rings for here, end what it no longer rings. `retained`: the
   * broker's copy, handed over at subscribe — after a broker restart it may be from before a stop the
   * owner could not yet publish, so it rings nothing new (`ask`: the owner is to be asked for its word
   * now; an owner not on the broker answers when it is back). Returns, too, the stops said here that
   * it has still not taken (it rings a timer stopped here): to send again.
   */
  peerState(owner: string, state: RingingState | null, retained = false): { again: RingStop[]; ask: boolean } {
    if (owner === this.o.device) return { again: [], ask: false };
    const listed = new Set<number>();
    const entries = new Map<number, RingEntry>();
    for (const r of state?.ringing ?? []) {
      if (r.scope === 'area' && (!this.o.area || r.area !== this.o.area)) continue;
      listed.add(r.id);
      entries.set(r.id, r);
    }
    const had = this.guests.get(owner) ?? new Set<number>();
    const now = new Set<number>();
    let ask = false;
    for (const id of listed) {
      if (had.has(id)) now.add(id);
      else if (this.stoppedHere.has(key(owner, id))) continue;
      else if (retained) ask = true;
      else {
        now.add(id);
        const r = entries.get(id)!;
        this.o.hooks.ringGuest({ device: owner, id }, r.label ?? undefined, { seconds: typeof r.seconds === 'number' ? r.seconds : 0, since: r.since });
      }
    }
    for (const id of had) {
      if (now.has(id)) continue;
      this.stoppedHere.delete(key(owner, id));
      this.o.hooks.endGuest({ device: owner, id });
    }
    // The owner's word that a timer no longer rings is the stop's receipt.
    const again: RingStop[] = [];
    for (const s of this.outboxRows()) {
      if (s.owner !== owner) continue;
      if (listed.has(s.timerId)) {
        again.push({ id: s.timerId, stopId: s.stopId, by: s.by, device: s.device });
        continue;
      }
      this.o.outbox!.settle(owner, s.timerId);
      this.stoppedHere.delete(key(owner, s.timerId));
    }
    if (now.size) this.guests.set(owner, now);
    else this.guests.delete(owner);
    return { again, ask };
  }

  /** The broker is gone: only this device's own timers ring on (the owners' rings come back when each owner says again that they ring). */
  brokerLost(): void {
    for (const [owner, ids] of this.guests) for (const id of ids) this.o.hooks.endGuest({ device: owner, id });
    this.guests.clear();
  }

  /** A guest ring was stopped (or cancelled) here: the stop for its owner, or null if it is not one of the rings this device follows. */
  stoppedAtGuest(from: { device: string; id: number }, by: 'voice' | 'button', stopId: string): RingStop | null {
    if (!this.guests.get(from.device)?.has(from.id)) return null;
    this.stoppedHere.add(key(from.device, from.id));
    const stop: RingStop = { id: from.id, stopId, by, device: this.o.device };
    // Stored before it is sent: a power cut between the word and the broker loses no stop.
    this.o.outbox?.save({ ...stop, owner: from.device, timerId: from.id });
    return stop;
  }

  /** A guest ring gave up here unanswered: not rung again here, nothing sent (the owner gives up on its own). */
  quietHere(from: { device: string; id: number }): void {
    if (this.guests.get(from.device)?.has(from.id)) this.stoppedHere.add(key(from.device, from.id));
  }

  /** A stop for one of this device's timers: true when it stopped it (recorded once; a stop id seen before does nothing). */
  stopArrived(stop: RingStop): boolean {
    if (this.seen.includes(stop.stopId)) return false;
    this.seen.push(stop.stopId);
    if (this.seen.length > SEEN_STOPS) this.seen.shift();
    return this.o.hooks.stopOwn(stop.id, stop.by, stop.device);
  }

  /** When an own timer began ringing, by wall time, kept while it rings. */
  ringingSince(id: number, wallMs: number): string {
    let s = this.since.get(id);
    if (!s) this.since.set(id, (s = new Date(wallMs).toISOString()));
    return s;
  }

  /** Forget the start times of own timers that no longer ring. */
  keepSince(ringing: readonly number[]): void {
    for (const id of this.since.keys()) if (!ringing.includes(id)) this.since.delete(id);
  }
}

function key(owner: string, id: number): string {
  return `${owner}/${id}`;
}
