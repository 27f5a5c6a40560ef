import type { StoreHealth } from '../store/store.js';
import type { Metrics, SttLoad } from './metrics.js';
import type { KitchenView, SpeechServicesView } from './views.js';

/** What /healthz is given: the store's and the metrics' state now, and what the daemon reports. */
export interface HealthInput {
  store: StoreHealth;
  metrics: Pick<Metrics, 'capture' | 'fleet' | 'realTimeFactor'>;
  load: SttLoad | null;
  mode: 'daemon' | 'viewer';
  uptimeS: number;
  timers: KitchenView['timers'];
  speech: SpeechServicesView | null;
  sseClients: number;
}

/**
 * The /healthz answer: 503 while degraded (a full disk, a dead microphone) or starting, 200
 * otherwise, and every problem in words a technician can act on. Pure: the server gathers the
 * state and sends what this returns.
 */
export function healthReport(h: HealthInput): { status: 200 | 503; body: Record<string, unknown> } {
  const { store, metrics, load } = h;
  const problems: string[] = [];
  if (store.audioStorage === 'paused-disk-full') problems.push(`disk full: audio is not being stored (${store.pausedReason})`);
  if (store.reclaimedSegments > 0) problems.push(`disk full: the audio of the ${store.reclaimedSegments} oldest segments was deleted to keep the text rows`);
  if (store.pendingRows > 0) problems.push(`disk full: ${store.pendingRows} rows wait in memory until there is room`);
  if (store.rowsLost > 0) problems.push(`disk full: ${store.rowsLost} rows were lost because the queue of waiting rows was full`);
  if (store.recovered) problems.push(`the database was corrupt at start and was moved to ${store.recovered.movedTo}`);
  if (metrics.capture.state === 'down') problems.push(`microphone down: ${metrics.capture.reason ?? 'unknown reason'}`);
  if (metrics.capture.state === 'starting') problems.push('microphone: no audio yet since it was (re)started');
  // Behind is load, not ill health (hark still acts on push-to-talk and awaited answers first): a
  // notice in problems and `behind: true`, the status stays as it is.
  if (load?.behind)
    problems.push(
      `behind: speech-to-text cannot keep up (${load.depth} waiting, ${load.audioSec} s of audio, the oldest for ${Math.round(load.oldestWaitMs / 1000)} s); segments past stt.queue.maxWaitMs are stored for replay`,
    );
  // The broker away is a notice, not ill health: the device acts alone and queues its events.
  const mqtt = metrics.fleet;
  if (mqtt && mqtt.state !== 'connected')
    problems.push(`mqtt ${mqtt.state}${mqtt.lastError ? `: ${mqtt.lastError}` : ''} (this device acts alone; events wait in a queue)`);
  // Two clocks hark cannot follow: it hears itself while it speaks (a notice, with the fix).
  if (h.speech?.echo?.problem) problems.push(h.speech.echo.problem);
  // Only a full disk or a dead microphone make hark unhealthy; a past corruption is recovered, so it is a notice.
  const starting = metrics.capture.state === 'starting';
  const degraded = store.audioStorage === 'paused-disk-full' || store.pendingRows > 0 || metrics.capture.state === 'down';
  return {
    status: degraded || starting ? 503 : 200,
    body: {
      status: degraded ? 'degraded' : starting ? 'starting' : load?.behind ? 'behind' : 'ok',
      mode: h.mode,
      uptimeS: h.uptimeS,
      problems,
      store,
      capture: metrics.capture,
      mqtt: metrics.fleet,
      behind: load?.behind ?? false,
      stt: load ? { ...load, realTimeFactor: metrics.realTimeFactor() } : null,
      timers: h.timers,
      speech: h.speech,
      sseClients: h.sseClients,
    },
  };
}
