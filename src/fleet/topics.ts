/**
 * Every MQTT topic hark uses, built in one place (pure). Per device:
 *   <prefix>/<device>/availability            online | offline (retained; the broker's last will)
 *   <prefix>/<device>/event/<type>            JSON events (not retained)
 *   <prefix>/<device>/state/<name>            JSON state a dashboard shows now (retained)
 *   <prefix>/<device>/cmd/<verb>              commands in
 * Per room: <prefix>/room/<room>/cmd/<verb> (commands to every device there) and
 * <prefix>/room/<room>/claim (arbitration: who heard a command best).
 */
export const VERBS = ['say', 'utterance', 'timer', 'mode'] as const;
export type Verb = (typeof VERBS)[number];

export interface TopicNames {
  prefix: string;
  device: string;
  room: string;
  discoveryPrefix: string;
}

export class Topics {
  constructor(readonly n: TopicNames) {}
  private get base(): string {
    return `${this.n.prefix}/${this.n.device}`;
  }
  get availability(): string {
    return `${this.base}/availability`;
  }
  event(type: string): string {
    return `${this.base}/event/${type}`;
  }
  state(name: string): string {
    return `${this.base}/state/${name}`;
  }
  /** What this device subscribes to for commands (its own, and its room's when it has one). */
  get commandFilters(): string[] {
    const own = `${this.base}/cmd/+`;
    return this.n.room ? [own, `${this.n.prefix}/room/${this.n.room}/cmd/+`] : [own];
  }
  get claim(): string | null {
    return this.n.room ? `${this.n.prefix}/room/${this.n.room}/claim` : null;
  }
  /** Every device's retained state/ringing: the timers each rings beyond itself (site-ring.ts). */
  get peersRinging(): string {
    return `${this.n.prefix}/+/state/ringing`;
  }
  /** The device a state/ringing topic belongs to, or null for any other topic. */
  ringingOwner(topic: string): string | null {
    const m = topic.startsWith(`${this.n.prefix}/`) ? /^([^/]+)\/state\/ringing$/.exec(topic.slice(this.n.prefix.length + 1)) : null;
    return m ? m[1]! : null;
  }
  /** Where a stop said at another device reaches a timer's owner. */
  ringStop(owner = this.n.device): string {
    return `${this.n.prefix}/${owner}/ring/stop`;
  }
  /** Where a device asks a timer's owner to say again what it rings (its retained state may be from before a broker restart). */
  ringAsk(owner = this.n.device): string {
    return `${this.n.prefix}/${owner}/ring/ask`;
  }
  /** Home Assistant announces itself here ("online") after a restart: discovery is sent again. */
  get haStatus(): string {
    return `${this.n.discoveryPrefix}/status`;
  }
  discoveryConfig(component: string, object: string): string {
    return `${this.n.discoveryPrefix}/${component}/${this.n.device}/${object}/config`;
  }

  /** The verb a command topic names and whether it came to the room, or null for any other topic. */
  parseCommand(topic: string): { verb: string; scope: 'device' | 'room' } | null {
    const own = `${this.base}/cmd/`;
    if (topic.startsWith(own) && !topic.slice(own.length).includes('/')) return { verb: topic.slice(own.length), scope: 'device' };
    if (this.n.room) {
      const room = `${this.n.prefix}/room/${this.n.room}/cmd/`;
      if (topic.startsWith(room) && !topic.slice(room.length).includes('/')) return { verb: topic.slice(room.length), scope: 'room' };
    }
    return null;
  }
}
