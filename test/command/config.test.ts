import { describe, expect, it } from 'vitest';
import { parseConfigText, validateConfig } from '../../src/config/load.js';
import { HarkError } from '../../src/core/errors.js';
import { DEFAULT_FRAMES } from '../../src/command/defaults.js';

/** The lines of the error a config produces (without the header line). */
function problems(yaml: string): string[] {
  try {
    parseConfigText(yaml, 'hark.yaml');
  } catch (err) {
    expect(err).toBeInstanceOf(HarkError);
    expect((err as HarkError).exitCode).toBe(2);
    return (err as HarkError).message
      .split('\n')
      .slice(1)
      .map((l) => l.trim());
  }
  throw new Error('config was accepted');
}

describe('router config', () => {
  it('defaults to the shipped frames and vocabulary', () => {
    const cfg = validateConfig({}, 'defaults');
    expect(cfg.router.frames).toEqual(DEFAULT_FRAMES);
    expect(cfg.router.mode).toBe('wake-word');
    expect(cfg.actions.cooldownsMs).toEqual({ stop: 0, repeat: 1500, continue: 1500, generate: 5000 });
    expect(cfg.actions.targets.file).toEqual({ type: 'file', path: 'submissions.jsonl' });
  });

  it('rejects a rule that pushes an unknown frame, naming its path', () => {
    expect(problems('router:\n  frames:\n    base:\n      rules:\n        - exact: [hello]\n          do: {push: qeury}\n')).toEqual([
      expect.stringMatching(/^router\.frames\.base\.rules\.0\.do\.push: unknown frame "qeury" \(frames: base, query, voice, dictation, confirm, inventory\)$/),
    ]);
  });

  it('rejects a bad regular expression, naming its path', () => {
    const yaml = `router:
  frames:
    query:
      rules:
        - exact: go
          do: [submit, pop]
        - check-parent
        - pattern: '^order (?<item>.+'
          do: append
`;
    expect(problems(yaml)).toEqual([expect.stringMatching(/^router\.frames\.query\.rules\.2\.pattern: invalid regular expression: .*/)]);
  });

  it('reports every problem at once', () => {
    const yaml = `router:
  frames:
    base:
      rules:
        - exact: []
          do: say-mode
        - prefix: computer
          do: {push: nowhere}
        - pattern: '(('
          do: pop
        - intent: [stopp]
          do: {action: stop}
        - exact: hi
          do: submit
        - catch-all: true
          when: sometimes
          do: ignore
        - exact: x
          pattern: y
          do: pop
        - 42
        - exact: y
          do: {say: hi, push: query}
    notes:
      rules: []
    query:
      silenceMs: 10
      colour: blue
`;
    expect(problems(yaml)).toEqual([
      'router.frames.notes.kind: missing: a new frame needs a kind (base, query, dictation, voice, confirm, inventory)',
      'router.frames.base.rules.0.exact: must be a phrase or a non-empty list of phrases',
      'router.frames.base.rules.1.do.push: unknown frame "nowhere" (frames: base, query, voice, dictation, confirm, inventory)',
      expect.stringMatching(/^router\.frames\.base\.rules\.2\.pattern: invalid regular expression: /),
      'router.frames.base.rules.3.intent.0: unknown intent "stopp" (known: stop, repeat, continue, start-over, generate, definition, how-to, compare, troubleshoot, question, imperative, statement, other)',
      'router.frames.base.rules.4.do: "submit" is not available in a base frame (only in: query, dictation)',
      'router.frames.base.rules.5.when: must be one of: wake-word, always-listen',
      'router.frames.base.rules.6: a rule has one matcher; got exact and pattern',
      'router.frames.base.rules.7: must be check-parent or a rule mapping (exact, prefix, pattern, intent, kitchen, near, catch-all, classifier or button, with do); got 42',
      'router.frames.base.rules.8.do: a verb mapping has one key (push, mode, say, reply, earcon, timer or action); got say, push',
      'router.frames.query.colour: unknown setting',
      'router.frames.query.silenceMs: must be a whole number of milliseconds between 100 and 3600000',
    ]);
  });

  it('rejects a frame target that is not in actions.targets', () => {
    expect(problems('router:\n  frames:\n    query:\n      target: kitchen-display\n')).toEqual([
      'router.frames.query.target: unknown target "kitchen-display" (actions.targets has: file, inventory, speak)',
    ]);
  });

  it('accepts a webhook target that a frame names', () => {
    const cfg = parseConfigText(
      'router:\n  frames:\n    query:\n      target: display\nactions:\n  targets:\n    display: {type: webhook, url: "http://127.0.0.1:9/x"}\n',
      'hark.yaml',
    );
    expect(cfg.router.frames.query!.target).toBe('display');
    expect(cfg.actions.targets.display).toEqual({ type: 'webhook', url: 'http://127.0.0.1:9/x', timeoutMs: 3000, retries: 2, backoffMs: 500 });
    // The other default targets are still there.
    expect(Object.keys(cfg.actions.targets)).toEqual(['file', 'inventory', 'speak', 'display']);
  });

  it('rejects a webhook without a usable url, and an unknown target type', () => {
    expect(problems('actions:\n  targets:\n    a: {type: webhook, url: "ftp://x"}\n    b: {type: carrier-pigeon}\n')).toEqual([
      'actions.targets.a.url: must be an http:// or https:// URL',
      'actions.targets.b.type: must be file (with path), webhook (with url) or speak',
    ]);
  });

  it('overlays a default frame: settings given replace, the rest stay', () => {
    const cfg = parseConfigText('router:\n  frames:\n    query:\n      silenceMs: 6000\n', 'hark.yaml');
    expect(cfg.router.frames.query).toEqual({ ...DEFAULT_FRAMES.query, silenceMs: 6000 });
    expect(cfg.router.frames.base).toEqual(DEFAULT_FRAMES.base);
  });

  it('normalises phrases so rules match what speech-to-text writes', () => {
    const cfg = parseConfigText('router:\n  frames:\n    base:\n      rules:\n        - exact: ["Hey, Chef!"]\n          do: {say: "yes chef"}\n', 'hark.yaml');
    expect(cfg.router.frames.base!.rules).toEqual([{ exact: ['hey chef'], do: [{ say: 'yes chef' }] }]);
  });

  it('keeps cooldown defaults when one is changed', () => {
    const cfg = parseConfigText('actions:\n  cooldownsMs: {repeat: 3000}\n', 'hark.yaml');
    expect(cfg.actions.cooldownsMs).toEqual({ stop: 0, repeat: 3000, continue: 1500, generate: 5000 });
  });

  it('round-trips: the effective config printed by `hark config` loads back unchanged', async () => {
    const { stringify } = await import('yaml');
    const cfg = validateConfig({}, 'defaults');
    const again = parseConfigText(stringify({ router: cfg.router, actions: cfg.actions }), 'printed.yaml');
    expect(again.router).toEqual(cfg.router);
    expect(again.actions).toEqual(cfg.actions);
  });

  it('refuses to push base or confirm frames from a rule', () => {
    expect(
      problems(
        'router:\n  frames:\n    base:\n      rules:\n        - exact: a\n          do: {push: confirm}\n        - exact: b\n          do: {push: base}\n',
      ),
    ).toEqual([
      'router.frames.base.rules.0.do.push: a confirm frame is opened by the frame that needs an answer (inventory discard), not pushed by a rule',
      'router.frames.base.rules.1.do.push: the base frame is the bottom of the stack and cannot be pushed',
    ]);
  });

  it('set-voice needs the voice vocabulary', () => {
    expect(problems('router:\n  frames:\n    voice:\n      rules:\n        - exact: bob\n          do: set-voice\n')).toEqual([
      'router.frames.voice.rules.0.do: set-voice needs the rule to match a voice name (exact: ["@voices"])',
    ]);
  });
});
