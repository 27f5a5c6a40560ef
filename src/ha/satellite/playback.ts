import type { Bus } from '../../core/bus.js';
import { errorMessage } from '../../core/errors.js';
import type { Logger } from '../../core/log.js';
import type { Msg } from './proto.js';
import { TIMER_EVENT, type SatelliteHooks } from './voice-api.js';

/** Fetch, decode and play a TTS answer or an announcement; true when it played to its end. */
export async function playUrl(o: { hooks: SatelliteHooks; bus: Bus; log: Logger }, url: string, what: string): Promise<boolean> {
  try {
    const pcm = await o.hooks.media(url);
    const outcome = await o.hooks.play(pcm, `[Home Assistant ${what}]`);
    o.bus.emit('ha.satellite.played', { what, url, samples: pcm.length, outcome });
    return outcome === 'ended';
  } catch (err) {
    o.log.warn(`ha satellite: cannot play the ${what}`, { url, error: errorMessage(err) });
    o.hooks.earcon('error');
    return false;
  }
}

/** A Home Assistant timer's event; a finished one rings as one of hark's own. */
export function timerEvent(o: { hooks: SatelliteHooks; bus: Bus }, msg: Msg): void {
  const event = TIMER_EVENT[Number(msg.eventType)] ?? 'unknown';
  const name = String(msg.name ?? '') || undefined;
  o.bus.emit('ha.satellite.timer', {
    event,
    id: String(msg.timerId ?? ''),
    name: name ?? null,
    totalSeconds: Number(msg.totalSeconds ?? 0),
    secondsLeft: Number(msg.secondsLeft ?? 0),
  });
  if (event === 'finished') o.hooks.ring(name);
}

/**
 * A VoiceAssistantAnnounceRequest's sound: the pre-announcement (a chime) if any, then the
 * announcement itself. True when the announcement played to its end; none to play is logged.
 */
export async function playAnnouncement(o: { hooks: SatelliteHooks; bus: Bus; log: Logger }, msg: Msg): Promise<boolean> {
  const url = String(msg.mediaId ?? '');
  if (msg.preannounceMediaId) await playUrl(o, String(msg.preannounceMediaId), 'pre-announcement');
  if (url) return playUrl(o, url, 'announcement');
  o.log.warn('ha satellite: an announcement with no media', { text: msg.text ?? '' });
  return false;
}
