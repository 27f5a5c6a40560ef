/**
 * What waits while the broker is away (pure): at most `max` messages; when full the oldest is
 * dropped and counted, so a long outage costs the oldest events, never memory or the newest.
 */
export interface Outgoing {
  topic: string;
  payload: string;
  retain: boolean;
}

export class BoundedQueue {
  private items: Outgoing[] = [];
  dropped = 0;
  constructor(private readonly max: number) {}
  push(m: Outgoing): void {
    // A retained state message replaces an older one on the same topic: only the latest matters.
    if (m.retain) this.items = this.items.filter((i) => !(i.retain && i.topic === m.topic));
    this.items.push(m);
    while (this.items.length > this.max) {
      this.items.shift();
      this.dropped++;
    }
  }
  /** Everything queued, oldest first; the queue is then empty. */
  take(): Outgoing[] {
    const out = this.items;
    this.items = [];
    return out;
  }
  get size(): number {
    return this.items.length;
  }
}
