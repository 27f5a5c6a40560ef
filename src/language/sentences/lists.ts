import type { SentenceSpec } from '../grammar.js';

/**
 * How people ask for lists. A request names a list ("... list"), or takes off something already
 * on one ("take the lemons off"), so "add more salt to the soup" stays a cook's words. Items are
 * read with their quantities, several to a sentence ("basil, shallots, double cream and capers").
 * The shopping list is the default ("add eggs to the list").
 *
 * `list.read` is a question: the follow-up window does not take it without the wake word.
 */
export const LIST_SENTENCES: SentenceSpec[] = [
  {
    intent: 'list.add',
    templates: [
      '<list_add> [down] {items} [down] (to|on|onto|in|into|for) <the_list>',
      '<list_add> (to|on|onto) <the_list> {items}',
      '{items} (on|for|to) <the_list>',
      '(we|i) (need|want|could do with|could use) {items} (on|for|to) <the_list>',
      '(we|i) (need|want|could do with) {items} [so] <list_add> (it|them|that|those|some) (on|to|onto) <the_list>',
      '(were|we are|im|i am|weve|we have|we have run|weve run|we ran) <short_of> {items} [so] <list_add> (it|them|that|those|some) (on|to|onto) <the_list>',
      '{list} list {items}',
    ],
  },
  {
    intent: 'list.remove',
    templates: [
      '<list_remove> {items} (off|from) <the_list>',
      '<list_remove> off {items} (from|off) <the_list>',
      '{items} can (come|go) off <the_list>',
      '<list_remove> {known_item} off',
      '<list_remove> off {known_item}',
      '(remove|delete|drop) {known_item}',
      '(weve got|we have|we have got|got|we got) {items} [now] [so] <list_remove> (it|them|that|those) off <the_list>',
    ],
  },
  {
    intent: 'list.read',
    templates: [
      '[tell me|show me|read me|read out|read|go through|run through|give me] (whats|what is|whats left|what else is|what is left) (on|in) <the_list> [<now>]',
      '(have|do|did) (we|you|i) (got|have|put) (anything|much|something) (on|in) <the_list> [<now>]',
      'is there anything (on|in) <the_list> [<now>]',
      '(what|whatve) (have|do) (we|you|i) (got|have) (on|in) <the_list> [<now>]',
      'whatve (we|you|i) got (on|in) <the_list> [<now>]',
      '<read_out> <the_list> [back|out] [to me|to us|for me|for us]',
      'read <the_list> (back|out) [to me|to us]',
    ],
  },
  {
    intent: 'list.clear',
    templates: [
      '<clear> <the_list>',
      '(clear|wipe|take|delete|remove) everything (off|from|on) <the_list>',
      'start <the_list> (again|over|afresh) [from scratch]',
      'start a new <the_list>',
    ],
  },
];
