import { describe, expect, it } from 'vitest';
import { Segmenter, type SegmenterEvent, type SegmenterOptions } from '../../src/vad/segmenter.js';
import { SegmentPipeline } from '../../src/vad/pipeline.js';
import type { Segment } from '../../src/vad/segment.js';
import type { Vad } from '../../src/vad/vad.js';
import { concatPcm } from '../../src/audio/pcm.js';

const F = 512;
const DEFAULTS: SegmenterOptions = {
  threshold: 0.5,
  releaseThreshold: 0.35,
  prerollMs: 500,
  minSpeechMs: 96,
  hangoverMs: 600,
  maxSegmentMs: 12_000,
  minSegmentMs: 250,
};

function sampleAt(i: number): number {
  return ((i * 7919 + 13) % 65536) - 32768;
}

type Step = number | 'down' | 'up' | 'end';

/**
 * Run a script: numbers are frame probabilities; 'down'/'up' press and release the button.
 * Each frame's samples name their own stream position so the splice can be checked byte for byte.
 */
function run(script: Step[], opts: Partial<SegmenterOptions> = {}) {
  const seg = new Segmenter({ ...DEFAULTS, ...opts });
  const events: (SegmenterEvent & { atFrame: number })[] = [];
  let frames = 0;
  const frame = new Int16Array(F);
  for (const step of script) {
    let out: SegmenterEvent[];
    if (step === 'down') out = seg.pttDown();
    else if (step === 'up') out = seg.pttUp();
    else if (step === 'end') out = seg.end();
    else {
      for (let k = 0; k < F; k++) frame[k] = sampleAt(frames * F + k);
      out = seg.push(frame, step);
      frames++;
    }
    for (const e of out) events.push({ ...e, atFrame: frames });
  }
  const segments = events.filter((e) => e.type === 'segment').map((e) => (e as { segment: Segment }).segment);
  return { seg, events, segments };
}

const rep = (p: number, n: number): number[] => Array(n).fill(p);
/** Frames needed to cover `ms`. */
const framesFor = (ms: number) => Math.ceil((ms * 16) / F);

function expectExactSplice(s: Segment) {
  expect(s.pcm.length).toBe(s.endSample - s.startSample);
  expect(s.prerollSamples).toBe(s.vadStartSample - s.startSample);
  for (let i = 0; i < s.pcm.length; i++) {
    if (s.pcm[i] !== sampleAt(s.startSample + i)) {
      throw new Error(`splice off at sample ${s.startSample + i} (offset ${i}, pre-roll ${s.prerollSamples})`);
    }
  }
}

describe('Segmenter transitions', () => {
  const cases: { name: string; script: Step[]; opts?: Partial<SegmenterOptions>; expect: (r: ReturnType<typeof run>) => void }[] = [
    {
      name: 'silence stays idle',
      script: rep(0.1, 200),
      expect: ({ events }) => expect(events).toEqual([]),
    },
    {
      name: 'speech shorter than minSpeechMs does not open',
      script: [...rep(0.1, 20), ...rep(0.9, 2), ...rep(0.1, 40), 'end'],
      expect: ({ events }) => expect(events).toEqual([]),
    },
    {
      name: 'an interrupted run must start again (frames must be consecutive)',
      script: [...rep(0.1, 20), 0.9, 0.9, 0.2, 0.9, 0.9, ...rep(0.1, 40), 'end'],
      expect: ({ events }) => expect(events).toEqual([]),
    },
    {
      name: 'opens after minSpeechMs with live audio from the first speech frame and 500 ms of pre-roll',
      script: [...rep(0.1, 30), ...rep(0.9, 3)],
      expect: ({ events }) => {
        expect(events).toHaveLength(1);
        const open = events[0]!;
        expect(open.type).toBe('open');
        if (open.type !== 'open') return;
        expect(open.atFrame).toBe(33);
        expect(open.vadStartSample).toBe(30 * F);
        expect(open.prerollSamples).toBe(8000);
        expect(open.pcm.length).toBe(8000 + 3 * F);
      },
    },
    {
      name: 'pre-roll is shorter at the very start of the stream',
      script: [...rep(0.1, 5), ...rep(0.9, 20), ...rep(0.1, 25)],
      expect: ({ segments }) => {
        expect(segments).toHaveLength(1);
        expect(segments[0]!.startSample).toBe(0);
        expect(segments[0]!.prerollSamples).toBe(5 * F);
        expectExactSplice(segments[0]!);
      },
    },
    {
      name: 'closes after hangoverMs of silence with reason hangover',
      script: [...rep(0.1, 30), ...rep(0.9, 20), ...rep(0.1, 40)],
      expect: ({ segments, events }) => {
        expect(segments).toHaveLength(1);
        const s = segments[0]!;
        expect(s.closeReason).toBe('hangover');
        // 600 ms = 9600 samples = 18.75 frames: the 19th silent frame closes it
        const closeEvent = events.find((e) => e.type === 'segment')!;
        expect(closeEvent.atFrame).toBe(50 + 19);
        expect(s.endSample).toBe((50 + 19) * F);
        expectExactSplice(s);
      },
    },
    {
      name: 'frames between the release and open thresholds keep it open (hysteresis)',
      script: [...rep(0.1, 30), ...rep(0.9, 10), ...rep(0.4, 40), ...rep(0.1, 20)],
      expect: ({ segments }) => {
        expect(segments).toHaveLength(1);
        expect(segments[0]!.vadStartSample).toBe(30 * F);
        expect(segments[0]!.endSample).toBe((80 + 19) * F);
      },
    },
    {
      name: 'a pause shorter than the hangover does not split an utterance',
      script: [...rep(0.1, 30), ...rep(0.9, 20), ...rep(0.1, 15), ...rep(0.9, 20), ...rep(0.1, 25)],
      expect: ({ segments }) => {
        expect(segments).toHaveLength(1);
        expect(segments[0]!.endSample).toBe((85 + 19) * F);
      },
    },
    {
      name: 'speech shorter than minSegmentMs is dropped with its reason, not emitted',
      script: [...rep(0.1, 30), ...rep(0.9, 5), ...rep(0.1, 30)],
      expect: ({ segments, events }) => {
        expect(segments).toHaveLength(0);
        const dropped = events.find((e) => e.type === 'dropped');
        expect(dropped).toMatchObject({ type: 'dropped', reason: 'too-short', speechMs: 160 });
      },
    },
    {
      name: 'splits at maxSegmentMs with max-duration and carries on at once',
      script: [...rep(0.1, 30), ...rep(0.9, framesFor(13_000)), ...rep(0.1, 25)],
      expect: ({ segments }) => {
        expect(segments).toHaveLength(2);
        const [a, b] = segments as [Segment, Segment];
        expect(a.closeReason).toBe('max-duration');
        expect(a.endSample - a.vadStartSample).toBeGreaterThanOrEqual(12_000 * 16);
        expect(a.endSample - a.vadStartSample).toBeLessThan(12_000 * 16 + F);
        // no audio lost or repeated between them: the second starts exactly where the first ended,
        // with no pre-roll (that history is the end of the first, already delivered)
        expect(b.vadStartSample).toBe(a.endSample);
        expect(b.startSample).toBe(a.endSample);
        expect(b.prerollSamples).toBe(0);
        expect(b.closeReason).toBe('hangover');
        expectExactSplice(a);
        expectExactSplice(b);
      },
    },
    {
      name: 'max-duration during trailing silence does not reopen',
      script: [...rep(0.1, 30), ...rep(0.9, framesFor(11_800)), ...rep(0.1, 40)],
      opts: { hangoverMs: 2000 },
      expect: ({ segments, events }) => {
        expect(segments.map((s) => s.closeReason)).toEqual(['max-duration']);
        expect(events.filter((e) => e.type === 'open')).toHaveLength(1);
      },
    },
    {
      name: 'end of stream closes an open segment',
      script: [...rep(0.1, 30), ...rep(0.9, 20), 'end'],
      expect: ({ segments }) => {
        expect(segments.map((s) => s.closeReason)).toEqual(['end-of-stream']);
        expectExactSplice(segments[0]!);
      },
    },
    {
      name: 'push-to-talk opens at the press with pre-roll, ignores silence, closes at release with no hangover',
      script: [...rep(0.1, 40), 'down', ...rep(0.1, 30), ...rep(0.9, 10), ...rep(0.1, 30), 'up', ...rep(0.1, 30)],
      expect: ({ segments, events }) => {
        const open = events.find((e) => e.type === 'open');
        expect(open).toMatchObject({ openedBy: 'ptt', vadStartSample: 40 * F, atFrame: 40 });
        expect(segments).toHaveLength(1);
        const s = segments[0]!;
        expect(s.closeReason).toBe('ptt-release');
        expect(s.openedBy).toBe('ptt');
        expect(s.prerollSamples).toBe(8000);
        expect(s.endSample).toBe(110 * F);
        expectExactSplice(s);
      },
    },
    {
      name: 'pressing during a VAD segment holds it open until release',
      script: [...rep(0.1, 30), ...rep(0.9, 10), 'down', ...rep(0.1, 60), 'up'],
      expect: ({ segments }) => {
        expect(segments).toHaveLength(1);
        expect(segments[0]!.closeReason).toBe('ptt-release');
        expect(segments[0]!.vadStartSample).toBe(30 * F);
        expect(segments[0]!.endSample).toBe(100 * F);
      },
    },
    {
      name: 'a release with nothing held does nothing',
      script: [...rep(0.1, 10), 'up', ...rep(0.1, 10)],
      expect: ({ events }) => expect(events).toEqual([]),
    },
    {
      name: 'a tap shorter than minSegmentMs is dropped',
      script: [...rep(0.1, 40), 'down', ...rep(0.1, 3), 'up'],
      expect: ({ segments, events }) => {
        expect(segments).toHaveLength(0);
        expect(events.at(-1)).toMatchObject({ type: 'dropped', openedBy: 'ptt' });
      },
    },
    {
      name: 'segments are numbered in order and report their peak probability',
      script: [...rep(0.1, 30), ...rep(0.8, 20), ...rep(0.1, 30), ...rep(0.95, 20), 0.6, ...rep(0.1, 30)],
      expect: ({ segments }) => {
        expect(segments.map((s) => s.index)).toEqual([0, 1]);
        expect(segments[0]!.maxProb).toBeCloseTo(0.8);
        expect(segments[1]!.maxProb).toBeCloseTo(0.95);
      },
    },
  ];

  for (const c of cases) {
    it(c.name, () => c.expect(run(c.script, c.opts)));
  }

  it('rejects a release threshold above the open threshold', () => {
    expect(() => new Segmenter({ ...DEFAULTS, releaseThreshold: 0.6 })).toThrow(/releaseThreshold/);
  });

  it('accepts a short last frame and keeps the splice exact', () => {
    const seg = new Segmenter(DEFAULTS);
    const frame = new Int16Array(F);
    let pos = 0;
    const push = (n: number, p: number) => {
      const f = frame.subarray(0, n);
      for (let k = 0; k < n; k++) f[k] = sampleAt(pos + k);
      pos += n;
      return seg.push(f, p);
    };
    for (let i = 0; i < 20; i++) push(F, 0.1);
    for (let i = 0; i < 20; i++) push(F, 0.9);
    push(100, 0.9);
    const [e] = seg.end();
    expect(e?.type).toBe('segment');
    if (e?.type === 'segment') {
      expect(e.segment.endSample).toBe(40 * F + 100);
      expectExactSplice(e.segment);
    }
  });
});

/**
 * The segments' audio laid end to end must be exactly the input from the first one's start to the
 * last one's end: each starts at the sample where the one before ended, so no sample is delivered
 * twice (words repeated at a split) and none is skipped (words lost at a split).
 */
function expectTiles(segments: Segment[]) {
  expect(segments.length).toBeGreaterThan(0);
  for (let i = 1; i < segments.length; i++) {
    expect(segments[i]!.startSample, `segment ${i} starts where segment ${i - 1} ended`).toBe(segments[i - 1]!.endSample);
  }
  const from = segments[0]!.startSample;
  const to = segments.at(-1)!.endSample;
  const joined = new Int16Array(segments.reduce((n, s) => n + s.pcm.length, 0));
  let at = 0;
  for (const s of segments) {
    joined.set(s.pcm, at);
    at += s.pcm.length;
  }
  expect(joined.length).toBe(to - from);
  for (let i = 0; i < joined.length; i++) {
    if (joined[i] !== sampleAt(from + i)) throw new Error(`joined audio differs from the input at sample ${from + i}`);
  }
}

type OpenEvent = Extract<SegmenterEvent, { type: 'open' }>;

/** The open event that started each segment must describe the same start as the segment itself. */
function expectOpensMatch(events: (SegmenterEvent & { atFrame: number })[], segments: Segment[]) {
  const opens = events.filter((e): e is OpenEvent & { atFrame: number } => e.type === 'open');
  expect(opens).toHaveLength(segments.length);
  segments.forEach((s, i) => {
    const o = opens[i]!;
    expect({ openedBy: o.openedBy, startSample: o.startSample, vadStartSample: o.vadStartSample, prerollSamples: o.prerollSamples }).toEqual({
      openedBy: s.openedBy,
      startSample: s.startSample,
      vadStartSample: s.vadStartSample,
      prerollSamples: s.prerollSamples,
    });
    // What the open event hands a streaming engine is the start of the segment, nothing before it.
    expect(Array.from(o.pcm)).toEqual(Array.from(s.pcm.subarray(0, o.pcm.length)));
  });
}

/** Frames in maxSegmentMs: 12 000 ms = 192 000 samples = 375 frames of 512. */
const SPLIT = framesFor(DEFAULTS.maxSegmentMs);
const FULL_PREROLL = (DEFAULTS.prerollMs * 16000) / 1000;

describe('a max-duration split tiles the audio (no words twice at the split)', () => {
  // Each case: the close reasons, the pre-roll and who opened each piece. Every case must also tile
  // (see expectTiles), keep every segment byte-exact, and have open events that agree with the segments.
  const cases: { name: string; script: Step[]; closes: string[]; preroll: number[]; openedBy: ('vad' | 'ptt')[] }[] = [
    {
      name: 'unbroken speech over 2.5 × maxSegmentMs: pre-roll only on the first piece',
      script: [...rep(0.1, 30), ...rep(0.9, 2 * SPLIT + 100), ...rep(0.1, 25)],
      closes: ['max-duration', 'max-duration', 'hangover'],
      preroll: [FULL_PREROLL, 0, 0],
      openedBy: ['vad', 'vad', 'vad'],
    },
    {
      name: 'push-to-talk held over 2.5 × maxSegmentMs behaves the same',
      script: [...rep(0.1, 40), 'down', ...rep(0.1, 2 * SPLIT + 100), 'up', ...rep(0.1, 30)],
      closes: ['max-duration', 'max-duration', 'ptt-release'],
      preroll: [FULL_PREROLL, 0, 0],
      openedBy: ['ptt', 'ptt', 'ptt'],
    },
    {
      name: 'a VAD segment held open by the button past maxSegmentMs',
      script: [...rep(0.1, 30), ...rep(0.9, 10), 'down', ...rep(0.1, SPLIT + 50), 'up', ...rep(0.1, 30)],
      closes: ['max-duration', 'ptt-release'],
      preroll: [FULL_PREROLL, 0],
      openedBy: ['vad', 'vad'],
    },
    {
      // The split frame scores below the release threshold (a gap between words), so the segment does
      // not reopen at once; the speech right after it opens a fresh one whose pre-roll would reach back
      // into the words the first one just delivered.
      name: 'the split lands on a one-frame dip and speech goes on',
      script: [...rep(0.1, 30), ...rep(0.9, SPLIT - 1), 0.2, ...rep(0.9, 100), ...rep(0.1, 25)],
      closes: ['max-duration', 'hangover'],
      preroll: [FULL_PREROLL, 0],
      openedBy: ['vad', 'vad'],
    },
    {
      // Pre-roll is clamped at the split, not dropped: the undecided frames after the split (between the
      // release and open thresholds) were delivered by nobody, so they are this segment's pre-roll.
      name: 'the split lands on a dip, then undecided frames, then speech',
      script: [...rep(0.1, 30), ...rep(0.9, SPLIT - 1), 0.2, ...rep(0.4, 5), ...rep(0.9, 100), ...rep(0.1, 25)],
      closes: ['max-duration', 'hangover'],
      preroll: [FULL_PREROLL, 5 * F],
      openedBy: ['vad', 'vad'],
    },
    {
      // The tail of a split utterance is the end of speech already judged long enough: dropping it as
      // too-short would lose the last word.
      name: 'a continuation shorter than minSegmentMs is still delivered (VAD)',
      script: [...rep(0.1, 30), ...rep(0.9, SPLIT + 2), ...rep(0.1, 25)],
      closes: ['max-duration', 'hangover'],
      preroll: [FULL_PREROLL, 0],
      openedBy: ['vad', 'vad'],
    },
    {
      name: 'a continuation shorter than minSegmentMs is still delivered (push-to-talk)',
      script: [...rep(0.1, 40), 'down', ...rep(0.1, SPLIT + 3), 'up', ...rep(0.1, 10)],
      closes: ['max-duration', 'ptt-release'],
      preroll: [FULL_PREROLL, 0],
      openedBy: ['ptt', 'ptt'],
    },
    {
      name: 'end of stream inside a continuation',
      script: [...rep(0.1, 30), ...rep(0.9, SPLIT + 40), 'end'],
      closes: ['max-duration', 'end-of-stream'],
      preroll: [FULL_PREROLL, 0],
      openedBy: ['vad', 'vad'],
    },
    {
      // Speech going on across the release: the VAD segment that picks it up must not start with the
      // end of what the button segment already delivered.
      name: 'speech going on across a push-to-talk release',
      script: [...rep(0.1, 40), 'down', ...rep(0.9, 30), 'up', ...rep(0.9, 30), ...rep(0.1, 25)],
      closes: ['ptt-release', 'hangover'],
      preroll: [FULL_PREROLL, 0],
      openedBy: ['ptt', 'vad'],
    },
  ];

  for (const c of cases) {
    it(c.name, () => {
      const { segments, events } = run(c.script);
      expect(events.filter((e) => e.type === 'dropped')).toEqual([]);
      expect(segments.map((s) => s.closeReason)).toEqual(c.closes);
      expect(segments.map((s) => s.prerollSamples)).toEqual(c.preroll);
      expect(segments.map((s) => s.openedBy)).toEqual(c.openedBy);
      expect(segments.map((s) => s.index)).toEqual(c.closes.map((_, i) => i));
      for (const s of segments) expectExactSplice(s);
      expectTiles(segments);
      expectOpensMatch(events, segments);
      // A piece that continues a split opens at the split itself: live audio starts at its first sample.
      segments.slice(1).forEach((s, i) => {
        if (segments[i]!.closeReason === 'max-duration' && s.prerollSamples === 0) expect(s.vadStartSample).toBe(segments[i]!.endSample);
      });
    });
  }

  it('each piece reports its own peak probability', () => {
    const { segments } = run([...rep(0.1, 30), ...rep(0.95, SPLIT), ...rep(0.6, SPLIT), ...rep(0.7, 10), ...rep(0.1, 25)]);
    expect(segments.map((s) => s.maxProb)).toEqual([0.95, 0.6, 0.7]);
    expectTiles(segments);
  });

  // The tail after a split is dropped only when it holds nothing the person said or held the button for.
  const emptyTails: { name: string; script: Step[]; closes: string[] }[] = [
    {
      name: 'the split falls on the last speech frame: the tail is only hangover silence',
      script: [...rep(0.1, 30), ...rep(0.9, SPLIT), ...rep(0.1, 25)],
      closes: ['max-duration'],
    },
    {
      name: 'the button is released right at the split: the tail is empty',
      script: [...rep(0.1, 40), 'down', ...rep(0.1, SPLIT), 'up', ...rep(0.1, 10)],
      closes: ['max-duration'],
    },
    {
      name: 'the stream ends right at a held split',
      script: [...rep(0.1, 40), 'down', ...rep(0.1, SPLIT), 'end'],
      closes: ['max-duration'],
    },
  ];
  for (const c of emptyTails) {
    it(c.name, () => {
      const { segments, events } = run(c.script);
      expect(segments.map((s) => s.closeReason)).toEqual(c.closes);
      const dropped = events.filter((e) => e.type === 'dropped');
      expect(dropped).toHaveLength(1);
      expect(dropped[0]).toMatchObject({ reason: 'too-short', speechMs: 0, startSample: segments[0]!.endSample });
      expect(segments.every((s) => s.pcm.length > 0)).toBe(true);
    });
  }
});

describe('pre-roll after silence is unchanged', () => {
  it('a segment that opens after silence following a split gets its full pre-roll', () => {
    const { segments } = run([...rep(0.1, 30), ...rep(0.9, SPLIT + 50), ...rep(0.1, 40), ...rep(0.9, 20), ...rep(0.1, 25)]);
    expect(segments.map((s) => s.closeReason)).toEqual(['max-duration', 'hangover', 'hangover']);
    const [, b, c] = segments as [Segment, Segment, Segment];
    expect(c.prerollSamples).toBe(FULL_PREROLL);
    expect(c.startSample).toBe(c.vadStartSample - FULL_PREROLL);
    expect(c.startSample).toBeGreaterThanOrEqual(b.endSample);
    expectExactSplice(c);
  });

  it('speech right after a hangover close still gets the full pre-roll (it reaches back only into silence)', () => {
    // 19 silent frames close the first segment; speech starts on the very next frame.
    const { segments } = run([...rep(0.1, 30), ...rep(0.9, 20), ...rep(0.1, 19), ...rep(0.9, 20), ...rep(0.1, 25)]);
    expect(segments.map((s) => s.closeReason)).toEqual(['hangover', 'hangover']);
    const [a, b] = segments as [Segment, Segment];
    expect(b.vadStartSample).toBe(a.endSample);
    expect(b.prerollSamples).toBe(FULL_PREROLL);
    // The re-delivered part is the first segment's hangover tail: no speech frame is in it.
    expect(b.startSample).toBeGreaterThanOrEqual(50 * F);
    expectExactSplice(b);
  });

  it('a dropped too-short blip leaves pre-roll free to reach back over it (its audio was never delivered)', () => {
    const { segments, events } = run([...rep(0.1, 30), ...rep(0.9, 5), ...rep(0.1, 19), ...rep(0.9, 20), ...rep(0.1, 25)]);
    expect(events.filter((e) => e.type === 'dropped')).toHaveLength(1);
    expect(segments).toHaveLength(1);
    expect(segments[0]!.prerollSamples).toBe(FULL_PREROLL);
  });
});

/**
 * The pipeline's `open` + `audio` events are what a streaming engine (Deepgram) sends while a segment
 * is open: for each segment, open.pcm followed by every audio frame up to its close must be exactly
 * segment.pcm, so the cloud hears each sample once, in order, and hears the frame a split closed on.
 */
describe('SegmentPipeline streams each segment exactly once', () => {
  async function runPipeline(script: Step[]) {
    const probs = script.filter((s): s is number => typeof s === 'number');
    let k = 0;
    const vad: Vad = { name: 'webrtc', process: async () => probs[k++] ?? 0, reset() {}, close: async () => {} };
    const pipeline = new SegmentPipeline({ vad, segmenter: DEFAULTS });
    let stream: Int16Array[] | null = null;
    const streamed: Int16Array[] = [];
    const segments: Segment[] = [];
    const errors: string[] = [];
    pipeline.on('open', (e) => {
      if (stream) errors.push(`open at ${e.startSample} while a stream is still open`);
      stream = [e.pcm.slice()];
    });
    pipeline.on('audio', (f) => {
      if (!stream) errors.push('audio with no open segment');
      else stream.push(f.slice());
    });
    pipeline.on('segment', (s) => {
      segments.push(s);
      const parts = stream ?? [];
      const all = concatPcm(parts);
      streamed.push(all);
      stream = null;
    });
    pipeline.on('dropped', () => (stream = null));
    pipeline.on('error', (e) => errors.push(e.message));

    // Audio goes in odd-sized chunks so frames straddle pushes, as they do from arecord.
    let pos = 0;
    let pending = 0;
    const flush = async () => {
      const chunk = new Int16Array(pending * F);
      for (let i = 0; i < chunk.length; i++) chunk[i] = sampleAt(pos + i);
      pos += chunk.length;
      pending = 0;
      for (let i = 0; i < chunk.length; i += 700) await pipeline.push(chunk.subarray(i, i + 700));
    };
    for (const step of script) {
      if (typeof step === 'number') {
        pending++;
        continue;
      }
      await flush();
      if (step === 'down') await pipeline.pttDown();
      else if (step === 'up') await pipeline.pttUp();
      else await pipeline.end();
    }
    await flush();
    await pipeline.end();
    return { segments, streamed, errors };
  }

  const cases: { name: string; script: Step[]; closes: string[] }[] = [
    {
      name: 'unbroken speech split twice',
      script: [...rep(0.1, 30), ...rep(0.9, 2 * SPLIT + 100), ...rep(0.1, 25)],
      closes: ['max-duration', 'max-duration', 'hangover'],
    },
    {
      name: 'push-to-talk held past maxSegmentMs',
      script: [...rep(0.1, 40), 'down', ...rep(0.1, SPLIT + 60), 'up', ...rep(0.1, 20)],
      closes: ['max-duration', 'ptt-release'],
    },
    {
      name: 'split on a dip, speech goes on',
      script: [...rep(0.1, 30), ...rep(0.9, SPLIT - 1), 0.2, ...rep(0.9, 100), ...rep(0.1, 25)],
      closes: ['max-duration', 'hangover'],
    },
    { name: 'one short utterance', script: [...rep(0.1, 30), ...rep(0.9, 20), ...rep(0.1, 25)], closes: ['hangover'] },
  ];

  for (const c of cases) {
    it(c.name, async () => {
      const { segments, streamed, errors } = await runPipeline(c.script);
      expect(errors).toEqual([]);
      expect(segments.map((s) => s.closeReason)).toEqual(c.closes);
      expectTiles(segments);
      segments.forEach((s, i) => {
        const got = streamed[i]!;
        expect(got.length, `segment ${i}: samples streamed`).toBe(s.pcm.length);
        expect(
          Buffer.from(got.buffer).equals(Buffer.from(s.pcm.buffer, s.pcm.byteOffset, s.pcm.byteLength)),
          `segment ${i}: streamed audio is the segment`,
        ).toBe(true);
      });
    });
  }
});
