import type { EffectSink } from '../../../core/effects.js';
import type { Delivery, Target } from './target.js';

/** Reads submitted text back aloud (a "what did I just say" target, and handy on the bench). */
export class SpeakTarget implements Target {
  readonly type = 'speak';
  constructor(
    readonly name: string,
    private readonly emit: EffectSink,
  ) {}
  describe(): string {
    return 'speak';
  }
  async deliver(d: Delivery): Promise<string | undefined> {
    const text = d.kind === 'submit' ? d.text : `${d.action} ${JSON.stringify(d.args ?? {})}`;
    if (text) this.emit({ type: 'speak', text });
    return undefined;
  }
}
