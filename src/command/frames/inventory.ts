import { Frame, type VerbContext } from '../frame.js';

/**
 * Inventory capture: each utterance is an item, kept through pauses of any length
 * (a picker walks between shelves); "save" writes them all to the inventory target at once.
 */
export class InventoryFrame extends Frame {
  private items: string[] = [];
  private ids: string[] = [];

  override enter(): void {
    this.say('inventory.start');
  }

  override holds(): boolean {
    return this.items.length > 0;
  }

  override op(op: string, ctx: VerbContext): void {
    switch (op) {
      case 'append': {
        // Engines end sentences with a full stop; an item label does not have one.
        const item = ctx.said.original.replace(/[.!?,;]+$/, '').trim();
        this.items.push(item);
        this.ids.push(ctx.utterance.id);
        this.host.emit({ type: 'earcon', name: 'item' });
        return;
      }
      case 'undo': {
        const removed = this.items.pop();
        this.ids.pop();
        return removed === undefined ? this.say('inventory.nothing_to_undo') : this.say('inventory.removed', { item: removed });
      }
      case 'read-back':
        return this.items.length
          ? this.say('inventory.items', { count: this.items.length, items: this.items.join(', ') }, { answer: true })
          : this.say('inventory.none', {}, { answer: true });
      case 'save': {
        if (!this.items.length) return this.say('inventory.nothing_to_save');
        const n = this.items.length;
        this.host.emit({
          type: 'submit',
          frame: this.name,
          target: this.spec.target ?? 'inventory',
          text: this.items.join('\n'),
          items: this.items,
          utteranceIds: this.ids,
          ...this.host.languageTag(this.lang),
        });
        this.items = [];
        this.ids = [];
        return this.say('inventory.saved', { count: n });
      }
      case 'discard': {
        const n = this.items.length;
        if (n === 0) {
          this.say('inventory.closed');
          return this.host.pop(this);
        }
        return this.host.confirm({
          prompt: this.reply('inventory.discard', { count: n }),
          onYes: () => {
            this.host.pop(this);
            this.say('inventory.discarded', { count: n });
          },
          onNo: () => this.say('inventory.kept', { count: n }),
          ...(this.lang !== undefined ? { lang: this.lang } : {}),
        });
      }
      default:
        return super.op(op, ctx);
    }
  }
}
