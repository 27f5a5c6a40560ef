/**
 * The kitchen language's expansion rules: the words a cook or a picker uses for one idea, British
 * and American, written once and used by every sentence (`<cancel>` in a template). A technician
 * adds a word to one with `language.rules` in the config ("cancel: [nix]"), and every sentence
 * that uses the rule hears it.
 */
export const RULES: Record<string, string> = {
  // Said around any request: "ok so could you just ... please", and going on from the last one: "and a 4 minute timer for the wings".
  lead: '(and|and then|then|also|plus|oh and|and also|ok|okay|alright|all right|right|so|well|now|hey|oh|please|just|yeah|yes|no|sorry|actually|um|uh|er|erm|hmm|can you|could you|would you|will you|can you please|could you please|would you mind|do you mind|i want you to|i need you to|i want to|i need to|id like to|i would like to|go ahead and|lets|quickly|quick|you can|can we|could we)',
  tail: '(please|thanks|thank you|and thanks|and thank you|thank you very much|thanks very much|thanks a lot|much appreciated|again|as well|too|cheers|ta|mate|chef|love|for me|for us|now|then|if you can|if you could|when you can|when you get a chance|right now|quickly|would you|will you|ok|okay|yeah|alright|right)',

  // timers
  set: '(set|start|create|make|begin|run|setup|set up|put|stick|pop|get|give|add|start up|new|throw|chuck|whack|bang|i need|i want|can i have|can i get)',
  a: '(a|an|one|the|another|my|new|a new)',
  timer_word: '(timer|countdown|count down)',
  call_it: '[and] (named|called|labelled|labeled|call it|name it)',
  a_timer: '[<a>] [{duration}] [{name}] <timer_word>',
  // With its duration: said without a verb, a timer is only a request when it says how long ("10 minute timer").
  a_timer_for: '[<a>] {duration} [{name}] <timer_word>',
  cancel: '(cancel|stop|end|kill|scrap|bin|ditch|delete|remove|clear|dismiss|abort|reset|forget|lose|drop|nix|finish|get rid of|knock off|turn off|switch off|shut off|cut)',
  add_time: '(add|put|stick|give|throw|pop|chuck|whack|bang|slap|tack)',
  extend: '(increase|extend|lengthen|bump up|bump|push back|push|top up)',
  // "bump the rice up by two minutes", "push the brisket back five minutes"
  extend_after: '(up|back|on|out)',
  take_time: '(take|knock|cut|shave|remove|subtract|drop|trim|chop|lop|take away|deduct)',
  shorten: '(decrease|reduce|shorten|lower|cut down|bring forward|bring down)',
  pause: '(pause|hold|freeze|suspend)',
  resume: '(resume|unpause|un pause|continue|restart|unfreeze|carry on|carry on with|go on with|start back)',
  how_long: '(how long|how longs|how much time|how much longer|how many minutes|how many more minutes)',
  left: '(left|remaining|to go)',
  done: '(done|ready|finished|up|off|go off|going off|going to go off|ring|due|cooked|over)',
  remind: '(remind|wake|ping|alert|buzz|call|tell|nudge|give)',

  // lists
  list_add: '(add|put|stick|throw|write|pop|include|note|chuck|whack|jot|jot down|get|bung|slap|note down|write down|shove)',
  list_remove: '(remove|take|delete|cross|scratch|strike|tick|knock|drop|rub|get rid of|scrub)',
  the_list: '[the|my|our|your|this|that] [whole|entire] [{list}] list',
  read_out: '(read|read me|read out|read back|read me back|read us|go through|go over|run through|run me through|run us through|take me through|tell me|show me|give me|check)',
  clear: '(clear|empty|wipe|reset|scrap|bin|delete|erase|clean out|clear out|wipe out|empty out|clear down|wipe down)',
  short_of: '(low on|out of|short of|short on|running low on|running out of|nearly out of|almost out of|out|after)',
  now: '(at the moment|right now|now|so far|today|at the minute)',
};
