import type { Clock, TimerHandle } from '../core/clock.js';
import { errorMessage } from '../core/errors.js';
import { IgnoreMatcher, words } from './ignore-list.js';

export type FilterAction = 'allow' | 'filter' | 'pending';

export interface FilterDecision {
  /** allow: the person has the floor (hark stops if it was speaking); filter: a backchannel, hark goes on; pending: wait for the final transcript. */
  action: FilterAction;
  reason: string;
  text: string;
  /** Whether hark was speaking when this was decided: only then is it an interruption decision. */
  speaking: boolean;
  /** Was the text a final transcript. */
  final: boolean;
  /** 1 for a rule's decision, 0 for a fallback (an error, a timeout). */
  confidence: number;
  /** The utterance this decision is about, when the caller named one. */
  utteranceId?: string;
}

export interface InterruptionSettings {
  enabled: boolean;
  ignoreList: readonly string[];
  caseSensitive: boolean;
  /** How long a partial made only of ignore-list words waits for its final transcript. */
  bufferMs: number;
  /**
   * Each of the device's languages' own ignore list (its pack's backchannels): words heard in one of
   * them are read with its list alone; words heard in none named, with all of them together.
   * Without it, ignoreList is the one list.
   */
  languages?: Readonly<Record<string, readonly string[]>>;
}

export interface Transcript {
  /** Partials and the final of one utterance share an id. */
  id: string;
  text: string;
  final: boolean;
  /**
   * false: said between cooks, not to hark (turn/addressed.ts): it does not interrupt, unless it is
   * only a backchannel anyway. Absent: one listener, as the interruption filter assumes.
   */
  addressed?: boolean;
  /** The language speech-to-text heard it in (a pack code), when it named one. */
  language?: string;
}

/** Returns true to filter, false to allow, undefined to leave it to the ignore list (the filter's custom_filter_fn hook). */
export type CustomFilter = (text: string, speaking: boolean) => boolean | undefined;

export interface InterruptionFilterOptions {
  settings: InterruptionSettings;
  clock: Clock;
  /** hark's speaking state when a pending decision times out. */
  isSpeaking: () => boolean;
  customFilter?: CustomFilter;
  /** Every decision that settles or waits while hark is speaking, including a pending one timing out. */
  onDecision?: (d: FilterDecision) => void;
}

interface Pending {
  timer: TimerHandle | null;
  text: string;
  /** The settled decision (an allow on a partial, or the final's): later transcripts of the utterance repeat it. */
  settled: FilterDecision | null;
}

/** Utterances remembered for repeat transcripts; older ones are forgotten. */
const MAX_TRACKED = 64;

/**
 * Interruption filter. While hark is speaking, an utterance made only of ignore-list
 * words is a backchannel: filtered, and playback goes on untouched. Anything else interrupts, at
 * once if a partial already holds a word no entry accounts for. A partial made only of ignore-list
 * words waits (PENDING) for the final transcript, at most bufferMs, then the person is given the
 * floor (a slow transcript must never silence them). Any error in here allows too. While hark is
 * silent, every word is ordinary input. Pure: time comes from the clock.
 * Why: docs/decisions.md#backchannels-do-not-interrupt-hark.
 */
export class InterruptionFilter {
  private readonly settings: InterruptionSettings;
  /** Words heard in no language named (or one without a list): every list together. */
  private readonly matcher: IgnoreMatcher;
  private readonly byLanguage = new Map<string, IgnoreMatcher>();
  private readonly opts: InterruptionFilterOptions;
  private readonly tracked = new Map<string, Pending>();

  constructor(opts: InterruptionFilterOptions) {
    validateInterruptionSettings(opts.settings);
    this.opts = opts;
    this.settings = opts.settings;
    const caseSensitive = opts.settings.caseSensitive;
    const lists = Object.entries(opts.settings.languages ?? {});
    for (const [code, list] of lists) this.byLanguage.set(code, new IgnoreMatcher(list, { caseSensitive }));
    this.matcher = new IgnoreMatcher(lists.length > 0 ? lists.flatMap(([, list]) => list) : opts.settings.ignoreList, { caseSensitive });
  }

  /** Decide on a whole (final) text, heard in `language` when named. Never throws. */
  decide(text: string, speaking: boolean, language?: string): FilterDecision {
    return this.safe(text, true, speaking, true, language);
  }

  /**
   * A transcript of an utterance as it arrives (partials, then the final). The returned decision is
   * also reported through onDecision while hark is speaking; a pending one settles later, through
   * onDecision only, when its final arrives or its time runs out.
   */
  transcript(t: Transcript, speaking: boolean): FilterDecision {
    let p = this.tracked.get(t.id);
    if (p?.settled) return p.settled;
    const d = { ...this.safe(t.text, t.final, speaking, t.addressed ?? true, t.language), utteranceId: t.id };
    if (d.action === 'pending') {
      if (!p) {
        p = { timer: null, text: t.text, settled: null };
        this.track(t.id, p);
        const entry = p;
        p.timer = this.opts.clock.setTimer(this.settings.bufferMs, () => this.timeout(t.id, entry));
      }
      p.text = t.text;
    } else {
      if (p) this.opts.clock.clearTimer(p.timer);
      this.track(t.id, { timer: null, text: t.text, settled: d });
    }
    if (speaking) this.report(d);
    return d;
  }

  /** The utterance was dropped (blank, hallucination, a segment too short): stop waiting for it. */
  forget(id: string): void {
    const p = this.tracked.get(id);
    if (p) this.opts.clock.clearTimer(p.timer);
    this.tracked.delete(id);
  }

  /**
   * Error handling: the transcript of something said over hark could not be made (every
   * engine failed), so nobody knows it was a backchannel: the person gets the floor.
   */
  failed(id: string, reason: string, speaking: boolean): FilterDecision {
    const d: FilterDecision = {
      action: 'allow',
      reason: `speech-to-text failed (${reason}): the person gets the floor`,
      text: '',
      speaking,
      final: true,
      confidence: 0,
      utteranceId: id,
    };
    this.track(id, { timer: null, text: '', settled: d });
    if (speaking) this.report(d);
    return d;
  }

  /** Pending decisions waiting for a final transcript. */
  get pendingCount(): number {
    let n = 0;
    for (const p of this.tracked.values()) if (!p.settled) n++;
    return n;
  }

  private timeout(id: string, p: Pending): void {
    if (this.tracked.get(id) !== p || p.settled) return;
    p.timer = null;
    const speaking = this.safeSpeaking();
    const d: FilterDecision = speaking
      ? {
          action: 'allow',
          reason: `no final transcript within ${this.settings.bufferMs} ms: the person gets the floor`,
          text: p.text,
          speaking,
          final: false,
          confidence: 0,
          utteranceId: id,
        }
      : {
          action: 'allow',
          reason: 'hark finished speaking while waiting: ordinary input',
          text: p.text,
          speaking,
          final: false,
          confidence: 1,
          utteranceId: id,
        };
    p.settled = d;
    if (speaking) this.report(d);
  }

  private safe(text: string, final: boolean, speaking: boolean, addressed = true, language?: string): FilterDecision {
    try {
      return this.rule(text, final, speaking, addressed, (language !== undefined ? this.byLanguage.get(language) : undefined) ?? this.matcher);
    } catch (err) {
      const name = err instanceof Error ? err.name : typeof err;
      return { action: 'allow', reason: `filter error (${name}: ${errorMessage(err)}): allowing`, text: String(text), speaking, final, confidence: 0 };
    }
  }

  private rule(text: string, final: boolean, speaking: boolean, addressed: boolean, matcher: IgnoreMatcher): FilterDecision {
    const d = (action: FilterAction, reason: string): FilterDecision => ({ action, reason, text, speaking, final, confidence: 1 });
    if (!speaking) return d('allow', 'hark is not speaking: ordinary input');
    if (!this.settings.enabled) return d('allow', 'interruption filter disabled: any speech interrupts');
    const custom = this.opts.customFilter?.(text, speaking);
    if (custom === true) return d('filter', 'custom filter');
    if (custom === false) return d('allow', 'custom filter');
    const w = words(text, this.settings.caseSensitive);
    if (w.length === 0) return final ? d('filter', 'no words (noise)') : d('pending', 'no words yet: waiting for the final transcript');
    if (matcher.coversAll(text)) {
      return final
        ? d('filter', `backchannel only ("${text.trim()}")`)
        : d('pending', `only backchannel so far ("${text.trim()}"): waiting for the final transcript`);
    }
    if (!addressed) {
      // Talk between cooks: hark talks on. A partial may still turn into "... stop": wait for the final.
      return final
        ? d('filter', `not addressed to hark ("${text.trim()}"): wake-word mode, no wake phrase, command, stop word or follow-up`)
        : d('pending', `not addressed to hark so far ("${text.trim()}"): waiting for the final transcript`);
    }
    const foreign = matcher.foreignWords(text);
    if (foreign.length === 0) {
      // Every word belongs to some entry but they do not tile: a phrase still forming ("go" of "go on").
      return final
        ? d('allow', `not a backchannel phrase ("${text.trim()}")`)
        : d('pending', `"${text.trim()}" may still become a backchannel: waiting for the final transcript`);
    }
    const mixed = foreign.length < w.length;
    return d('allow', mixed ? `mixed input: "${foreign.join(' ')}" is not a backchannel` : `command words: "${foreign.join(' ')}"`);
  }

  private safeSpeaking(): boolean {
    try {
      return this.opts.isSpeaking();
    } catch {
      // Unknown state: treat as speaking, so the pending input is allowed as an interruption.
      return true;
    }
  }

  private report(d: FilterDecision): void {
    try {
      this.opts.onDecision?.(d);
    } catch {
      // a listener's failure is not the filter's
    }
  }

  private track(id: string, p: Pending): void {
    const old = this.tracked.get(id);
    if (old && old !== p) this.opts.clock.clearTimer(old.timer);
    this.tracked.delete(id);
    this.tracked.set(id, p);
    while (this.tracked.size > MAX_TRACKED) {
      const [oldestId, oldest] = this.tracked.entries().next().value!;
      this.opts.clock.clearTimer(oldest.timer);
      this.tracked.delete(oldestId);
    }
  }
}

/** Config checks, for settings built in code (the config file is checked by its schema). */
export function validateInterruptionSettings(s: InterruptionSettings): void {
  if (!(s.bufferMs >= 0 && s.bufferMs <= 2000)) throw new RangeError(`interruption.bufferMs must be between 0 and 2000 ms (0 to 2 s), got ${s.bufferMs}`);
  if (s.enabled && s.ignoreList.filter((w) => w.trim()).length === 0)
    throw new RangeError('interruption.ignoreList must not be empty while the filter is enabled');
}
