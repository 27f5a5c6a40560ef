/**
 * Who makes room when every client slot is taken. Pure.
 *
 * ESPHome keeps a fixed number of API clients; eight idle TCP connections to port 6053 would keep
 * Home Assistant out for as long as they stay open if the newcomer were the one refused. hark never
 * refuses the newcomer: it lets go of the oldest connection still in its hello or handshake (it has
 * 10 s to finish anyway), or else of the one quiet the longest — never the connection Home
 * Assistant's satellite entity is subscribed on. Home Assistant pings every 20 s (aioesphomeapi
 * KEEP_ALIVE_FREQUENCY), so the connection it is using is never the quiet one.
 */
export interface Slot {
  /** Hello (and, encrypted, the Noise handshake) done. */
  setupDone: boolean;
  /** Clock ms it connected. */
  openedAt: number;
  /** Clock ms of the last frame it sent. */
  lastTrafficAt: number;
  /** Home Assistant's voice-assistant subscription lives on it. */
  subscriber: boolean;
}

export function makeRoom<S extends Slot>(slots: readonly S[]): S | null {
  let pick: S | null = null;
  for (const s of slots) if (!s.setupDone && (!pick || s.openedAt < pick.openedAt)) pick = s;
  if (pick) return pick;
  for (const s of slots) if (!s.subscriber && (!pick || s.lastTrafficAt < pick.lastTrafficAt)) pick = s;
  return pick;
}
