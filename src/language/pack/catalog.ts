/**
 * What hark asks of every pack, whatever its language: the intents its sentences must cover, the
 * slots a template may read, the rules every sentence leans on, and each reply hark says with the
 * arguments it gives it. A pack that leaves one out, or reads an argument hark never gives, is
 * refused at start (check.ts). Names only: the words are the pack's.
 */

/** Intents a pack's sentences.yaml must hold, each with at least one template. */
export const INTENTS = [
  'timer.start',
  'timer.delay',
  'timer.cancel',
  'timer.pause',
  'timer.resume',
  'timer.add',
  'timer.remove',
  'timer.status',
  'timer.list',
  'list.add',
  'list.remove',
  'list.read',
  'list.clear',
  'imperative.stop',
  'imperative.repeat',
  'imperative.continue',
  'imperative.start-over',
  'follow.more',
  'follow.length',
] as const;

/** The slot readers' names: `{duration}`, `{timer}`, ... (src/language/readers.ts reads each). */
export const SLOTS = [
  'duration',
  'more',
  'length',
  'number',
  'timer',
  'timers',
  'name',
  'reminder',
  'items',
  'known_item',
  'list',
  'known_list',
  'command',
] as const;

/** Rules every pack defines: the lead-ins and tails around any request (and <the_list>, where it reads lists). */
export const REQUIRED_RULES = ['lead', 'tail'] as const;

/**
 * Every reply, with the arguments hark gives it. `{timer}` is a timer as described by
 * timer.named / timer.sized; `{duration}`, `{left}`, `{by}`, `{ago}` are durations as the pack
 * says them; `{items}` / `{timers}` / `{choices}` are lists already joined.
 */
export const REPLIES: Readonly<Record<string, readonly string[]>> = {
  // how a timer and a list line are described inside other replies
  'timer.named': ['name'],
  'timer.sized': ['size'],
  'item.counted': ['quantity', 'item'],
  'item.measured': ['quantity', 'unit', 'item'],
  // timers
  'timer.set': ['name', 'duration'],
  'timer.restarted': ['name', 'duration'],
  'timer.later': ['duration', 'command'],
  'timer.done': ['name'],
  'timer.late': ['name', 'ago'],
  'timer.cancelled': ['timer'],
  'timer.cancelled_many': ['count'],
  'timer.still_running': ['count'],
  'timer.paused': ['timers'],
  'timer.paused_item': ['timer', 'left'],
  'timer.resumed': ['timers'],
  'timer.resumed_item': ['timer', 'left'],
  'timer.added': ['by', 'timer', 'left'],
  'timer.taken': ['by', 'timer', 'left'],
  'timer.added_done': ['by', 'timer'],
  'timer.taken_done': ['by', 'timer'],
  'timer.left': ['timer', 'left'],
  'timer.ringing': ['timer'],
  'timer.paused_left': ['timer', 'left'],
  'timer.until': ['left', 'command'],
  'timer.status_many': ['count', 'timers'],
  'timer.status_item': ['timer', 'left'],
  'timer.status_item_paused': ['timer', 'left'],
  'timer.status_item_ringing': ['timer'],
  'timer.missed_command': ['command'],
  'timer.how_long': [],
  'timer.out_of_range': [],
  'timer.same_length': [],
  'timer.elsewhere': ['area', 'room'],
  'timer.none_running': [],
  'timer.none_to_act_on': [],
  'timer.no_such_name': ['name'],
  'timer.no_such_size': ['duration'],
  'timer.not_running': ['timer'],
  'timer.not_paused': ['timer'],
  'timer.none_running_now': [],
  'timer.none_paused': [],
  'timer.which': ['choices'],
  'timer.choice': ['timer'],
  // lists
  'list.added': ['items', 'list'],
  'list.removed': ['items', 'list'],
  'list.took': ['item', 'list', 'left'],
  'list.missing': ['items', 'count', 'list'],
  'list.read': ['items', 'list'],
  'list.empty': ['list'],
  'list.cleared': ['list'],
  'list.already_empty': ['list'],
  'list.not_caught': ['items'],
  'list.unknown': ['list', 'lists', 'count', 'items'],
  // hark's own words
  'kept.noted': [],
  'kept.failed': ['target'],
  unclear: ['thing'],
  'unclear.alarm': [],
  'mode.always': [],
  'mode.wake': [],
  'repeat.nothing': [],
  'repeat.no_number': ['number'],
  'continue.nothing': [],
  'start_over.nothing': [],
  'confirm.ask': ['question'],
  'confirm.no_answer': [],
  'confirm.cancelled': [],
  'confirm.unclear': [],
  'query.nothing': [],
  'query.nothing_yet': [],
  'dictation.start': [],
  'dictation.nothing': [],
  'dictation.still': [],
  'voice.none': [],
  'voice.which': ['voices'],
  'voice.unchanged': [],
  'voice.set': ['voice'],
  'inventory.start': [],
  'inventory.nothing_to_undo': [],
  'inventory.removed': ['item'],
  'inventory.items': ['count', 'items'],
  'inventory.none': [],
  'inventory.nothing_to_save': [],
  'inventory.saved': ['count'],
  'inventory.closed': [],
  'inventory.discard': ['count'],
  'inventory.discarded': ['count'],
  'inventory.kept': ['count'],
  // what hark says of something it owns
  'owned.timer': ['name'],
  'owned.timers': [],
  'owned.a_timer': [],
  'owned.list': ['name'],
  'owned.a_list': [],
  'owned.alarm': [],
  // how lists are joined in a reply ("a, b and c"; "a, b or c")
  'join.and': ['first', 'last'],
  'join.or': ['first', 'last'],
  'join.comma': ['first', 'last'],
};
