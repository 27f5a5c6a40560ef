import { describe, expect, it } from 'vitest';
import { harness } from './harness.js';

describe('dictation frame', () => {
  it('keeps command words and repeats verbatim until "end dictation"', () => {
    const h = harness();
    h.sayAll('start dictation', 'zero zero zero', 'cancel', 'Go!', 'computer', 'mode query', 'Stop.', 'end dictation');
    expect(h.submits()).toEqual([{ frame: 'dictation', target: 'file', text: 'zero zero zero cancel Go! computer mode query Stop.' }]);
    expect(h.stack()).toEqual(['base']);
    expect(h.actions()).toEqual([]);
  });

  it('has no silence timer: an hour of quiet changes nothing', () => {
    const h = harness();
    h.sayAll('start dictation', 'line one');
    h.clock.advanceBy(3_600_000);
    expect(h.stack()).toEqual(['base', 'dictation']);
    h.say('line two', h.clock.now());
    h.say('end dictation', h.clock.now() + 1);
    expect(h.submits().map((s) => s.text)).toEqual(['line one line two']);
  });

  it('says so when nothing was dictated', () => {
    const h = harness();
    h.sayAll('start dictation', 'end dictation');
    expect(h.submits()).toEqual([]);
    expect(h.spoken()).toContain('Nothing was dictated.');
  });

  it('read back speaks what is held so far', () => {
    const h = harness();
    h.sayAll('start dictation', 'alpha', 'read back');
    // "read back" is not a dictation command by default: it is content.
    h.say('end dictation', h.clock.now() + 1);
    expect(h.submits().map((s) => s.text)).toEqual(['alpha read back']);
  });
});

describe('voice picker', () => {
  const voices = [
    { id: 'en-us', say: ['american'] },
    { id: 'en-gb', say: ['british', 'english'] },
  ];
  const table = [
    { said: 'british', voice: 'en-gb', spoken: 'Voice set to british.' },
    { said: 'English.', voice: 'en-gb', spoken: 'Voice set to english.' },
    { said: 'American', voice: 'en-us', spoken: 'Voice set to american.' },
  ];
  it.each(table)('"$said" sets $voice', ({ said, voice, spoken }) => {
    const h = harness({ voices });
    h.sayAll('switch voice', said);
    expect(h.actions()).toEqual([{ name: 'voice.set', args: { voice } }]);
    expect(h.spoken().at(-1)).toBe(spoken);
    expect(h.stack()).toEqual(['base']);
  });

  it('names the voices when it opens', () => {
    const h = harness({ voices });
    h.say('switch voice');
    expect(h.spoken()).toEqual(['Which voice? american, british. Or say cancel.']);
  });

  it('is exclusive: other words are ignored, even base commands', () => {
    const h = harness({ voices });
    h.sayAll('switch voice', 'french', 'mode query', 'computer');
    expect(h.ignored().map((i) => i.frame)).toEqual(['voice', 'voice', 'voice']);
    expect(h.stack()).toEqual(['base', 'voice']);
  });

  it('cancel leaves the voice as it was', () => {
    const h = harness({ voices });
    h.sayAll('switch voice', 'cancel');
    expect(h.actions()).toEqual([]);
    expect(h.spoken().at(-1)).toBe('Voice unchanged.');
    expect(h.stack()).toEqual(['base']);
  });

  it('closes itself after 15 s without an answer', () => {
    const h = harness({ voices });
    h.say('switch voice', 0);
    h.clock.advanceTo(14_999);
    expect(h.stack()).toEqual(['base', 'voice']);
    h.clock.advanceTo(15_000);
    expect(h.stack()).toEqual(['base']);
    expect(h.spoken().at(-1)).toBe('Voice unchanged.');
  });

  it('takes voices injected at run time (the speech engine knows what is installed)', () => {
    const h = harness({ voices });
    h.core.router.setVoices([{ id: 'de', say: ['german'] }]);
    h.sayAll('switch voice', 'german');
    expect(h.actions()).toEqual([{ name: 'voice.set', args: { voice: 'de' } }]);
  });

  it('does not open when there are no voices', () => {
    const h = harness({ voices: [] });
    h.say('switch voice');
    expect(h.stack()).toEqual(['base']);
    expect(h.spoken()).toEqual(['There are no voices to choose from.']);
  });

  it('uses router.voices from config', () => {
    const h = harness({ config: { router: { voices: [{ id: 'en-gb-scotland', say: 'scottish' }, 'fr'] } } });
    h.sayAll('switch voice', 'fr');
    expect(h.actions()).toEqual([{ name: 'voice.set', args: { voice: 'fr' } }]);
  });
});

describe('inventory frame', () => {
  it('appends each utterance as an item, through long pauses, and saves them to the inventory target', async () => {
    const h = harness();
    h.say('start inventory', 0);
    h.say('Shelf A3, bolts.', 1000);
    h.say('shelf A4 washers', 60_000);
    h.say('save', 600_000);
    await h.core.idle();
    expect(h.of('submit')).toEqual([expect.objectContaining({ frame: 'inventory', target: 'inventory', items: ['Shelf A3, bolts', 'shelf A4 washers'] })]);
    expect(h.targets.get('inventory')!.got[0]).toEqual(expect.objectContaining({ items: ['Shelf A3, bolts', 'shelf A4 washers'] }));
    expect(h.spoken().at(-1)).toBe('Saved 2 items.');
    expect(h.stack()).toEqual(['base']);
  });

  const table = [
    { lines: ['bolts', 'nuts', 'undo', 'read back'], spoken: ['Removed nuts.', '1 item: bolts.'] },
    { lines: ['undo'], spoken: ['Nothing to undo.'] },
    { lines: ['read back'], spoken: ['No items yet.'] },
    { lines: ['save'], spoken: ['Nothing to save.'] },
  ];
  it.each(table)('$lines', ({ lines, spoken }) => {
    const h = harness();
    h.say('start inventory');
    h.clear();
    h.sayAll(...lines);
    expect(h.spoken()).toEqual(spoken);
  });

  it('plays the item earcon for every item (hands busy, eyes elsewhere)', () => {
    const h = harness();
    h.sayAll('start inventory', 'bolts', 'nuts');
    expect(h.of('earcon').map((e) => e.name)).toEqual(['item', 'item']);
  });

  it('treats base words as items (it is exclusive)', () => {
    const h = harness();
    h.sayAll('start inventory', 'stop sign', 'computer', 'save');
    expect(h.of('submit')[0]!.items).toEqual(['stop sign', 'computer']);
  });

  describe('cancel asks first', () => {
    it('yes discards the items and closes', () => {
      const h = harness();
      h.sayAll('start inventory', 'bolts', 'nuts', 'cancel');
      expect(h.stack()).toEqual(['base', 'inventory', 'confirm']);
      expect(h.spoken().at(-1)).toBe('Discard 2 items? Say yes or no.');
      h.say('yes', h.clock.now() + 1000);
      expect(h.stack()).toEqual(['base']);
      expect(h.spoken().at(-1)).toBe('Discarded 2 items.');
      expect(h.submits()).toEqual([]);
    });

    it('no keeps the items and goes on', () => {
      const h = harness();
      h.sayAll('start inventory', 'bolts', 'cancel', 'no', 'nuts', 'save');
      expect(h.spoken()).toContain('Kept 1 item.');
      expect(h.of('submit')[0]!.items).toEqual(['bolts', 'nuts']);
    });

    it('with nothing captured it just closes', () => {
      const h = harness();
      h.sayAll('start inventory', 'cancel');
      expect(h.stack()).toEqual(['base']);
      expect(h.spoken().at(-1)).toBe('Inventory closed.');
    });
  });
});

describe('confirm frame', () => {
  function asking() {
    const h = harness();
    let yes = 0;
    let no = 0;
    h.say('computer', 0);
    h.core.router.confirm({ prompt: 'Delete the list?', onYes: () => yes++, onNo: () => no++ });
    return { h, answers: () => ({ yes, no }) };
  }
  const table = [
    { answer: 'yes', result: { yes: 1, no: 0 } },
    { answer: 'Yes.', result: { yes: 1, no: 0 } },
    { answer: 'confirm', result: { yes: 1, no: 0 } },
    { answer: 'no', result: { yes: 0, no: 1 } },
    { answer: 'cancel', result: { yes: 0, no: 1 } },
  ];
  it.each(table)('"$answer"', ({ answer, result }) => {
    const { h, answers } = asking();
    h.say(answer, 1000);
    expect(answers()).toEqual(result);
    expect(h.stack()).toEqual(['base', 'query']);
  });

  it('is exclusive: anything else gets "Yes or no?" once, then is ignored, and the question stays', () => {
    const { h, answers } = asking();
    h.say('maybe', 1000);
    h.say('computer', 2000);
    h.say('what was that', 3000);
    expect(h.spoken().filter((t) => t === 'Yes or no?')).toHaveLength(1);
    expect(h.ignored().map((i) => i.frame)).toEqual(['confirm', 'confirm']);
    expect(h.stack()).toEqual(['base', 'query', 'confirm']);
    expect(answers()).toEqual({ yes: 0, no: 0 });
  });

  it('no answer within 10 s discards the pending action and says so', () => {
    const { h, answers } = asking();
    h.say('maybe', 5000); // not an answer: does not extend the 10 s
    h.clock.advanceTo(9999);
    expect(h.stack()).toEqual(['base', 'query', 'confirm']);
    h.clock.advanceTo(10_000);
    expect(h.stack()).toEqual(['base', 'query']);
    expect(h.spoken().at(-1)).toBe('No answer, so I did nothing.');
    expect(answers()).toEqual({ yes: 0, no: 0 });
  });

  it('a late yes after the timeout runs nothing', () => {
    const { h, answers } = asking();
    h.clock.advanceTo(10_000);
    h.say('yes', 11_000);
    expect(answers()).toEqual({ yes: 0, no: 0 });
  });
});

describe('abort', () => {
  it('drops every frame above base without submitting', () => {
    const h = harness();
    h.sayAll('start dictation', 'words');
    h.core.router.abort();
    expect(h.stack()).toEqual(['base']);
    expect(h.submits()).toEqual([]);
  });
});
