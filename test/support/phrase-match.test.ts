import { describe, expect, it } from 'vitest';
import { phraseMatcher } from './phrase-match.js';
import { scene } from './speech.js';

describe('phraseMatcher (the Deepgram double hearing by content)', () => {
  it('finds each phrase in a segment cut around it with pre-roll and hangover, and nothing in silence', async () => {
    const texts = [
      'computer, set a timer for ten minutes',
      'computer, we need three cases of milk for the order list',
      'go',
      'yes',
      'start dictation',
      'zero zero zero',
      'end dictation',
    ];
    const s = await scene([1200, texts[0]!, 1800, texts[1]!, 1800, texts[2]!, 2500, texts[3]!, 2000, texts[4]!, 1800, texts[5]!, 1800, texts[6]!, 1500]);
    const hear = phraseMatcher(s);
    for (const p of s.phrases) {
      const seg = s.pcm.slice(Math.max(0, p.start - 8000), Math.min(s.pcm.length, p.end + 9600));
      expect(hear(seg)?.text).toBe(p.text);
    }
    expect(hear(new Int16Array(32000))).toBeNull();
  });

  it("hears the first words of a phrase in a segment's opening that stops inside it, not another phrase", async () => {
    const texts = ['computer, we need three cases of milk for the order list', 'start dictation'];
    const s = await scene([1200, texts[0]!, 1800, texts[1]!, 1500]);
    const hear = phraseMatcher(s);
    const p = s.phrases[0]!;
    // The pre-roll and 2.5 s of the phrase (it lasts longer): what hark sends as the opening.
    const opening = s.pcm.slice(p.start - 8000, p.start + 40000);
    const heard = hear(opening);
    expect(heard?.partial).toBe(true);
    expect(p.text.startsWith(heard!.text)).toBe(true);
    expect(heard!.text).toMatch(/^computer, we need/);
    expect(heard!.text.length).toBeLessThan(p.text.length);
  });

  it('does not answer a long sentence with a short word found inside it', async () => {
    const texts = ['computer, we are short three cases of milk for the order list', 'yes', 'go'];
    const s = await scene([1200, texts[0]!, 1800, texts[1]!, 1800, texts[2]!, 1500]);
    const hear = phraseMatcher(s);
    const p = s.phrases[0]!;
    // The sentence with its middle reshaped (a suppressor pulling 10 dB off a stretch of it): it may
    // no longer match itself, but a word-shaped bump in it must not be taken for "yes" or "go".
    const seg = s.pcm.slice(p.start - 8000, p.end + 9600);
    for (let i = 8000 + 16000; i < 8000 + 32000 && i < seg.length; i++) seg[i] = Math.round(seg[i]! * 0.3);
    const heard = hear(seg);
    expect(heard?.text === 'yes' || heard?.text === 'go').toBe(false);
  });
});
