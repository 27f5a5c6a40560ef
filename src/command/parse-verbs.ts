import { MODES, type Mode } from '../core/effects.js';
import { FRAME_KINDS, GENERIC_VERBS, KIND_VERBS, type FrameKind, type VerbSpec } from './spec.js';
import { REPLIES } from '../language/pack/catalog.js';
import { describe, isObject, type Path, type SpecIssue } from './spec-check.js';

const ACTION_NAME = /^[a-z][a-z0-9-]*(\.[a-z][a-z0-9-]*)*$/;

/**
 * A rule's `do:` as written: each verb checked against the frame kind it is in and the frames that
 * exist, every problem collected with its path. The frame and rule checker (parse-spec.ts) builds
 * on this.
 */
export class VerbChecker {
  readonly issues: SpecIssue[] = [];
  constructor(
    protected readonly frameNames: ReadonlySet<string>,
    protected readonly kinds: ReadonlyMap<string, FrameKind>,
  ) {}

  add(path: Path, message: string): void {
    this.issues.push({ path, message });
  }

  verb(v: unknown, path: Path, kind: FrameKind, rule: Record<string, unknown>): VerbSpec | undefined {
    if (typeof v === 'string') {
      if ((GENERIC_VERBS as readonly string[]).includes(v)) return v;
      if (KIND_VERBS[kind].includes(v)) {
        if (v === 'set-voice' && !(Array.isArray(rule.exact) && rule.exact.includes('@voices'))) {
          this.add(path, 'set-voice needs the rule to match a voice name (exact: ["@voices"])');
          return undefined;
        }
        return v;
      }
      const owners = FRAME_KINDS.filter((k) => KIND_VERBS[k].includes(v));
      if (owners.length) this.add(path, `"${v}" is not available in a ${kind} frame (only in: ${owners.join(', ')})`);
      else
        this.add(
          path,
          `unknown verb "${v}" (known: ${[...GENERIC_VERBS, ...new Set(Object.values(KIND_VERBS).flat())].join(', ')}, or push/mode/say/reply/earcon/timer/action)`,
        );
      return undefined;
    }
    if (!isObject(v)) {
      this.add(path, `must be a verb name or a mapping such as {push: query}; got ${describe(v)}`);
      return undefined;
    }
    const keys = Object.keys(v);
    const key = keys[0];
    if (key === 'action') {
      for (const k of keys) if (k !== 'action' && k !== 'args') this.add([...path, k], 'unknown setting');
      if (typeof v.action !== 'string' || !ACTION_NAME.test(v.action)) {
        this.add([...path, 'action'], 'must be an action name such as timer.set or stop (lower case, dots between parts)');
        return undefined;
      }
      if (v.args === undefined) return { action: v.action };
      if (!isObject(v.args)) {
        this.add([...path, 'args'], 'must be a mapping of argument names to values');
        return undefined;
      }
      for (const [k, a] of Object.entries(v.args)) {
        if (!['string', 'number', 'boolean'].includes(typeof a)) this.add([...path, 'args', k], 'must be a string, number or true/false');
      }
      return { action: v.action, args: v.args as Record<string, string | number | boolean> };
    }
    if (keys.length !== 1) {
      this.add(path, `a verb mapping has one key (push, mode, say, reply, earcon, timer or action); got ${keys.join(', ') || 'none'}`);
      return undefined;
    }
    const value = v[key!];
    switch (key) {
      case 'push': {
        if (typeof value !== 'string' || !this.frameNames.has(value)) {
          this.add([...path, 'push'], `unknown frame ${JSON.stringify(value)} (frames: ${[...this.frameNames].join(', ')})`);
          return undefined;
        }
        const k = this.kinds.get(value);
        if (k === 'base') this.add([...path, 'push'], 'the base frame is the bottom of the stack and cannot be pushed');
        else if (k === 'confirm')
          this.add([...path, 'push'], 'a confirm frame is opened by the frame that needs an answer (inventory discard), not pushed by a rule');
        else return { push: value };
        return undefined;
      }
      case 'mode':
        if (!MODES.includes(value as Mode)) {
          this.add([...path, 'mode'], `must be one of: ${MODES.join(', ')}`);
          return undefined;
        }
        return { mode: value as Mode };
      case 'say':
        if (typeof value !== 'string' || !value.trim()) {
          this.add([...path, 'say'], 'must be the text to speak');
          return undefined;
        }
        return { say: value };
      case 'reply':
        if (typeof value !== 'string' || !(value in REPLIES) || REPLIES[value]!.length > 0) {
          const plain = Object.entries(REPLIES)
            .filter(([, args]) => args.length === 0)
            .map(([k]) => k);
          this.add([...path, 'reply'], `must name a reply that takes nothing, such as ${plain.slice(0, 3).join(', ')} (packs/<lang>/replies.yaml)`);
          return undefined;
        }
        return { reply: value };
      case 'earcon':
        if (typeof value !== 'string' || !/^[a-z][a-z0-9-]*$/.test(value)) {
          this.add([...path, 'earcon'], 'must be an earcon name such as sent or cancelled');
          return undefined;
        }
        return { earcon: value };
      case 'timer':
        if (value !== 'set' && value !== 'cancel' && value !== 'status') {
          this.add([...path, 'timer'], 'must be one of: set, cancel, status');
          return undefined;
        }
        return { timer: value };
      default:
        this.add([...path, key ?? ''], 'unknown verb (push, mode, say, reply, earcon, timer or action)');
        return undefined;
    }
  }

  verbs(v: unknown, path: Path, kind: FrameKind, rule: Record<string, unknown>): VerbSpec[] | undefined {
    if (v === undefined) {
      this.add(path, 'missing: what the rule does (e.g. do: [submit, pop])');
      return undefined;
    }
    const list = Array.isArray(v) ? v : [v];
    if (list.length === 0) {
      this.add(path, 'must name at least one verb');
      return undefined;
    }
    const out: VerbSpec[] = [];
    let ok = true;
    list.forEach((item, i) => {
      const verb = this.verb(item, Array.isArray(v) ? [...path, i] : path, kind, rule);
      if (verb === undefined) ok = false;
      else out.push(verb);
    });
    return ok ? out : undefined;
  }
}
