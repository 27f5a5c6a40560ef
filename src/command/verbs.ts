import type { Logger } from '../core/log.js';
import { fill, type Verb } from './compile.js';
import type { Effect, Mode } from '../core/effects.js';
import type { Frame, SayOptions, VerbContext } from './frame.js';
import { unclearReply, type RouterContext } from './router-context.js';
import type { KitchenLanguage } from '../language/kitchen.js';
import { kitchenVerb } from './kitchen-verb.js';
import { timerVerb } from './timer-verb.js';

/** What a rule's verbs came to: done, the push declined (the frame above keeps the words), or words to walk again from the top. */
export type VerbResult = 'handled' | 'declined' | { redispatch: string };

/** What the verbs act on: the router's stack, mode and effects. */
export interface VerbHost {
  emit(e: Effect): void;
  log: Logger;
  hearing: RouterContext;
  mode(): Mode;
  /** Change the mode and say so, in that language (the device's first if absent). */
  setMode(mode: Mode, lang: string | undefined): void;
  /** Say one of the pack's replies in that language (the device's first if absent). */
  say(key: string, lang: string | undefined): void;
  push(from: Frame, name: string, ctx: VerbContext): VerbResult;
  pop(frame: Frame): void;
}

/**
 * The language words were said in, a language of the device: the one speech-to-text (or a
 * `[es]` line) named, else the one of the rule that took them (a Spanish "empezar dictado"), else
 * undefined: the device's first.
 */
export function wordsLanguage(ctx: VerbContext, language: KitchenLanguage): string | undefined {
  const named = ctx.utterance.language;
  if (named !== undefined && language.in(named)) return named;
  return ctx.lang !== undefined && language.in(ctx.lang) ? ctx.lang : undefined;
}

/** What a rule's verbs say is said in its frame's language (the words that opened it), or, in the base frame, the words' own. */
export function speakingIn(frame: Frame, ctx: VerbContext, language: KitchenLanguage): string | undefined {
  return frame.lang ?? wordsLanguage(ctx, language);
}

/**
 * A line hark says: in the language named (one of the device's; else the first), which the effect
 * carries when it is not the first, so the speaker says it with that language's voice.
 */
export function speakEffect(language: KitchenLanguage, text: string, opts: SayOptions = {}): Effect {
  const code = language.speaking(opts.lang).code;
  return {
    type: 'speak',
    text,
    ...(opts.answer ? { answer: true as const } : {}),
    ...(opts.rate !== undefined ? { rate: opts.rate } : {}),
    ...(code !== language.lang.code ? { lang: code } : {}),
  };
}

/** Carry out a matched rule's verbs, in order. */
export function runVerbs(host: VerbHost, frame: Frame, verbs: readonly Verb[], ctx: VerbContext): VerbResult {
  const emit = (e: Effect) => host.emit(e);
  let redispatch: string | undefined;
  // A kitchen request said into a frame that holds something (a query's text): the request is
  // carried out and the frame stays open, so what it holds is still sent on its silence or "go"
  // (a frame that is left must hand over what it holds, never drop it).
  let handedOver = false;
  for (const verb of verbs) {
    switch (verb.v) {
      case 'push': {
        const r = host.push(frame, verb.frame, ctx);
        if (r === 'declined') return 'declined';
        if (typeof r === 'object') redispatch = r.redispatch;
        break;
      }
      case 'pop':
        if (handedOver && frame.holds()) {
          host.log.info('kept the frame open: it holds words not yet sent', { frame: frame.name });
          break;
        }
        host.pop(frame);
        break;
      case 'mode':
        host.setMode(verb.mode, speakingIn(frame, ctx, host.hearing.language));
        break;
      case 'say-mode':
        host.say(host.mode() === 'always-listen' ? 'mode.always' : 'mode.wake', speakingIn(frame, ctx, host.hearing.language));
        break;
      case 'say':
        emit({ type: 'speak', text: fill(verb.text, ctx.slots) });
        break;
      case 'reply':
        host.say(verb.key, speakingIn(frame, ctx, host.hearing.language));
        break;
      case 'earcon':
        emit({ type: 'earcon', name: verb.name });
        break;
      case 'timer':
        timerVerb(verb.op, ctx.slots, emit);
        break;
      case 'kitchen': {
        const request = ctx.input?.kitchen();
        if (request) {
          kitchenVerb(request, emit, host.hearing.language.speaking(request.lang));
          handedOver = true;
          // Names something hark owns, asks nothing it can read: say so, never silence.
        } else if (ctx.slots.about) {
          const lang = speakingIn(frame, ctx, host.hearing.language);
          emit(speakEffect(host.hearing.language, unclearReply(host.hearing, ctx.slots.about, lang), lang ? { lang } : {}));
        }
        break;
      }
      case 'imperative':
        for (const i of ctx.input?.imperatives() ?? []) emit({ type: 'action', name: i.name, args: i.reference ? { reference: i.reference } : {} });
        break;
      case 'action': {
        const args: Record<string, unknown> = {};
        for (const [k, v] of Object.entries(verb.args)) args[k] = typeof v === 'string' ? fill(v, ctx.slots) : v;
        emit({ type: 'action', name: verb.name, args });
        break;
      }
      case 'ignore':
        emit({ type: 'ignored', frame: frame.name, text: ctx.said.original, reason: 'a rule says to ignore it' });
        break;
      case 'op':
        frame.op(verb.op, ctx);
        break;
    }
  }
  return redispatch !== undefined ? { redispatch } : 'handled';
}
