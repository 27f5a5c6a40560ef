/**
 * Is the audio loop alive? systemd's watchdog is only fed while it is, so a wedged VAD or a stuck
 * event loop gets hark restarted. A microphone that is unplugged (or missing at start) is not a
 * wedged loop: the capture supervisor is retrying, and restarting hark would not bring the mic back;
 * hark stays up, says so on the LED and the debug page, and keeps feeding the watchdog — as long as
 * the supervisor really is retrying: down with no retry scheduled, or a retry long overdue, is wedged.
 */
export interface AudioHealth {
  /** Clock time audio was last fully processed (framed, VAD'd, segmented), or null if never. */
  lastProcessedAt: number | null;
  /** What the capture last reported. */
  capture: 'starting' | 'up' | 'down';
  /** Clock time of the last capture state change. */
  captureSince: number;
  /** While down: the delay the supervisor announced before its next try (null: not retrying). */
  restartInMs?: number | null;
  /** While down: why. */
  downReason?: string;
}

export function audioLoopAlive(h: AudioHealth, now: number, staleMs: number): boolean {
  // A retry spawns the recorder, which either delivers (up) or fails or stalls into the next `down`
  // within the capture watchdog; staleMs of slack on top of the announced delay covers that.
  if (h.capture === 'down') return h.restartInMs != null && now - h.captureSince < h.restartInMs + staleMs;
  if (h.capture === 'starting') return now - h.captureSince < staleMs * 4;
  const last = h.lastProcessedAt ?? h.captureSince;
  return now - last < staleMs;
}
