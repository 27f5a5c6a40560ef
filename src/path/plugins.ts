import type { Utterance } from '../core/utterance.js';
import type { KitchenTimers } from '../command/actions/timers.js';
import type { ListLine } from '../command/lists.js';
import type { Segment } from '../vad/segment.js';

/**
 * The interfaces plug-ins (the fleet, the Home Assistant satellite, the debug page, GPIO) attach
 * through. A plug-in sits above the path and below the daemon: it is handed these, late (the path is
 * built after the plug-ins start), and never reaches into the command core or imports the daemon.
 */

/** Decides whether this device acts on a heard command, or yields to a device that heard it better. */
export interface Arbiter {
  decide(segment: Segment, utterance: Utterance): Promise<{ act: true } | { act: false; to: string }>;
}

/** Sees each closed segment, with its audio (not a cancelled push-to-talk one). */
export interface SegmentWatcher {
  closed(segment: Segment): void;
}

/** The kitchen timers as a plug-in may use them: list, set, act on, ring one now; ring another device's, stop one from another device. */
export type PluginTimers = Pick<KitchenTimers, 'list' | 'view' | 'set' | 'act' | 'ringNow' | 'ringGuest' | 'endGuest' | 'stopOwn'>;

/** The command side's narrow front, for plug-ins and the daemon's buttons. */
export interface PathFront {
  readonly timers: PluginTimers;
  /** The lists as the debug page shows them. */
  lists(): { name: string; items: ListLine[] }[];
  /** A frame above the base waits for words (a query, a confirmation, dictation), or the follow-up window is open. */
  awaitingWords(): boolean;
  /** Words that did not come from the microphone, handled as if heard, after every segment closed before them. */
  heardText(text: string, from: string): Promise<void>;
  /** Drop the open request (a query frame's note): the words went somewhere else (Home Assistant). */
  abortRequest(): void;
  /** A button press over a ringing timer silences it; true when one was ringing. */
  stopRinging(): boolean;
}
