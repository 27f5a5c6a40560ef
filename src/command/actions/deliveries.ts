import { errorMessage } from '../../core/errors.js';
import type { Logger } from '../../core/log.js';
import type { Effect } from '../../core/effects.js';
import { DeliveryError, type Delivery, type Target } from './targets/target.js';
import { english } from '../../language/pack/english.js';
import type { MessageArgs } from '../../language/pack/message.js';

/** Targets that keep words without answering: hark says, in words, that it kept them (and when it could not). */
export const PLAIN_TARGETS: ReadonlySet<string> = new Set(['file', 'webhook']);

/**
 * Handing submissions and forwarded actions to the targets, in flight until each settles: every
 * outcome is an effect (`delivered` or `delivery-failed`), never lost. A submission hark said it
 * kept ("Noted.") that then fails to reach its file or webhook is said too, so nobody believes
 * words went where they did not.
 */
export class Deliveries {
  private readonly inFlight = new Set<Promise<void>>();

  /** `reply`: a reply in the device's first language (English without it). */
  constructor(
    private readonly targets: ReadonlyMap<string, Target>,
    private readonly log: Logger,
    private readonly out: (e: Effect) => void,
    private readonly reply: (key: string, args?: MessageArgs) => string = (k, a) => english().reply(k, a),
  ) {}

  get busy(): boolean {
    return this.inFlight.size > 0;
  }

  async idle(): Promise<void> {
    while (this.inFlight.size) await Promise.all([...this.inFlight]);
  }

  /** True for a target that keeps words without answering (a file, a webhook). */
  plain(name: string): boolean {
    return PLAIN_TARGETS.has(this.targets.get(name)?.type ?? '');
  }

  deliver(name: string, d: Delivery): void {
    const target = this.targets.get(name);
    if (!target) {
      this.out({ type: 'delivery-failed', target: name, kind: d.kind, error: `no target named "${name}"`, attempts: 0 });
      return;
    }
    const p: Promise<void> = target
      .deliver(d)
      .then(
        (detail) => this.out({ type: 'delivered', target: name, kind: d.kind, ...(detail ? { detail } : {}) }),
        (err: unknown) => {
          const attempts = err instanceof DeliveryError ? err.attempts : 1;
          this.log.error('delivery failed', { target: name, error: err });
          this.out({ type: 'delivery-failed', target: name, kind: d.kind, error: errorMessage(err), attempts });
          if (d.kind === 'submit' && PLAIN_TARGETS.has(target.type)) this.out({ type: 'speak', text: this.reply('kept.failed', { target: name }) });
        },
      )
      .finally(() => this.inFlight.delete(p));
    this.inFlight.add(p);
  }
}
