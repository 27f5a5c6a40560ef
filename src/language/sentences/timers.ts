import type { SentenceSpec } from '../grammar.js';

/**
 * How people ask for timers: one intent per thing hark can do, and the ways of saying it. A
 * sentence without the word "timer" is only read while a timer of that name runs (the `{timer}`
 * slot knows them): "two minutes on the lamb" called across a kitchen is not a request, "give the
 * brisket five more minutes" while a brisket timer runs is.
 *
 * `timer.status` and `timer.list` are questions: the follow-up window does not take them without
 * the wake word.
 */
export const TIMER_SENTENCES: SentenceSpec[] = [
  {
    intent: 'timer.start',
    templates: [
      '<set> [me|us] <a_timer> [on|going|running] [[and] <call_it> {name}]',
      '<set> [me|us] <a_timer> [on] (for|of|at|to) {duration} [[and] <call_it> {name}]',
      '<set> [me|us] <a_timer> [on] (for|of) {duration} (for|on) [the] {name}',
      '<set> [me|us] <a_timer> [on] (for|on) [the] {name} [for|of] {duration}',
      '<set> [me|us] <a_timer> <call_it> {name} [for|of] {duration}',
      '<set> [me|us] <a_timer> [on] {duration} [for [the] {name}]',
      '<set> [me|us] <a_timer> for [the] {name}',
      '<a_timer> [for|of] {duration} [[and] <call_it> {name}]',
      '<a_timer> [for|of] {duration} (for|on) [the] {name}',
      '<a_timer> (for|on) [the] {name} [for|of] {duration}',
      '<a_timer> <call_it> {name} [for|of] {duration}',
      '<a_timer_for> [[and] <call_it> {name}]',
      '<a_timer_for> for [the] {name}',
      '(countdown|count down) [from|for] {duration}',
      '<remind> me (in|after) {duration} [(to|about) {name}]',
      '<remind> me (to|about) {reminder} (in|after) {duration}',
      '(in|after) {duration} <remind> me [(to|about) {reminder}]',
      '(let me know|give me a shout|shout) (in|after) {duration}',
    ],
  },
  {
    intent: 'timer.delay',
    templates: ['(in|after) {duration} [then] {command}', '{command} (in|after) {duration} [time]'],
  },
  {
    intent: 'timer.cancel',
    templates: [
      '<cancel> {timer}',
      '(turn|switch|shut|knock|take|kick) {timer} off',
      '{timer} (can go|can come off|can be cancelled|is not needed|isnt needed|is done with)',
      '(we|i) (dont|do not) need {timer} [any more|anymore|now]',
      '{timer} <cancel> (it|that|them)',
      '<cancel> (it|that) {timer}',
    ],
  },
  {
    intent: 'timer.pause',
    templates: ['<pause> {timer}', 'put {timer} on (hold|pause)', '(stop|pause|hold|freeze) {timer} for (a|one) (minute|second|sec|moment|bit|tick)'],
  },
  {
    intent: 'timer.resume',
    templates: ['<resume> {timer}', '(start|set|get|kick) {timer} (again|going again|back on|off again|going)', 'take {timer} off (hold|pause)'],
  },
  {
    intent: 'timer.add',
    templates: [
      '<add_time> [on] {duration} [more] (on|to|onto) {timer}',
      '<add_time> {timer} {duration}',
      '(<extend>|add to) {timer} [<extend_after>] [by] {duration}',
      '{timer} (needs|wants|could do with|should get|gets|could use|will need|needs a further) {duration} [more]',
      '{timer} {more}',
      '{more} (on|for) {timer}',
    ],
  },
  {
    intent: 'timer.remove',
    templates: [
      '<take_time> [off] {duration} (off|from) {timer}',
      '<shorten> {timer} by {duration}',
      '{timer} <take_time> [off] {duration} [off]',
      '{timer} (needs|wants) {duration} less',
    ],
  },
  {
    intent: 'timer.status',
    templates: [
      '{timer} status',
      '[(what is|whats) the] status (of|on) {timer}',
      '<how_long> [is] <left> (on|for|in|of) {timer}',
      '<how_long> (is|has|does) {timer} (got|have|had) [left]',
      '<how_long> (on|for) {timer}',
      '(how long|how much longer) (till|until|before|til) {timer} [is|will be|goes|rings|gonna be] [<done>]',
      '(when|what time) (is|does|will) {timer} [going to|gonna] [be] <done>',
      '(whens|when is) {timer} [going to be|gonna be] [<done>]',
      '(whats|what is) left (on|for|of) {timer}',
      '(whats|what is) the time (on|left on|for|of) {timer}',
      'how (are we|is it|are things|are you) (doing|getting on|looking|going) (on|with|for) {timer}',
      'time (left|remaining) (on|for) {timer}',
      '(hows|how is|how are) {timer} (doing|getting on|going|coming along)',
      'is {timer} [still] (going|running|on|ticking|active|set)',
      'is {timer} [nearly|almost|about] <done> [yet]',
      '(check|read) {timer}',
    ],
  },
  {
    intent: 'timer.list',
    templates: [
      '(how much time|how long) [is] <left>',
      'how much longer',
      'time (left|remaining)',
      '(what|which) timers (are|have|do|did) (we|you|i) (got|have|set) [going|running|on|set] [<now>]',
      '(what|which) timers (are|have) (we|you) got [going|running|on|set] [<now>]',
      '(what|which) timers (are|have been) [there] [going|running|set|on|active|ticking] [<now>]',
      '(what|which|any) timers [are] [going|running|set|on|active|ticking] [<now>]',
      '(what|whatve) (have|do) (we|you) (got|have) (running|going|on|ticking) [<now>]',
      'whatve (we|you) got (running|going|on|ticking) [<now>]',
      '(have|do) (we|you) (got|have) any timers [going|running|on|set] [<now>]',
      '(whats|what is) (running|ticking) [<now>]',
      '(list|read|tell me|read me|read out|go through|run through) [all] [the|my|our] timers',
      '(how are|hows) the timers [looking|doing|going]',
      'what (have we|have you|do we|do you) (got|have) on the timers',
      'timers',
    ],
  },
];
