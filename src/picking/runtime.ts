import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/log.js';
import type { FrameHost } from '../command/frame.js';
import type { CommandRouter } from '../command/router.js';
import { checkAssignment, type Checked, type Assignment } from './assignment.js';
import type { PickingConfig } from './config.js';
import { PickDialogue, type PickEvent } from './dialogue.js';
import { PickingFrame } from './frame.js';
import type { PickLedger } from './ledger.js';
import { wordsOf } from './words.js';

export interface PickingRuntimeOptions {
  config: PickingConfig;
  router: CommandRouter;
  ledger: PickLedger;
  clock: Clock;
  log: Logger;
  /** language.languages: picking speaks the first, and answers a picker in any of them (English when none). */
  languages?: readonly string[];
  /** Every dialogue event (simulate prints them; the outbox sender wakes on a confirmed pick). */
  onEvent?: (e: PickEvent) => void;
  /** How many results wait to be sent, and picking.wms.queueMax: past it, the picker hears a warning. */
  outbox?: { pending(): number; max: number };
}

/** What became of an assignment offered to hark. */
export type Offered = { ok: true; assignment: Assignment; duplicate: boolean } | { ok: false; problems: string[] };

/**
 * Picking on a device: the dialogue and its frame on top of the router's stack, and the door
 * assignments come in by (HTTP, MQTT, simulate). One per device.
 */
export class PickingRuntime {
  readonly dialogue: PickDialogue;
  private readonly listeners: ((e: PickEvent) => void)[] = [];

  constructor(private readonly o: PickingRuntimeOptions) {
    if (o.onEvent) this.listeners.push(o.onEvent);
    const router = o.router;
    const [first, ...others] = wordsOf(o.languages);
    this.dialogue = new PickDialogue({
      words: first!,
      others,
      ledger: o.ledger,
      clock: o.clock,
      operators: o.config.operators,
      rate: o.config.rate,
      out: {
        // Through the router's own host, so hark's voice, the record and simulate all see it.
        // A line in another of the device's languages carries it, so it is spoken with that voice.
        say: (text, rate, language) => this.host?.emit({ type: 'speak', text, rate, ...(language !== first!.language ? { lang: language } : {}) }),
        event: (e) => {
          for (const l of this.listeners) l(e);
        },
      },
    });
    router.openWith((host) => {
      this.host = host;
      return new PickingFrame(host, this.dialogue);
    });
    this.dialogue.start();
    this.listeners.push((e) => e.event === 'confirmed' && this.checkOutbox(true));
    // A restart with the outbox already over its bound is no new crossing: the picker was told.
    this.over = o.outbox ? o.outbox.pending() > o.outbox.max : false;
  }

  /** The outbox is over its bound now; the warning is said once each time it goes over. */
  private over = false;

  /**
   * After each confirmed pick (`grew`, here) and each result sent (the sender's caller): the picker
   * hears the outbox pass its bound once per crossing, not at every pick while the warehouse is away,
   * and only as it grows past it (a result sent never warns).
   */
  checkOutbox(grew = false): void {
    const o = this.o.outbox;
    if (!o) return;
    const pending = o.pending();
    if (pending <= o.max) {
      this.over = false;
      return;
    }
    if (this.over || !grew) return;
    this.over = true;
    this.dialogue.outboxOver(pending, o.max);
  }

  private host: Pick<FrameHost, 'emit'> | undefined;

  onEvent(fn: (e: PickEvent) => void): void {
    this.listeners.push(fn);
  }

  /**
   * An assignment from the warehouse system (parsed JSON): checked, kept, and announced if the
   * picker is free. A malformed one is refused, naming each field, and nothing kept changes; one
   * already kept (a repeat delivery) changes nothing either.
   */
  offer(raw: unknown): Offered {
    const checked: Checked<Assignment> = checkAssignment(raw);
    if (!checked.ok) {
      this.o.log.warn('assignment refused', { problems: checked.problems });
      return checked;
    }
    const added = this.o.ledger.add(checked.value);
    if (added) this.dialogue.assignmentArrived();
    return { ok: true, assignment: checked.value, duplicate: !added };
  }
}
