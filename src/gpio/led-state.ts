/**
 * What the status LED shows, decided in one place. Several things can be true at once (muted and
 * the mic unplugged; speaking and awaiting a confirmation); the highest-priority one wins.
 */
export type LedState = 'muted' | 'error' | 'listening' | 'ringing' | 'speaking' | 'thinking' | 'confirm' | 'follow-up' | 'idle';

/**
 * Highest first. Muted beats everything: it is the privacy promise, and muting closes the mic,
 * which must not read as a fault. A fault (mic missing, a failure) beats the rest: hark cannot hear.
 * Listening beats speaking: when the person talks over hark, the LED says hark heard them. A ringing
 * timer beats speaking and thinking: its name is said every few seconds, and the LED keeps saying
 * "a timer rings" between and over them (a cook across the kitchen sees which device it is). The
 * follow-up window (words without the wake word are heard) is the least of them: only above idle.
 */
export const LED_PRIORITY: readonly LedState[] = ['muted', 'error', 'listening', 'ringing', 'speaking', 'thinking', 'confirm', 'follow-up', 'idle'];

export type LedPatternName = 'off' | 'on' | 'heartbeat' | 'double-blip' | 'triple-flash' | 'blink-2hz' | 'blink-0.5hz' | 'blink-8hz';

/** A pattern is a cycle of (level, ms) steps; an empty cycle holds `level`. */
export interface LedPattern {
  name: LedPatternName;
  level: boolean;
  steps: readonly (readonly [boolean, number])[];
}

export const PATTERNS: Record<LedPatternName, LedPattern> = {
  off: { name: 'off', level: false, steps: [] },
  on: { name: 'on', level: true, steps: [] },
  // a 60 ms blip once a second: alive, without lighting up a dark room
  heartbeat: {
    name: 'heartbeat',
    level: false,
    steps: [
      [true, 60],
      [false, 940],
    ],
  },
  // two short blips a second: "still listening, no wake word needed", unlike idle's single blip
  'double-blip': {
    name: 'double-blip',
    level: false,
    steps: [
      [true, 60],
      [false, 120],
      [true, 60],
      [false, 760],
    ],
  },
  // three bright flashes a second, as the ring's earcon beeps three times: unlike any other state's
  'triple-flash': {
    name: 'triple-flash',
    level: false,
    steps: [
      [true, 120],
      [false, 80],
      [true, 120],
      [false, 80],
      [true, 120],
      [false, 480],
    ],
  },
  'blink-2hz': {
    name: 'blink-2hz',
    level: false,
    steps: [
      [true, 250],
      [false, 250],
    ],
  },
  'blink-0.5hz': {
    name: 'blink-0.5hz',
    level: false,
    steps: [
      [true, 1000],
      [false, 1000],
    ],
  },
  // 8 Hz: 62.5 ms halves, in whole ms
  'blink-8hz': {
    name: 'blink-8hz',
    level: false,
    steps: [
      [true, 63],
      [false, 62],
    ],
  },
};

export function patternFor(state: LedState, idle: 'heartbeat' | 'off'): LedPatternName {
  switch (state) {
    case 'muted':
      return 'off';
    case 'error':
      return 'blink-8hz';
    case 'listening':
    case 'speaking':
      return 'on';
    case 'ringing':
      return 'triple-flash';
    case 'thinking':
      return 'blink-2hz';
    case 'confirm':
      return 'blink-0.5hz';
    case 'follow-up':
      return 'double-blip';
    case 'idle':
      return idle === 'heartbeat' ? 'heartbeat' : 'off';
  }
}

export type LedFlag = 'muted' | 'micMissing' | 'errorFlash' | 'listening' | 'ringing' | 'speaking' | 'thinking' | 'confirm' | 'followUp';

/** The state the flags add up to. */
export function ledState(flags: ReadonlySet<LedFlag>): LedState {
  if (flags.has('muted')) return 'muted';
  if (flags.has('micMissing') || flags.has('errorFlash')) return 'error';
  if (flags.has('listening')) return 'listening';
  if (flags.has('ringing')) return 'ringing';
  if (flags.has('speaking')) return 'speaking';
  if (flags.has('thinking')) return 'thinking';
  if (flags.has('confirm')) return 'confirm';
  if (flags.has('followUp')) return 'follow-up';
  return 'idle';
}
