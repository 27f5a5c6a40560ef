import { IdleFrame, type VerbContext } from '../frame.js';

/**
 * The voice picker: only voice names and cancel are valid. It closes itself after a quiet spell
 * (default 15 s): an exclusive frame nobody answers would otherwise leave hark deaf to "computer".
 */
export class VoiceFrame extends IdleFrame {
  override refusal(): string | null {
    return this.host.voices().length ? null : this.reply('voice.none');
  }

  override enter(): void {
    const names = this.host
      .voices()
      .slice(0, 6)
      .map((v) => v.say[0] ?? v.id);
    this.say('voice.which', { voices: names.join(', ') });
    super.enter();
  }

  protected idleMs(): number {
    return this.spec.timeoutMs ?? 15_000;
  }

  protected idle(): void {
    this.say('voice.unchanged');
    this.host.pop(this);
  }

  override op(op: string, ctx: VerbContext): void {
    if (op !== 'set-voice') return super.op(op, ctx);
    const id = ctx.slots.value;
    if (!id) return;
    this.host.emit({ type: 'action', name: 'voice.set', args: { voice: id } });
    this.say('voice.set', { voice: ctx.slots.match ?? id });
  }
}
