import type { SentenceSpec } from '../grammar.js';

/**
 * Seed 000's imperatives to hark's voice, and the follow-ups that lean on what hark just did.
 *
 * An imperative is the whole of what is said (each clause, when a person corrects themself: "stop.
 * actually continue"), so "repeat order for table two" and "continue with the prep" stay a
 * kitchen's words, while "alright, carry on" and "ok continue" are the continue they are. The
 * interruption filter asks the same question, so what cuts hark off is what the router acts on.
 */
export const VOICE_SENTENCES: SentenceSpec[] = [
  {
    intent: 'imperative.stop',
    templates: [
      '(stop|cancel|pause|quiet|shush|hush|enough|silence|never mind|nevermind|forget it|leave it|wait|hang on|hold on|hold up|one sec|one second|hold it|no more)',
      '(wait|hang on|hold on|hold it) [a|one] (sec|second|minute|moment|tick|mo)',
      '(stop|quiet|shush) [stop] [stop]',
      '(stop|pause) (it|that|talking|reading|now|there|there please)',
      '(shut up|be quiet|thats enough|that will do|thatll do|cut it out|pipe down|belt up|zip it)',
      '(please|just) stop',
    ],
  },
  {
    intent: 'imperative.repeat',
    templates: [
      'repeat [that|it|yourself|the last bit|the last one|the last thing|the previous one] [again|one more time|for me]',
      'say (that|it) (again|one more time|once more)',
      '(say again|come again|pardon|pardon me|what did you say|what was that|one more time|again please)',
      '(repeat|say) (the last|the previous|that last) (one|bit|thing|item|part)',
      '(repeat|say) [the] (last|previous)',
      'repeat number {number} [again]',
      '(what was|whats|what is) number {number} [again]',
      '(say|read) number {number} [again]',
    ],
  },
  {
    intent: 'imperative.continue',
    templates: [
      '(continue|carry on|go on|keep going|go ahead|proceed|resume|on you go|as you were|keep reading|keep talking|off you go|carry on reading|carry on talking|where were we)',
      '(you can|please|do) (continue|carry on|go on)',
      '(go on|carry on) (then|with it)',
      '(next|next one)',
    ],
  },
  {
    intent: 'imperative.start-over',
    templates: [
      '(start|begin) (over|again) [from the (beginning|top|start)]',
      '[start] from the (beginning|top|start)',
      '[go] back to the (beginning|start|top)',
      '(read|say) (it|that) again from the (start|top|beginning)',
      'take it from the top',
      'reset',
    ],
  },
];

/** Follow-ups: only read while the follow-up window is open, and only on the kind of request just done. */
export const FOLLOW_UP_SENTENCES: SentenceSpec[] = [
  { intent: 'follow.more', templates: ['(and|also|plus|oh and|and also|and then) {items} [too|as well|aswell]'] },
  {
    intent: 'follow.length',
    templates: [
      '(make|change|set|put) (it|that|the timer|that timer) [to|for|at] [a] {length} [timer] [instead]',
      '(actually|no|sorry|wait|i meant|i said|or|i mean) {length} [timer] [instead]',
      '{length} instead',
    ],
  },
];
