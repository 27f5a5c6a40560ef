import { describe, expect, it } from 'vitest';
import { Segmenter, type SegmenterEvent, type SegmenterOptions } from '../../src/vad/segmenter.js';
import type { Segment } from '../../src/vad/segment.js';

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
        // no audio lost between them: the second's live part starts where the first ended
        expect(b.vadStartSample).toBe(a.endSample);
        expect(b.prerollSamples).toBe(8000);
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
