/**
 * Is the audio loop alive? systemd's watchdog is only fed while it is, so a wedged VAD or a stuck
 * event loop gets hark restarted. A microphone that is unplugged is not a wedged loop: the capture
 * supervisor is already retrying, and restarting hark would not bring the mic back; hark stays up,
 * says so on the LED and the debug page, and keeps feeding the watchdog.
 */
export interface AudioHealth {
  /** Clock time audio was last fully processed (framed, VAD'd, segmented), or null if never. */
  lastProcessedAt: number | null;
  /** What the capture last reported. */
  capture: 'starting' | 'up' | 'down';
  /** Clock time of the last capture state change. */
  captureSince: number;
}

export function audioLoopAlive(h: AudioHealth, now: number, staleMs: number): boolean {
  if (h.capture === 'down') return true;
  if (h.capture === 'starting') return now - h.captureSince < staleMs * 4;
  const last = h.lastProcessedAt ?? h.captureSince;
  return now - last < staleMs;
}
