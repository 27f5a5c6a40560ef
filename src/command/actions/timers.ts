import type { Clock, TimerHandle } from '../../core/clock.js';
import { english } from '../../language/pack/english.js';
import type { Language } from '../../language/pack/language.js';
import { ringText, timerName } from '../../language/say.js';
import type { TimerPick } from '../../language/timer-language.js';
import { pickTimers } from '../../language/timer-pick.js';
import type { EffectSink } from '../../core/effects.js';
import {
  ANSWER_MS,
  DEFAULT_TIMER_SETTINGS,
  eventOf,
  plain,
  type KitchenTimer,
  type Live,
  type TimerEvents,
  type TimerKeeper,
  type TimerOp,
  type TimerSettings,
} from './timer-types.js';
import { pausedOrResumedReply, statusReply } from './timer-replies.js';

export type { KitchenTimer, TimerEvents, TimerKeeper, TimerSettings } from './timer-types.js';
export { ANSWER_MS, DEFAULT_TIMER_SETTINGS } from './timer-types.js';
export { ringText };

/**
 * Kitchen timers on the injected clock. Several may run at once; a label tells them apart ("the
 * pasta timer"). Setting a labelled timer that already runs restarts it rather than adding a twin.
 * A due timer rings until someone stops it ("stop", a button tap) or the give-up time passes;
 * several due timers ring in turn. A timer with a `command` does not ring: its words are handed
 * back (`onCommand`) to be handled as if just heard.
 */
export class KitchenTimers {
  private readonly timers = new Map<number, Live>();
  private nextId = 1;
  private ringHandle: TimerHandle | undefined;
  private ringTurn = 0;
  /** The open "Which timer?" question: what to do, and among which timers. */
  private question: { op: TimerOp; bySeconds: number; ids: number[]; atMs: number; code?: string } | undefined;
  private readonly settings: TimerSettings;

  /**
   * `language`: the device's language of a code, the first one for none (what a reply without a
   * request's language, a ring, is said in); English without it.
   */
  constructor(
    private readonly opts: {
      clock: Clock;
      emit: EffectSink;
      settings?: TimerSettings;
      keeper?: TimerKeeper;
      deviceArea?: string;
      language?: (code?: string) => Language;
    } & TimerEvents,
  ) {
    this.settings = opts.settings ?? DEFAULT_TIMER_SETTINGS;
  }

  private lang(code?: string): Language {
    return this.opts.language?.(code) ?? english();
  }

  /** A reply in the language of `code` (the request's, or the timer's); the effect names it when it is not the first. */
  private say(code: string | undefined, text: string, more: { earcon?: 'timer'; ring?: number } = {}): void {
    this.opts.emit({ type: 'speak', text, ...more, ...(code ? { lang: code } : {}) });
  }

  list(): KitchenTimer[] {
    return [...this.timers.values()].map(plain).sort((a, b) => this.leftMs(a) - this.leftMs(b));
  }

  /** hark asked "Which timer?" and the answer may still come. */
  get asking(): boolean {
    return this.question !== undefined && this.opts.clock.now() - this.question.atMs <= ANSWER_MS;
  }

  /**
   * What the debug page and /healthz show: each timer with its state and whole seconds left; a ringing
   * one, how long it has rung, and `from`, the device that owns it when it rings here for its area.
   */
  view(): {
    id: number;
    label: string | null;
    seconds: number;
    state: KitchenTimer['state'];
    leftSeconds: number;
    command: string | null;
    ringingSeconds: number | null;
    from: string | null;
  }[] {
    const now = this.opts.clock.now();
    return this.list().map((t) => {
      const since = this.timers.get(t.id)?.ringingSince;
      const ringingSeconds = t.state === 'ringing' && since !== undefined ? Math.floor((now - since) / 1000) : null;
      return {
        id: t.id,
        label: t.label ?? null,
        seconds: t.seconds,
        state: t.state,
        leftSeconds: Math.max(0, Math.ceil(this.leftMs(t) / 1000)),
        command: t.command ?? null,
        ringingSeconds,
        from: t.from?.device ?? null,
      };
    });
  }

  get ringing(): boolean {
    return [...this.timers.values()].some((t) => t.state === 'ringing');
  }

  set(seconds: number, label?: string, command?: string, code?: string): KitchenTimer {
    const { emit } = this.opts;
    const lang = this.lang(code);
    let restarted = false;
    if (label) {
      for (const t of this.timers.values()) {
        if (t.label === label && t.state !== 'ringing') {
          this.drop(t.id);
          restarted = true;
        }
      }
    }
    const id = this.nextId++;
    const t: Live = {
      id,
      seconds,
      dueAtMs: this.opts.clock.now() + seconds * 1000,
      state: 'running',
      ...(label ? { label } : {}),
      ...(command ? { command } : {}),
      ...(code ? { lang: code } : {}),
    };
    this.timers.set(id, t);
    this.arm(t);
    this.opts.keeper?.save(plain(t));
    emit({ type: 'timer', event: 'set', ...eventOf(t) });
    const duration = lang.durations.say(seconds);
    if (command) this.say(code, lang.reply('timer.later', { duration, command }));
    else this.say(code, lang.reply(restarted ? 'timer.restarted' : 'timer.set', { name: label, duration }));
    return plain(t);
  }

  /**
   * A timer kept elsewhere (Home Assistant's, for the Assist satellite) is done: it rings here as
   * one of hark's own — the same ring, the same "stop" and tap, the same give-up — with no "set" said.
   */
  ringNow(label?: string): KitchenTimer {
    const id = this.nextId++;
    const t: Live = { id, seconds: 0, dueAtMs: this.opts.clock.now(), state: 'running', ...(label ? { label } : {}) };
    this.timers.set(id, t);
    this.due(id, 0);
    return plain(t);
  }

  /**
   * Another device's timer rings here for its area, by its name, as one of hark's own ("stop", a tap,
   * the give-up). Once per timer: the owner's state comes again at every reconnect.
   */
  ringGuest(from: { device: string; id: number }, label?: string, ring?: { seconds: number; rungMs: number }): void {
    if (this.guest(from)) return;
    // It is the owner's ring: it gives up when the owner's does, and one the owner has given up on by now is not begun.
    const rungMs = Math.max(0, ring?.rungMs ?? 0);
    if (rungMs >= this.settings.giveUpMs) return;
    const id = this.nextId++;
    this.timers.set(id, { id, seconds: ring?.seconds ?? 0, dueAtMs: this.opts.clock.now(), state: 'running', from: { ...from }, ...(label ? { label } : {}) });
    this.due(id, 0, rungMs);
  }

  /** The owner says its timer no longer rings (stopped there or elsewhere, gave up), or the broker is gone: quiet here. */
  endGuest(from: { device: string; id: number }): void {
    const t = this.guest(from);
    if (t) this.finish(t, 'ended');
  }

  /** One of this device's own ringing timers, stopped at another device of its area (`at`). False when it no longer rings. */
  stopOwn(id: number, by: 'voice' | 'button', at: string): boolean {
    const t = this.timers.get(id);
    if (!t || t.state !== 'ringing' || t.from) return false;
    this.finish(t, 'stopped', by, at);
    if (!this.ringing) this.opts.emit({ type: 'stop-speaking' });
    return true;
  }

  private guest(from: { device: string; id: number }): Live | undefined {
    return [...this.timers.values()].find((t) => t.from?.device === from.device && t.from.id === from.id);
  }

  /** Cancel, pause, resume, add or take off time, or say how long is left, on the picked timers. */
  act(op: TimerOp, pick: TimerPick, all: boolean, bySeconds = 0, only?: readonly number[], code?: string): void {
    const { emit } = this.opts;
    const lang = this.lang(code);
    const say = (text: string) => this.say(code, text);
    const left = (t: Live) => lang.durations.say(Math.ceil(this.leftMs(t) / 1000));
    this.question = undefined;
    const candidates = [...this.timers.values()].filter((t) => (op === 'cancel' || t.state !== 'ringing') && (!only || only.includes(t.id)));
    const r = pickTimers(candidates, pick, { op, all, ...(this.opts.deviceArea ? { deviceArea: this.opts.deviceArea } : {}) }, lang);
    if ('say' in r) {
      say(r.say);
      if (r.ask) this.question = { op, bySeconds, ids: r.ask.map((t) => t.id), atMs: this.opts.clock.now(), ...(code ? { code } : {}) };
      return;
    }
    const chosen = r.timers.sort((a, b) => this.leftMs(a) - this.leftMs(b));
    switch (op) {
      case 'status':
        return say(statusReply(chosen, lang, (t) => this.leftMs(t)));
      case 'cancel': {
        for (const t of chosen) this.finish(t, 'cancelled');
        const running = [...this.timers.values()].filter((t) => t.state !== 'ringing').length;
        const what =
          chosen.length > 1
            ? lang.reply('timer.cancelled_many', { count: chosen.length })
            : lang.reply('timer.cancelled', { timer: timerName(chosen[0]!, lang) });
        say(running ? `${what} ${lang.reply('timer.still_running', { count: running })}` : what);
        return;
      }
      case 'pause':
        for (const t of chosen) {
          t.remainingMs = this.leftMs(t);
          this.disarm(t);
          t.state = 'paused';
          this.opts.keeper?.save(plain(t));
          emit({ type: 'timer', event: 'paused', ...eventOf(t) });
        }
        say(pausedOrResumedReply('paused', chosen, lang, (t) => this.leftMs(t)));
        return;
      case 'resume':
        for (const t of chosen) {
          t.dueAtMs = this.opts.clock.now() + (t.remainingMs ?? 0);
          delete t.remainingMs;
          t.state = 'running';
          this.arm(t);
          this.opts.keeper?.save(plain(t));
          emit({ type: 'timer', event: 'resumed', ...eventOf(t) });
        }
        say(pausedOrResumedReply('resumed', chosen, lang, (t) => this.leftMs(t)));
        return;
      case 'add':
      case 'remove': {
        const t = chosen[0]!;
        const delta = (op === 'add' ? 1 : -1) * bySeconds * 1000;
        if (t.state === 'paused') t.remainingMs = Math.max(0, (t.remainingMs ?? 0) + delta);
        else {
          // More taken off than it has left: what is left is zero, so it is due now (as Home Assistant keeps it).
          t.dueAtMs = Math.max(this.opts.clock.now(), t.dueAtMs + delta);
          this.disarm(t);
          this.arm(t);
        }
        this.opts.keeper?.save(plain(t));
        emit({ type: 'timer', event: 'changed', ...eventOf(t), bySeconds: delta / 1000 });
        const args = { by: lang.durations.say(bySeconds), timer: timerName(t, lang), left: left(t) };
        const key = op === 'add' ? 'timer.added' : 'timer.taken';
        say(lang.reply(this.leftMs(t) > 0 ? key : `${key}_done`, args));
        return;
      }
    }
  }

  /**
   * The answer to "Which timer: ...?" ("the pizza one", "the 5 minute timer", "both"), taken without
   * the wake word within ANSWER_MS of the question. False when there is no open question or the
   * words do not pick among the timers it offered (they are then handled as anything else).
   */
  answer(pick: TimerPick | 'all'): boolean {
    const q = this.question;
    if (!q || this.opts.clock.now() - q.atMs > ANSWER_MS) return false;
    const offered = [...this.timers.values()].filter((t) => q.ids.includes(t.id));
    if (pick !== 'all' && 'say' in pickTimers(offered, pick, { op: q.op, all: false })) return false;
    this.act(q.op, pick === 'all' ? {} : pick, pick === 'all', q.bySeconds, q.ids, q.code);
    return true;
  }

  /**
   * Silence what rings now ("stop", "ok", "thanks", a tap). False when nothing rings, so the
   * caller keeps its own meaning for the word or the tap.
   */
  stopRinging(by: 'voice' | 'button'): boolean {
    const ringing = [...this.timers.values()].filter((t) => t.state === 'ringing');
    if (!ringing.length) return false;
    for (const t of ringing) this.finish(t, 'stopped', by);
    this.opts.emit({ type: 'stop-speaking' });
    return true;
  }

  /**
   * Timers kept from before a restart, in this clock's time. A running one already past due rings
   * now, saying how long ago it went off; a delayed command that came due while hark was off is
   * not run late, only reported.
   */
  restore(kept: readonly KitchenTimer[]): void {
    const now = this.opts.clock.now();
    for (const k of kept) {
      this.nextId = Math.max(this.nextId, k.id + 1);
      const t: Live = { ...k };
      this.timers.set(t.id, t);
      this.opts.emit({ type: 'timer', event: 'restored', ...eventOf(t) });
      if (t.state === 'paused') continue;
      if (t.dueAtMs > now && t.state === 'running') this.arm(t);
      else if (t.command !== undefined) {
        this.drop(t.id);
        this.say(t.lang, this.lang(t.lang).reply('timer.missed_command', { command: t.command }));
      } else {
        t.state = 'running';
        this.due(t.id, now - t.dueAtMs);
      }
    }
  }

  dispose(): void {
    for (const t of this.timers.values()) this.disarm(t);
    if (this.ringHandle) this.opts.clock.clearTimer(this.ringHandle);
    this.ringHandle = undefined;
    this.timers.clear();
  }

  private leftMs(t: KitchenTimer): number {
    return t.state === 'paused' ? (t.remainingMs ?? 0) : t.dueAtMs - this.opts.clock.now();
  }

  private arm(t: Live): void {
    const id = t.id;
    t.handle = this.opts.clock.setTimer(Math.max(0, t.dueAtMs - this.opts.clock.now()), () => this.due(id, 0));
  }

  private disarm(t: Live): void {
    if (t.handle) this.opts.clock.clearTimer(t.handle);
    delete t.handle;
  }

  /** `rungMs`: how long it has rung already (a guest ring, at its owner): shown so, and given up that much sooner. */
  private due(id: number, lateMs: number, rungMs = 0): void {
    const t = this.timers.get(id);
    if (!t || t.state !== 'running') return;
    this.disarm(t);
    if (t.command !== undefined) {
      this.drop(id);
      this.opts.emit({ type: 'timer', event: 'done', ...eventOf(t) });
      this.opts.onCommand(plain(t));
      return;
    }
    t.state = 'ringing';
    t.ringingSince = this.opts.clock.now() - rungMs;
    t.rung = 0;
    if (!t.from) this.opts.keeper?.save(plain(t));
    this.opts.emit({ type: 'timer', event: 'done', ...eventOf(t) });
    this.opts.onDone(plain(t), lateMs);
    t.handle = this.opts.clock.setTimer(this.settings.giveUpMs - rungMs, () => this.finish(t, 'gave-up'));
    this.ringHandle ??= this.opts.clock.setTimer(this.settings.ringIntervalMs, () => this.ringAgain());
  }

  /** One ring: the next ringing timer in turn, its earcon and its name. */
  private ringAgain(): void {
    this.ringHandle = undefined;
    const ringing = [...this.timers.values()].filter((t) => t.state === 'ringing');
    if (!ringing.length) return;
    const t = ringing[this.ringTurn++ % ringing.length]!;
    t.rung = (t.rung ?? 0) + 1;
    this.say(t.lang, ringText(t.label, 0, this.lang(t.lang)), { earcon: 'timer', ring: t.rung });
    this.ringHandle = this.opts.clock.setTimer(this.settings.ringIntervalMs, () => this.ringAgain());
  }

  private finish(t: Live, event: 'cancelled' | 'stopped' | 'gave-up' | 'ended', by?: 'voice' | 'button', at?: string): void {
    this.drop(t.id);
    this.opts.emit({ type: 'timer', event, ...eventOf(t), ...(by ? { by } : {}), ...(at ? { at } : {}) });
    if (event === 'gave-up') this.opts.onGiveUp?.(plain(t));
    if (!this.ringing && this.ringHandle) {
      this.opts.clock.clearTimer(this.ringHandle);
      this.ringHandle = undefined;
    }
  }

  private drop(id: number): void {
    const t = this.timers.get(id);
    if (!t) return;
    this.disarm(t);
    this.timers.delete(id);
    if (!t.from) this.opts.keeper?.remove(id);
  }
}
