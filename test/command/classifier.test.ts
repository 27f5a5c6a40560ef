import { describe, expect, it } from 'vitest';
import type { Classifier, ClassifierInput, ClassifierVerdict } from '../../src/command/classifier.js';
import { harness } from './harness.js';

/** A classifier whose answers the test hands out, one call at a time. */
class FakeClassifier implements Classifier {
  readonly calls: { input: ClassifierInput; signal: AbortSignal; answer: (v: ClassifierVerdict | null) => void; fail: (e: Error) => void }[] = [];
  classify(input: ClassifierInput, signal: AbortSignal): Promise<ClassifierVerdict | null> {
    return new Promise((resolve, reject) => this.calls.push({ input, signal, answer: resolve, fail: reject }));
  }
}

/** Base: the classifier between an exact rule and a fallback rule that says "fallback". */
function setup(timeoutMs = 3000) {
  const fake = new FakeClassifier();
  const h = harness({
    classifiers: { fake },
    config: {
      router: {
        frames: {
          base: {
            rules: [
              { exact: 'ping', do: { say: 'pong' } },
              { classifier: 'fake', timeoutMs, labels: { order: { say: 'ordering {item}' }, help: { say: 'helping' } } },
              { 'catch-all': true, do: { say: 'fallback {rest}' } },
            ],
          },
        },
      },
    },
  });
  return { h, fake };
}

const flush = () => new Promise<void>((r) => setImmediate(r));

describe('classifier rule', () => {
  it('is not asked when an earlier rule matches', () => {
    const { h, fake } = setup();
    h.say('ping');
    expect(fake.calls).toHaveLength(0);
    expect(h.spoken()).toEqual(['pong']);
    expect(h.core.router.busy).toBe(false);
  });

  it('handles the utterance with the verbs of the label it answers, slots filled', async () => {
    const { h, fake } = setup();
    h.say('two coffees please');
    expect(h.core.router.busy).toBe(true);
    expect(fake.calls[0]!.input).toEqual(expect.objectContaining({ text: 'two coffees please', norm: 'two coffees please', frame: 'base', stack: ['base'] }));
    fake.calls[0]!.answer({ label: 'order', slots: { item: 'coffee' } });
    await h.core.idle();
    expect(h.spoken()).toEqual(['ordering coffee']);
    expect(h.of('classifier')).toEqual([expect.objectContaining({ name: 'fake', outcome: 'label', label: 'order' })]);
  });

  it('falls through to the next rule on null or an unknown label', async () => {
    const { h, fake } = setup();
    h.say('hello');
    fake.calls[0]!.answer(null);
    await h.core.idle();
    h.say('goodbye');
    fake.calls[1]!.answer({ label: 'weather' });
    await h.core.idle();
    expect(h.spoken()).toEqual(['fallback hello', 'fallback goodbye']);
  });

  it('times out on the clock: aborts the call and falls through', async () => {
    const { h, fake } = setup(2000);
    h.say('slow one', 1000);
    await flush();
    h.clock.advanceTo(2999);
    await flush();
    expect(h.spoken()).toEqual([]);
    expect(fake.calls[0]!.signal.aborted).toBe(false);
    h.clock.advanceTo(3000);
    await h.core.idle();
    expect(fake.calls[0]!.signal.aborted).toBe(true);
    expect(h.spoken()).toEqual(['fallback slow one']);
    expect(h.of('classifier')).toEqual([expect.objectContaining({ outcome: 'timeout', ms: 2000 })]);
    // A late answer changes nothing.
    fake.calls[0]!.answer({ label: 'help' });
    await flush();
    expect(h.spoken()).toEqual(['fallback slow one']);
  });

  it('falls through when the classifier fails, and logs it', async () => {
    const { h, fake } = setup();
    h.say('boom');
    fake.calls[0]!.fail(new Error('model not loaded'));
    await h.core.idle();
    expect(h.spoken()).toEqual(['fallback boom']);
    expect(h.log.lines.join('\n')).toContain('model not loaded');
  });

  it('keeps order: later utterances wait behind the one being classified', async () => {
    const { h, fake } = setup();
    h.say('first');
    h.say('ping');
    h.say('second');
    expect(h.spoken()).toEqual([]);
    fake.calls[0]!.answer({ label: 'help' });
    await flush();
    await flush();
    // "ping" ran right after, then "second" reached the classifier and waits again.
    expect(h.spoken()).toEqual(['helping', 'pong']);
    expect(fake.calls).toHaveLength(2);
    fake.calls[1]!.answer(null);
    await h.core.idle();
    expect(h.spoken()).toEqual(['helping', 'pong', 'fallback second']);
  });

  it('drops the utterance if its frame closed while waiting', async () => {
    const fake = new FakeClassifier();
    const h = harness({
      classifiers: { fake },
      config: {
        router: {
          frames: {
            query: {
              silenceMs: 1000,
              rules: [
                { classifier: 'fake', timeoutMs: 5000, do: { say: 'classified' } },
                { 'catch-all': true, do: 'append' },
              ],
            },
          },
        },
      },
    });
    h.say('computer', 0);
    h.say('something', 100);
    h.clock.advanceTo(1100); // silence timer pops the query
    fake.calls[0]!.answer({ label: 'x' });
    await h.core.idle();
    expect(h.spoken()).toEqual([]);
    expect(h.of('ignored')).toEqual([expect.objectContaining({ frame: 'query', reason: 'the frame closed while the classifier ran' })]);
  });

  it('naming a classifier that is not available fails at start-up with the rule path', () => {
    expect(() => harness({ config: { router: { frames: { query: { rules: [{ classifier: 'ollama', do: 'append' }] } } } } })).toThrow(
      'router.frames.query.rules.0.classifier: no classifier named "ollama" is available (available: none)',
    );
  });
});
