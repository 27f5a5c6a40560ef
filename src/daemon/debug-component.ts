import type { HarkConfig } from '../config/schema.js';
import type { Bus } from '../core/bus.js';
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/log.js';
import type { Secrets } from '../core/secrets.js';
import { debugToken } from '../debug/from-config.js';
import { DebugServer } from '../debug/server.js';
import { speechServicesView } from '../debug/speech-view.js';
import type { Fleet } from '../fleet/client.js';
import type { GpioDriver } from '../gpio/driver.js';
import type { Component } from '../path/lifecycle.js';
import type { SegmentPath } from '../path/segment-path.js';
import type { PickingApi } from '../picking/component.js';
import type { Speech } from '../speech/create.js';
import type { Store } from '../store/store.js';
import type { SttStack } from '../stt/create.js';

/** What the debug page reads of the running daemon: each a getter, since they are built (and go) in turn. */
export interface DebugSources {
  store: () => Store | null;
  path: () => SegmentPath | null;
  fleet: () => Fleet | null;
  stt: () => SttStack | null;
  speech: () => Speech | null;
  gpio: () => GpioDriver | null;
  picking: () => PickingApi | null;
  /** The page's address, once it listens. */
  listening: (url: string) => void;
}

/** The debug page (debug.enabled), on the store's log: started after the store, stopped before it. */
export function debugComponent(o: { config: HarkConfig; secrets: Secrets; bus: Bus; clock: Clock; log: Logger }, from: DebugSources): Component {
  const { config } = o;
  let server: DebugServer | null = null;
  return {
    name: 'debug-server',
    start: async () => {
      const store = from.store();
      if (!config.debug.enabled || !store) return;
      server = new DebugServer({
        store,
        bus: o.bus,
        host: config.debug.host,
        port: config.debug.port,
        token: debugToken(config.debug, o.secrets),
        heartbeatMs: config.debug.heartbeatMs,
        logger: o.log.child({ component: 'debug' }),
        clock: o.clock,
        mode: 'daemon',
        kitchen: () => {
          const front = from.path()?.front();
          const fleet = from.fleet();
          return front
            ? {
                timers: front.timers.view().map((t) => ({ ...t, ...(fleet && !t.from ? { ringsOn: fleet.ringsOn(t.label ?? undefined) } : {}) })),
                lists: front.lists(),
              }
            : null;
        },
        sttLoad: () => from.path()?.load() ?? null,
        picking: () => from.picking(),
        // The engines in order with a Wyoming server's models, and a Wyoming voice's voices.
        speech: () => {
          const stt = from.stt();
          const speech = from.speech();
          return stt || speech?.tts ? speechServicesView(stt?.engines, speech?.tts, speech?.echo?.stage.status) : null;
        },
        // Only a simulated button can be pressed over HTTP; real GPIO answers 404.
        button: (body) => {
          const g = from.gpio() as (GpioDriver & { apply?: (b: unknown) => void }) | null;
          if (!g?.apply) throw new TypeError('the button is real GPIO here; it cannot be pressed over HTTP');
          g.apply(body);
        },
      });
      const url = await server.listen();
      from.listening(url);
      o.bus.emit('debug.listening', { url });
    },
    stop: async () => {
      await server?.close();
      server = null;
    },
  };
}
