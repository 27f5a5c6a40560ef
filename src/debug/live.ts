import type { Bus } from '../core/bus.js';
import type { Store } from '../store/store.js';
import type { Metrics } from './metrics.js';
import { presentSegment } from './present.js';
import type { SseHub } from './sse.js';
import type { KitchenView } from './views.js';

export interface PageFeed {
  sse: SseHub;
  metrics: Pick<Metrics, 'capture' | 'fleet' | 'realTimeFactor'>;
  store: Pick<Store, 'getSegment' | 'health'>;
  kitchen?: () => KitchenView | null;
}

/**
 * The bus → the viewer pages' event stream: each bus event the page shows becomes one SSE event.
 * Rows are read back only when a page is listening. Returns the unsubscribe.
 */
export function bridgeToPage(bus: Bus, d: PageFeed): () => void {
  /** What the page's "hearing" line shows: the latest stable/raw text and candidate intent of the open segment. */
  let hearing: Record<string, unknown> & { done?: boolean } = { done: true };
  const segmentData = (id: number | null) => {
    const view = id === null ? undefined : d.store.getSegment(id);
    return view ? presentSegment(view) : null;
  };
  return bus.onAny((name, payload) => {
    if (d.sse.size === 0) return;
    const p = payload as Record<string, unknown>;
    switch (name) {
      case 'store.segment':
        d.sse.send('segment', segmentData(p.id as number));
        break;
      case 'store.row':
        d.sse.send(String(p.kind), { kind: p.kind, id: p.id, segmentId: p.segmentId, segment: segmentData(p.segmentId as number | null) });
        break;
      case 'capture.starting':
      case 'capture.up':
      case 'capture.down':
        d.sse.send('capture', d.metrics.capture);
        break;
      case 'fleet.state':
        d.sse.send('mqtt', d.metrics.fleet);
        break;
      case 'stt.queue':
        d.sse.send('stt', { ...(p as object), realTimeFactor: d.metrics.realTimeFactor() });
        break;
      // A timer or a list changed: the page's kitchen line follows.
      case 'router.effect':
        if ((p.type === 'timer' || p.type === 'action') && d.kitchen) d.sse.send('kitchen', d.kitchen());
        break;
      // The open segment as it is being heard (cloud partials), and the page's cue that it closed.
      case 'hearing.update':
      case 'intent.candidate':
        hearing = { ...hearing, ...(p as object), done: false };
        d.sse.send('hearing', hearing);
        break;
      case 'segment.handled':
      case 'segment.dropped':
        if (hearing && !hearing.done) {
          hearing = { done: true };
          d.sse.send('hearing', hearing);
        }
        break;
      case 'store.audio-paused':
      case 'store.audio-resumed':
      case 'store.audio-reclaimed':
      case 'store.row-queued':
      case 'store.write-failed':
      case 'store.corrupt':
        d.sse.send('store', d.store.health());
        break;
    }
  });
}
