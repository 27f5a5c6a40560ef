import { Frame, type VerbContext } from '../frame.js';

/**
 * Raw dictation (the escape mode): everything is content, verbatim, until the exit phrase.
 * Command words and repeats ("cancel", "zero zero zero") are kept as said; no silence timer.
 * The ways out are rules like any other (defaults.ts): the exit phrase heard tolerantly (a `near`
 * rule) and a button tap (a `button` rule), both `submit, pop`; CommandRouter.abort() drops it.
 * Why: docs/decisions.md#dictation-everything-is-content-until-the-exit-phrase.
 */
export class DictationFrame extends Frame {
  private parts: string[] = [];
  private ids: string[] = [];

  override enter(): void {
    // Kept short: the person starts dictating right away, and a long prompt talks over (and, through
    // the echo gate, muffles) their first words. The tap is in the README and in the "Still dictating" hint.
    this.say('dictation.start');
  }

  override holds(): boolean {
    return this.parts.length > 0;
  }

  override op(op: string, ctx: VerbContext): void {
    switch (op) {
      case 'append':
        // The utterance text itself, not the normalised form: case, punctuation and repeats stay.
        this.parts.push(ctx.utterance.text.trim());
        this.ids.push(ctx.utterance.id);
        return;
      case 'submit':
        if (!this.parts.length) return this.say('dictation.nothing');
        this.host.emit({
          type: 'submit',
          frame: this.name,
          target: this.spec.target ?? 'file',
          text: this.parts.join(' '),
          utteranceIds: this.ids,
          ...this.host.languageTag(this.lang),
        });
        this.host.emit({ type: 'earcon', name: 'sent' });
        this.parts = [];
        this.ids = [];
        return;
      case 'read-back':
        return this.parts.length ? this.speak(this.parts.join(' '), { answer: true }) : this.say('query.nothing_yet', {}, { answer: true });
      default:
        return super.op(op, ctx);
    }
  }
}
