import { IdleFrame, type VerbContext } from '../frame.js';

/**
 * An open question to hark: appends what is said, submits on "go" or after a silence (default
 * 4 s), reads back on request. The silence timer restarts whenever an utterance reaches the frame,
 * so someone still talking (or saying "um") is not cut off.
 */
export class QueryFrame extends IdleFrame {
  private parts: string[] = [];
  private ids: string[] = [];

  override enter(): void {
    this.host.emit({ type: 'earcon', name: 'listening' });
    super.enter();
  }

  protected idleMs(): number {
    return this.spec.silenceMs ?? 4000;
  }

  /** Silence: send what was said, or close quietly if nothing was. */
  protected idle(): void {
    if (this.parts.length) this.submit();
    else this.host.emit({ type: 'earcon', name: 'cancelled' });
    this.host.pop(this);
  }

  get text(): string {
    return this.parts.join(' ');
  }

  private submit(): void {
    if (!this.parts.length) {
      this.say('query.nothing');
      return;
    }
    const target = this.spec.target ?? 'file';
    this.host.emit({ type: 'submit', frame: this.name, target, text: this.text, utteranceIds: this.ids, ...this.host.languageTag(this.lang) });
    this.host.emit({ type: 'earcon', name: 'sent' });
    // Someone asked hark to keep these words: say so in words, not only the earcon.
    const noted = this.woken ? this.host.noted(target, this.lang) : null;
    if (noted) this.host.speak(noted, this.host.languageTag(this.lang));
    this.parts = [];
    this.ids = [];
  }

  override holds(): boolean {
    return this.parts.length > 0;
  }

  override op(op: string, ctx: VerbContext): void {
    switch (op) {
      case 'append':
        this.parts.push(ctx.said.original);
        this.ids.push(ctx.utterance.id);
        return;
      case 'submit':
        return this.submit();
      case 'read-back':
        return this.parts.length ? this.speak(this.text, { answer: true }) : this.say('query.nothing_yet', {}, { answer: true });
      default:
        return super.op(op, ctx);
    }
  }
}
