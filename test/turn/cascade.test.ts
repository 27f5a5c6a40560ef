import { describe, expect, it } from 'vitest';
import { Bus } from '../../src/core/bus.js';
import { VirtualClock } from '../../src/core/clock.js';
import { parseConfigText } from '../../src/config/load.js';
import { answerPlaysAfterMs, DEFAULT_CASCADE_TIMINGS, ResponseCascade, type CascadeEvent } from '../../src/turn/cascade.js';
import { SpeechQueue } from '../../src/speech/queue.js';
import { SimulatedOutput } from '../../src/speech/simulated-output.js';

/** A promise the test settles by hand. */
function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((a, b) => ((resolve = a), (reject = b)));
  return { promise, resolve, reject };
}
const flush = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};

/**
 * A cascade whose model, TTS and player are hand-driven: each call is logged with the clock time,
 * and resolves immediately unless the test holds it.
 */
function rig(opts: { hold?: ('model' | 'render' | 'play')[] } = {}) {
  const clock = new VirtualClock();
  const calls: string[] = [];
  const events: CascadeEvent[] = [];
  const held: Record<string, ReturnType<typeof deferred<string>>[]> = { model: [], render: [], play: [] };
  const signals: AbortSignal[] = [];
  let stops = 0;
  const step =
    (name: 'model' | 'render' | 'play', value: (x: string) => string) =>
    async (x: string, ...rest: unknown[]) => {
      const signal = rest[rest.length - 1] as AbortSignal;
      signals.push(signal);
      calls.push(`${clock.now()} ${name} ${x}`);
      if (opts.hold?.includes(name)) {
        const d = deferred<string>();
        held[name]!.push(d);
        return d.promise;
      }
      return value(x);
    };
  const cascade = new ResponseCascade<string, string, string>({
    clock,
    steps: {
      model: step('model', (q) => `answer to ${q}`),
      render: step('render', (a) => `audio of ${a}`),
      play: step('play', () => 'played'),
      stopPlayback: () => void stops++,
    },
    onEvent: (e) => events.push(e),
  });
  const advance = async (ms: number) => {
    clock.advanceBy(ms);
    await flush();
  };
  return { clock, cascade, calls, events, held, signals, advance, stops: () => stops };
}

describe('response cascade timings', () => {
  it('starts the model at 0.5 s, renders at 1.5 s and plays at 2.0 s after the end of speech', async () => {
    const r = rig({ hold: ['play'] });
    r.cascade.start('what is on the list');
    await r.advance(499);
    expect(r.calls).toEqual([]);
    expect(r.cascade.stage).toBe('waiting');
    await r.advance(1);
    expect(r.calls).toEqual(['500 model what is on the list']);
    await r.advance(999);
    expect(r.calls).toHaveLength(1);
    expect(r.cascade.stage).toBe('thinking');
    await r.advance(1);
    expect(r.calls[1]).toBe('1500 render answer to what is on the list');
    await r.advance(499);
    expect(r.calls).toHaveLength(2);
    await r.advance(1);
    expect(r.calls[2]).toBe('2000 play audio of answer to what is on the list');
    expect(r.cascade.stage).toBe('playing');
    r.held.play[0]!.resolve('done');
    await flush();
    expect(r.cascade.busy).toBe(false);
    expect(r.events.map((e) => `${e.type}${'stage' in e && e.type === 'stage' ? `:${e.stage}` : ''}@${e.atMs}`)).toEqual([
      'stage:thinking@500',
      'stage:rendering@1500',
      'stage:playing@2000',
      'done@2000',
    ]);
  });

  it('a late step makes the next one wait for it, never skip it', async () => {
    const r = rig({ hold: ['model', 'render'] });
    r.cascade.start('q');
    await r.advance(1800);
    expect(r.calls).toEqual(['500 model q']);
    r.held.model[0]!.resolve('a');
    await flush();
    expect(r.calls[1]).toBe('1800 render a'); // render was due at 1500 and starts as soon as the answer is in
    await r.advance(500);
    expect(r.calls).toHaveLength(2);
    r.held.render[0]!.resolve('pcm');
    await flush();
    expect(r.calls[2]).toBe('2300 play pcm');
  });

  it.each([0, 1200, 1999, 2000, 2300, 4100])(
    'an answer ready %i ms after the end of speech plays when answerPlaysAfterMs says (replay times read-backs by it)',
    async (readyMs) => {
      const r = rig({ hold: ['render'] });
      r.cascade.start('q');
      await r.advance(Math.max(DEFAULT_CASCADE_TIMINGS.renderMs, readyMs));
      r.held.render[0]!.resolve('pcm');
      await flush();
      await r.advance(Math.max(0, DEFAULT_CASCADE_TIMINGS.playMs - r.clock.now()));
      const played = r.calls.find((c) => c.endsWith(' play pcm'));
      expect(played).toBe(`${answerPlaysAfterMs(DEFAULT_CASCADE_TIMINGS, Math.max(DEFAULT_CASCADE_TIMINGS.renderMs, readyMs))} play pcm`);
    },
  );

  it('counts from the end of speech, not from when the transcript arrived', async () => {
    const r = rig();
    r.clock.advanceTo(10_000);
    r.cascade.start('q', { endOfSpeechAt: 9_200 });
    await r.advance(0);
    expect(r.calls).toEqual(['10000 model q']);
    await r.advance(700);
    expect(r.calls[1]).toBe('10700 render answer to q');
    await r.advance(500);
    expect(r.calls[2]).toBe('11200 play audio of answer to q');
  });

  it('takes its timings from the config, checked for order', () => {
    const c = parseConfigText('cascade:\n  modelMs: 300\n  renderMs: 900\n', 'hark.yaml');
    expect(c.cascade).toEqual({ modelMs: 300, renderMs: 900, playMs: 2000 });
    expect(() => parseConfigText('cascade:\n  renderMs: 2500\n', 'hark.yaml')).toThrow(/cascade\.playMs: must not be below cascade\.renderMs/);
    expect(() => new ResponseCascade({ clock: new VirtualClock(), timings: { modelMs: 600, renderMs: 500, playMs: 2000 }, steps: {} as never })).toThrow(
      /modelMs <= renderMs <= playMs/,
    );
  });
});

describe('response cascade: the person speaks again', () => {
  it('before the model starts: timers cleared, nothing runs', async () => {
    const r = rig();
    r.cascade.start('q');
    await r.advance(300);
    expect(r.cascade.interrupt('speech')).toBe(true);
    await r.advance(5000);
    expect(r.calls).toEqual([]);
    expect(r.clock.pending()).toBe(0);
    expect(r.events).toEqual([{ type: 'cancelled', generation: 1, stage: 'waiting', reason: 'speech', atMs: 300 }]);
  });

  it('while the model works: its answer is stale when it comes, and nothing is rendered or played', async () => {
    const r = rig({ hold: ['model'] });
    r.cascade.start('q');
    await r.advance(600);
    r.cascade.interrupt('speech');
    expect(r.signals[0]!.aborted).toBe(true);
    r.held.model[0]!.resolve('late answer');
    await r.advance(5000);
    expect(r.calls).toEqual(['500 model q']);
    expect(r.events.at(-1)).toMatchObject({ type: 'cancelled', stage: 'thinking' });
  });

  it('while TTS renders: the stale audio never plays, even after a new turn started', async () => {
    const r = rig({ hold: ['render', 'play'] });
    r.cascade.start('first');
    await r.advance(1600);
    r.cascade.interrupt('speech');
    const second = r.cascade.start('second');
    expect(second).toBeGreaterThan(1);
    // the first turn's audio arrives during the second turn
    r.held.render[0]!.resolve('STALE');
    await r.advance(1500);
    r.held.render[1]!.resolve('fresh');
    await r.advance(500);
    expect(r.calls.filter((c) => c.includes('play'))).toEqual(['3600 play fresh']);
  });

  it('while playing: playback is stopped at once and the turn is over', async () => {
    const r = rig({ hold: ['play'] });
    r.cascade.start('q');
    await r.advance(2100);
    expect(r.cascade.stage).toBe('playing');
    r.cascade.interrupt('barge-in');
    expect(r.stops()).toBe(1);
    expect(r.cascade.busy).toBe(false);
    r.held.play[0]!.resolve('stopped');
    await flush();
    expect(r.events.map((e) => e.type)).toEqual(['stage', 'stage', 'stage', 'cancelled']);
  });

  it('interrupting when idle does nothing', () => {
    const r = rig();
    expect(r.cascade.interrupt('speech')).toBe(false);
    expect(r.events).toEqual([]);
  });

  it('a failing step ends the turn with the reason, and nothing later runs', async () => {
    const r = rig({ hold: ['render'] });
    r.cascade.start('q');
    await r.advance(1500);
    r.held.render[0]!.reject(new Error('espeak-ng is not installed'));
    await flush();
    await r.advance(1000);
    expect(r.calls.some((c) => c.includes('play'))).toBe(false);
    expect(r.events.at(-1)).toEqual({ type: 'failed', generation: 1, stage: 'rendering', error: 'espeak-ng is not installed', atMs: 1500 });
    expect(r.cascade.busy).toBe(false);
  });
});

describe('response cascade through the speech queue', () => {
  it('plays the answer on the speaker at 2 s, and speech during playback silences it', async () => {
    const clock = new VirtualClock();
    const bus = new Bus();
    const output = new SimulatedOutput({ clock });
    const queue = new SpeechQueue({ output, clock, bus });
    const said: string[] = [];
    bus.onAny((type, p) => said.push(`${clock.now()} ${type}${type === 'speak.stopped' ? ` ${(p as { reason: string }).reason}` : ''}`));
    const cascade = new ResponseCascade<string, string, Int16Array>({
      clock,
      steps: {
        model: async () => 'three onions and a leek',
        render: async () => new Int16Array(16),
        play: (pcm, text) => queue.clip(pcm, text, { priority: 'readback' }).done,
        stopPlayback: () => queue.stop('barge-in'),
      },
    });
    cascade.start('read it back');
    for (let t = 0; t < 2500; t += 100) {
      clock.advanceBy(100);
      await flush();
    }
    expect(queue.isSpeaking).toBe(true);
    cascade.interrupt('barge-in');
    expect(queue.isSpeaking).toBe(false);
    expect(said).toEqual(['2000 speak.start', '2500 speak.stopped barge-in']);
  });
});
