// What the viewer page and /healthz show of the daemon's insides (the daemon fills them; `hark viewer` has none).

/** One Wyoming server as its `describe` → `info` answered at start (answered: false when it could not be asked). */
export interface WyomingServerView {
  server: string;
  answered: boolean;
  error: string | null;
}

/** What /healthz and the page show of the speech services: each engine in the order asked, and the voice. */
export interface SpeechServicesView {
  engines: { id: string; missing: string | null; wyoming: (WyomingServerView & { models: string[]; streams: boolean }) | null }[];
  voice: (WyomingServerView & { voice: string; voices: string[] }) | null;
  /** The echo canceller now, with the two clocks' skew (docs/echo.md); null: none in force. */
  echo?: EchoView | null;
}

/** The echo canceller as the page and /healthz show it. */
export interface EchoView {
  state: string;
  delayMs: number;
  erleDb: number;
  /** The speaker's clock against the microphone's (ppm), its standard error, and what the reference is resampled by. */
  skewPpm: number | null;
  skewErrorPpm: number | null;
  followedPpm: number;
  captureVsClockPpm: number | null;
  /** A skew past what can be followed, in words with the fix (null: none). */
  problem: string | null;
}

/**
 * What /healthz, /api/kitchen and the page show of the kitchen: timers with their time left, the lists.
 * A ringing timer: how long it has rung; `from`, the device that owns it when it rings here for its
 * area; `ringsOn`, where one of this device's rings (device, area, site; absent without the fleet).
 */
export interface KitchenView {
  timers: {
    id: number;
    label: string | null;
    seconds: number;
    state: string;
    leftSeconds: number;
    command: string | null;
    ringingSeconds?: number | null;
    from?: string | null;
    ringsOn?: string;
  }[];
  lists: { name: string; items: { item: string; quantity: number | null; unit: string | null; note: string | null }[] }[];
}
