import { itemKey } from '../language/items.js';
import type { ListItemInput, ListItemView, RowLink } from '../store/records.js';

/**
 * The lists confirmed intents change (order list, prep list, inventory counts, issues). The store
 * keeps them as a log of operations (add, remove, set), never edited in place, so a list can be
 * rebuilt as of any moment and nothing a person confirmed is ever overwritten; `foldList` turns the
 * log into what is on the list now. Pure.
 */
export interface ListLine {
  item: string;
  quantity: number | null;
  unit: string | null;
  note: string | null;
}

export type ListOp = Pick<ListItemView, 'item' | 'quantity' | 'unit' | 'op' | 'note'>;

/** "the Milk " and "milk", "lemon" and "lemons" are one line on a list (src/language/items.ts). */
export { itemKey };

export function foldList(ops: readonly ListOp[]): ListLine[] {
  const lines = new Map<string, ListLine>();
  for (const op of ops) {
    const key = itemKey(op.item);
    const have = lines.get(key);
    if (op.op === 'remove') {
      lines.delete(key);
    } else if (op.op === 'set' || !have) {
      // A count replaces what was there (keeping its place); an add after a remove is a new line.
      lines.set(key, { item: op.item, quantity: op.quantity, unit: op.unit, note: op.note });
    } else {
      const q = have.quantity === null && op.quantity === null ? null : (have.quantity ?? 0) + (op.quantity ?? 0);
      lines.set(key, { item: have.item, quantity: q, unit: op.unit ?? have.unit, note: op.note ?? have.note });
    }
  }
  return [...lines.values()];
}

/** Where lists live: SQLite on the appliance, memory in `hark simulate`. */
export interface ListBook {
  /** One line for people: "SQLite /var/lib/hark/hark.db" or "in memory". */
  describe(): string;
  record(op: ListItemInput & RowLink): void;
  lines(list: string): ListLine[];
  /** Every list that has ever had a line, for the debug page and the lists API. */
  names(): string[];
}

/** The SQLite store (Store satisfies this). */
export interface ListStore {
  readonly path: string;
  addListItem(l: ListItemInput & RowLink): number | null;
  listItems(list?: string): ListItemView[];
}

export class StoreListBook implements ListBook {
  constructor(private readonly store: ListStore) {}
  describe(): string {
    return `SQLite ${this.store.path}`;
  }
  record(op: ListItemInput & RowLink): void {
    // The store never throws for SQLite trouble (it logs and reports on the bus); a null id is a
    // failed write, which the store has already reported.
    this.store.addListItem(op);
  }
  lines(list: string): ListLine[] {
    return foldList(this.store.listItems(list).map((r) => ({ item: r.item, quantity: r.quantity, unit: r.unit, op: r.op, note: r.note })));
  }
  names(): string[] {
    return [...new Set(this.store.listItems().map((r) => r.list))].sort();
  }
}

/** Lists that last as long as the process: `hark simulate`, which has no store. */
export class MemoryListBook implements ListBook {
  private readonly ops: (ListOp & { list: string })[] = [];
  describe(): string {
    return 'in memory (simulate has no store; nothing is kept after it ends)';
  }
  record(op: ListItemInput & RowLink): void {
    this.ops.push({ list: op.list, item: op.item, quantity: op.quantity ?? null, unit: op.unit ?? null, op: op.op ?? 'add', note: op.note ?? null });
  }
  lines(list: string): ListLine[] {
    return foldList(this.ops.filter((o) => o.list === list));
  }
  names(): string[] {
    return [...new Set(this.ops.map((o) => o.list))].sort();
  }
}
