import { EventEmitter } from 'node:events';

/**
 * Every event in hark, by name. Each subsystem adds its own events by augmenting this interface
 * next to the code that emits them:
 *
 *   declare module '../core/bus.js' { interface HarkEvents { 'capture.up': { device: string } } }
 *
 * so the bus stays one typed vocabulary without one file that every change has to touch.
 */
export interface HarkEvents {
  'bus.listener-error': { event: string; error: unknown };
}

export type HarkEventName = keyof HarkEvents & string;

/**
 * The one event bus. Listeners (the store, the debug page, the LED) are never in the hot path:
 * a listener that throws is reported on 'bus.listener-error' and does not stop the others.
 */
export class Bus {
  private readonly emitter = new EventEmitter();
  constructor() {
    this.emitter.setMaxListeners(100);
  }
  on<K extends HarkEventName>(name: K, fn: (payload: HarkEvents[K]) => void): () => void {
    const wrapped = (payload: HarkEvents[K]) => {
      try {
        fn(payload);
      } catch (err) {
        if (name !== ('bus.listener-error' as string)) this.emitter.emit('bus.listener-error', { event: name, error: err });
      }
    };
    this.emitter.on(name, wrapped);
    return () => this.emitter.off(name, wrapped);
  }
  /** Listen to every event (the JSON printer, the SSE stream). */
  onAny(fn: (name: HarkEventName, payload: unknown) => void): () => void {
    this.anyListeners.add(fn);
    return () => this.anyListeners.delete(fn);
  }
  private readonly anyListeners = new Set<(name: HarkEventName, payload: unknown) => void>();
  emit<K extends HarkEventName>(name: K, payload: HarkEvents[K]): void {
    // Recorders (the JSON printer, SSE) hear an event before any named listener can react to it by
    // emitting another, so what they print is in cause-then-effect order.
    for (const fn of this.anyListeners) {
      try {
        fn(name, payload);
      } catch (err) {
        this.emitter.emit('bus.listener-error', { event: name, error: err });
      }
    }
    this.emitter.emit(name, payload);
  }
}
