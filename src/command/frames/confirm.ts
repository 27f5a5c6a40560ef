import { Frame, type ConfirmRequest, type FrameHost, type VerbContext } from '../frame.js';
import type { CompiledRule } from '../compile.js';
import type { FrameSpec } from '../spec.js';
import { english } from '../../language/pack/english.js';
import type { Language } from '../../language/pack/language.js';

/** The question as said: the response cascade renders it ahead, so it is worded in one place (the pack's confirm.ask). */
export function confirmQuestion(prompt: string, lang: Language = english()): string {
  return lang.reply('confirm.ask', { question: prompt });
}

/**
 * Yes or no. Holds the pending action until answered; no answer within the timeout (default 10 s)
 * discards it and says so. The timer is not restarted by stray speech: only an answer counts.
 */
export class ConfirmFrame extends Frame {
  private settled = false;
  private askedAgain = false;

  constructor(
    name: string,
    spec: FrameSpec,
    rules: readonly CompiledRule[],
    host: FrameHost,
    private readonly request: ConfirmRequest,
  ) {
    super(name, spec, rules, host);
  }

  override enter(): void {
    // In the language the question is asked in (the asking frame's), as are its "¿Sí o no?" and "Cancelado.".
    this.speak(this.reply('confirm.ask', { question: this.request.prompt }));
    this.start();
  }
  override uncover(): void {
    super.uncover();
    this.start();
  }
  private start(): void {
    this.arm(this.spec.timeoutMs ?? 10_000, () => {
      this.settled = true;
      this.say('confirm.no_answer');
      this.host.pop(this);
      this.request.onTimeout?.();
    });
  }

  override op(op: string, ctx: VerbContext): void {
    if (this.settled) return;
    if (op === 'yes') {
      this.settled = true;
      this.disarm();
      return this.request.onYes();
    }
    if (op === 'no') {
      this.settled = true;
      this.disarm();
      if (this.request.onNo) return this.request.onNo();
      return this.say('confirm.cancelled');
    }
    if (op === 'unclear') {
      // Once: a second stray remark is most likely not meant for hark, and repeating the prompt over
      // a kitchen's talk is noise. The timeout still ends the question.
      if (this.askedAgain) {
        this.host.emit({ type: 'ignored', frame: this.name, text: ctx.said.original, reason: 'not a yes or no (already asked "yes or no?")' });
        return;
      }
      this.askedAgain = true;
      return this.say('confirm.unclear');
    }
    return super.op(op, ctx);
  }
}
