import { describe, expect, it } from 'vitest';
import { Segmenter, type SegmenterEvent, type SegmenterOptions } from '../../src/vad/segmenter.js';

/**
 * The segmenter's pause/resume events (preemptive transcription) and its runtime
 * hangover (a shorter one while the top frame waits for yes/no). Pure: time is the frame count.
 */
const F = 512; // 32 ms
const OPTS: SegmenterOptions = {
  threshold: 0.5,
  releaseThreshold: 0.35,
  prerollMs: 320,
  minSpeechMs: 96,
  hangoverMs: 600,
  maxSegmentMs: 12_000,
  minSegmentMs: 250,
  pauseMs: 200,
};
const rep = (p: number, n: number): number[] => Array(n).fill(p);

function run(script: (number | 'down' | 'up' | { hangover: number })[], opts: Partial<SegmenterOptions> = {}) {
  const seg = new Segmenter({ ...OPTS, ...opts });
  const events: (SegmenterEvent & { atFrame: number })[] = [];
  let frames = 0;
  for (const step of script) {
    let out: SegmenterEvent[] = [];
    if (step === 'down') out = seg.pttDown();
    else if (step === 'up') out = seg.pttUp();
    else if (typeof step === 'object') seg.setHangoverMs(step.hangover);
    else {
      out = seg.push(new Int16Array(F).fill(frames % 100), step);
      frames++;
    }
    for (const e of out) events.push({ ...e, atFrame: frames });
  }
  return events.map((e) => `${e.type}@${e.atFrame}`);
}

describe('pause and resume inside an open segment', () => {
  it.each([
    // 20 speech frames, then silence: pause after 7 silent frames (224 ms ≥ 200), close after 19 (608 ms ≥ 600).
    ['a person who stopped', [...rep(0.9, 20), ...rep(0, 25)], {}, ['open@3', 'pause@27', 'segment@39']],
    // they go on after the pause: resume, and a later pause again
    [
      'a person who goes on',
      [...rep(0.9, 20), ...rep(0, 10), ...rep(0.9, 10), ...rep(0, 25)],
      {},
      ['open@3', 'pause@27', 'resume@31', 'pause@47', 'segment@59'],
    ],
    // a breath shorter than pauseMs: nothing speculative
    ['a short breath', [...rep(0.9, 20), ...rep(0, 5), ...rep(0.9, 10), ...rep(0, 25)], {}, ['open@3', 'pause@42', 'segment@54']],
    // off
    ['pauseMs 0', [...rep(0.9, 20), ...rep(0, 25)], { pauseMs: 0 }, ['open@3', 'segment@39']],
    // a hangover no longer than the pause closes first: no pause for a segment already closing
    ['hangover shorter than the pause', [...rep(0.9, 20), ...rep(0, 10)], { hangoverMs: 150 }, ['open@3', 'segment@25']],
  ] as const)('%s', (_name, script, opts, expected) => {
    expect(run([...script], opts)).toEqual(expected);
  });

  it('a held button never pauses: its release closes at once', () => {
    expect(run(['down', ...rep(0.9, 10), ...rep(0, 20), 'up'])).toEqual(['open@0', 'segment@30']);
  });

  it('the pause carries the whole segment so far, pre-roll included', () => {
    const seg = new Segmenter(OPTS);
    let pause: Extract<SegmenterEvent, { type: 'pause' }> | undefined;
    let frames = 0;
    for (const p of [...rep(0, 20), ...rep(0.9, 20), ...rep(0, 8)]) {
      for (const e of seg.push(new Int16Array(F).fill(frames++), p)) if (e.type === 'pause') pause = e;
    }
    expect(pause).toBeDefined();
    // pre-roll 320 ms (10 frames) + 20 speech frames + 7 silent frames = 37 frames
    expect(pause!.pcm.length).toBe(37 * F);
    expect(pause!.pcm[0]).toBe(10);
    expect(pause!.pcm[pause!.pcm.length - 1]).toBe(46);
    expect(pause!.silenceSamples).toBe(7 * F);
  });
});

describe('a hangover set at run time', () => {
  it('a shorter one closes the open segment sooner; the default comes back', () => {
    // 250 ms: 8 silent frames close it
    expect(run([{ hangover: 250 }, ...rep(0.9, 20), ...rep(0, 10)], { pauseMs: 0 })).toEqual(['open@3', 'segment@28']);
    expect(run([{ hangover: 250 }, { hangover: 600 }, ...rep(0.9, 20), ...rep(0, 25)], { pauseMs: 0 })).toEqual(['open@3', 'segment@39']);
  });
});

describe('closing early on a whole command', () => {
  it('closes the open segment at once, as "complete-command"; the next opens with its pre-roll intact', () => {
    const seg = new Segmenter(OPTS);
    const events: SegmenterEvent[] = [];
    for (const p of [...rep(0.9, 20), ...rep(0, 8)]) events.push(...seg.push(new Int16Array(F), p));
    events.push(...seg.closeEarly());
    const closed = events.filter((e) => e.type === 'segment');
    expect(closed).toHaveLength(1);
    expect((closed[0] as Extract<SegmenterEvent, { type: 'segment' }>).segment.closeReason).toBe('complete-command');
    // the rest of the hangover closes nothing more
    for (const p of rep(0, 20)) expect(seg.push(new Int16Array(F), p)).toEqual([]);
    const next: SegmenterEvent[] = [];
    for (const p of rep(0.9, 5)) next.push(...seg.push(new Int16Array(F), p));
    expect(next.find((e) => e.type === 'open')).toMatchObject({ prerollSamples: 10 * F });
  });

  it('not while the button is held', () => {
    const seg = new Segmenter(OPTS);
    seg.pttDown();
    for (const p of rep(0.9, 10)) seg.push(new Int16Array(F), p);
    expect(seg.closeEarly()).toEqual([]);
    expect(seg.isOpen).toBe(true);
  });
});

describe('a long open segment (its opening is checked while it is said)', () => {
  // 640 ms: past it after 21 frames (672 ms) of speech span from the VAD start.
  const LONG = { longSpeechMs: 640, pauseMs: 0 };

  it.each([
    // The span from the first speech frame to the last: pre-roll before it never counts.
    ['speech past the length', [...rep(0, 10), ...rep(0.9, 30), ...rep(0, 25)], ['open@13', 'long@31', 'segment@59']],
    // Exactly the length, then the hangover's silence: not long (the close measures it the same way).
    ['speech of exactly the length, then silence', [...rep(0, 10), ...rep(0.9, 20), ...rep(0, 25)], ['open@13', 'segment@49']],
    // A breath inside counts, as the close counts it: told on the first speech frame past the length.
    ['a breath inside', [...rep(0, 10), ...rep(0.9, 15), ...rep(0, 5), ...rep(0.9, 10), ...rep(0, 25)], ['open@13', 'long@31', 'segment@59']],
    // Told once per segment; the next segment is told again.
    [
      'two long segments',
      [...rep(0.9, 30), ...rep(0, 25), ...rep(0.9, 30), ...rep(0, 25)],
      ['open@3', 'long@21', 'segment@49', 'open@58', 'long@76', 'segment@104'],
    ],
  ] as const)('%s', (_name, script, expected) => {
    expect(run([...script], LONG)).toEqual(expected);
  });

  it('off at 0, and never for a held button (push-to-talk is transcribed whole)', () => {
    expect(run([...rep(0.9, 30), ...rep(0, 25)], { pauseMs: 0 })).toEqual(['open@3', 'segment@49']);
    expect(run(['down', ...rep(0.9, 30), 'up'], LONG)).toEqual(['open@0', 'segment@30']);
  });

  it('carries the segment so far, its pre-roll, and its VAD peak', () => {
    const seg = new Segmenter({ ...OPTS, ...LONG });
    let long: Extract<SegmenterEvent, { type: 'long' }> | undefined;
    let frames = 0;
    for (const p of [...rep(0, 10), ...rep(0.7, 5), ...rep(0.95, 25)]) {
      for (const e of seg.push(new Int16Array(F).fill(frames++), p)) if (e.type === 'long') long = e;
    }
    expect(long).toMatchObject({ startSample: 0, prerollSamples: 10 * F, maxProb: 0.95 });
    // pre-roll (10 frames) + the 21 speech frames it took
    expect(long!.pcm.length).toBe(31 * F);
    expect(long!.pcm[30 * F]).toBe(30);
  });
});
