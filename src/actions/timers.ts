import type { Clock, TimerHandle } from '../core/clock.js';
import { sayDuration } from '../intent/duration.js';
import type { EffectSink } from '../router/effects.js';
import { plural } from '../router/frame.js';

/**
 * Kitchen timers on the injected clock. Several may run at once; a label tells them apart ("the
 * pasta timer"). Setting a labelled timer that already runs restarts it rather than adding a twin.
 * When one rings, `onDone` is called (the core turns it into a timer.done action, which speaks).
 */
export interface KitchenTimer {
  id: number;
  label?: string;
  seconds: number;
  dueAtMs: number;
}

export class KitchenTimers {
  private readonly running = new Map<number, KitchenTimer & { handle: TimerHandle }>();
  private nextId = 1;

  constructor(private readonly opts: { clock: Clock; emit: EffectSink; onDone: (t: KitchenTimer) => void }) {}

  list(): KitchenTimer[] {
    return [...this.running.values()].map(({ handle: _h, ...t }) => t).sort((a, b) => a.dueAtMs - b.dueAtMs);
  }

  set(seconds: number, label?: string): KitchenTimer {
    const { clock, emit } = this.opts;
    let restarted = false;
    if (label) {
      for (const t of this.running.values()) {
        if (t.label === label) {
          this.remove(t.id, false);
          restarted = true;
        }
      }
    }
    const id = this.nextId++;
    const dueAtMs = clock.now() + seconds * 1000;
    const handle = clock.setTimer(seconds * 1000, () => this.ring(id));
    const timer = { id, seconds, dueAtMs, ...(label ? { label } : {}) };
    this.running.set(id, { ...timer, handle });
    emit({ type: 'timer', event: 'set', ...timer });
    const name = label ? `${capitalise(label)} timer` : 'Timer';
    emit({ type: 'speak', text: `${name} ${restarted ? 'restarted' : 'set'} for ${sayDuration(seconds)}.` });
    return timer;
  }

  /** Cancel by label, all, or (neither) the most recently set one. */
  cancel(opts: { label?: string; all?: boolean }): void {
    const { emit } = this.opts;
    const all = [...this.running.values()];
    if (all.length === 0) {
      emit({ type: 'speak', text: 'There is no timer running.' });
      return;
    }
    let chosen: typeof all;
    if (opts.all) chosen = all;
    else if (opts.label) {
      chosen = all.filter((t) => t.label === opts.label);
      if (!chosen.length) {
        emit({ type: 'speak', text: `There is no ${opts.label} timer.` });
        return;
      }
    } else chosen = [all.reduce((a, b) => (b.id > a.id ? b : a))];
    for (const t of chosen) this.remove(t.id, true);
    const left = this.running.size;
    const what = chosen.length > 1 ? `Cancelled ${plural(chosen.length, 'timer')}.` : `Cancelled the ${describe(chosen[0]!)}.`;
    emit({ type: 'speak', text: left ? `${what} ${plural(left, 'timer')} still running.` : what });
  }

  status(label?: string): void {
    const { clock, emit } = this.opts;
    let timers = this.list();
    if (label) timers = timers.filter((t) => t.label === label);
    if (!timers.length) {
      emit({ type: 'speak', text: label ? `There is no ${label} timer.` : 'No timers are running.' });
      return;
    }
    const left = (t: KitchenTimer) => sayDuration(Math.ceil((t.dueAtMs - clock.now()) / 1000));
    if (timers.length === 1) {
      const t = timers[0]!;
      emit({ type: 'speak', text: `${left(t)} left${t.label ? ` on the ${t.label} timer` : ''}.` });
      return;
    }
    emit({ type: 'speak', text: timers.map((t) => `${t.label ? capitalise(t.label) : describe(t)}: ${left(t)}`).join('. ') + '.' });
  }

  dispose(): void {
    for (const t of this.running.values()) this.opts.clock.clearTimer(t.handle);
    this.running.clear();
  }

  private remove(id: number, announce: boolean): void {
    const t = this.running.get(id);
    if (!t) return;
    this.opts.clock.clearTimer(t.handle);
    this.running.delete(id);
    if (announce) {
      const { handle: _h, ...rest } = t;
      this.opts.emit({ type: 'timer', event: 'cancelled', ...rest });
    }
  }

  private ring(id: number): void {
    const t = this.running.get(id);
    if (!t) return;
    this.running.delete(id);
    const { handle: _h, ...rest } = t;
    this.opts.emit({ type: 'timer', event: 'done', ...rest });
    this.opts.onDone(rest);
  }
}

function describe(t: KitchenTimer): string {
  return t.label ? `${t.label} timer` : `${sayDuration(t.seconds)} timer`;
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
