import { INTENT_NAMES } from '../language/intent-types.js';
import { MODES, type Mode } from '../core/effects.js';
import { DEFAULT_FRAMES, DEFAULT_VOICES } from './defaults.js';
import { MAX_NEAR_EDITS } from '../language/near.js';
import {
  BUTTON_GESTURES,
  FRAME_KINDS,
  KIND_FIELDS,
  KITCHEN_FAMILIES,
  VOCABULARIES,
  WORD_VERBS,
  type ButtonGesture,
  type FrameKind,
  type FrameSpec,
  type KitchenFamily,
  type FramesSpec,
  type RuleSpec,
  type VerbSpec,
  type VoiceSpec,
} from './spec.js';
import { normalise } from '../language/text.js';
import { VerbChecker } from './parse-verbs.js';
import { describe, isObject, type Path, type SpecIssue } from './spec-check.js';

/**
 * Validation of router.frames and router.voices as written in YAML. Every problem is reported
 * with its path (router.frames.query.rules.2.pattern: invalid regular expression: ...), all at
 * once, so a technician fixes a config in one round.
 *
 * A frame named like a default (base, query, ...) is laid over that default: settings given
 * replace the default's, and `rules`, if given, replaces the whole list. New frames need `kind`.
 */
/** command/config.ts reads the issues' type from here, beside parseFrames and parseVoices. */
export type { SpecIssue };

const MATCHERS = ['exact', 'prefix', 'pattern', 'intent', 'kitchen', 'near', 'catch-all', 'classifier', 'button'] as const;
const MATCHER_LIST = 'exact, prefix, pattern, intent, kitchen, near, catch-all, classifier or button';
const RULE_KEYS = new Set<string>([...MATCHERS, 'do', 'when', 'timeoutMs', 'labels', 'maxEdits', 'skip', 'whole', 'lang']);
const FRAME_NAME = /^[a-z][a-z0-9-]*$/;

class Checker extends VerbChecker {
  phrases(v: unknown, path: Path, allowVocab: boolean): string[] | undefined {
    const list = typeof v === 'string' ? [v] : v;
    if (!Array.isArray(list) || list.length === 0) {
      this.add(path, 'must be a phrase or a non-empty list of phrases');
      return undefined;
    }
    const out: string[] = [];
    list.forEach((p, i) => {
      if (typeof p !== 'string' || !p.trim()) return this.add([...path, i], 'must be a non-empty phrase');
      if (p.startsWith('@')) {
        if (!allowVocab) return this.add([...path, i], 'vocabularies (@name) are only allowed in exact rules');
        if (!(VOCABULARIES as readonly string[]).includes(p.slice(1))) {
          return this.add([...path, i], `unknown vocabulary "${p}" (known: ${VOCABULARIES.map((n) => '@' + n).join(', ')})`);
        }
        out.push(p);
        return;
      }
      const n = normalise(p);
      if (!n) return this.add([...path, i], `"${p}" has no words once punctuation is stripped`);
      out.push(n);
    });
    return out;
  }

  rule(raw: unknown, path: Path, kind: FrameKind): RuleSpec | undefined {
    if (raw === 'check-parent' || raw === 'check_parent') return 'check-parent';
    if (!isObject(raw)) {
      this.add(path, `must be check-parent or a rule mapping (${MATCHER_LIST}, with do); got ${describe(raw)}`);
      return undefined;
    }
    const matchers = MATCHERS.filter((m) => m in raw);
    for (const k of Object.keys(raw)) if (!RULE_KEYS.has(k)) this.add([...path, k], 'unknown setting');
    if (matchers.length !== 1) {
      this.add(path, matchers.length ? `a rule has one matcher; got ${matchers.join(' and ')}` : `missing a matcher: ${MATCHER_LIST}`);
      return undefined;
    }
    const m = matchers[0]!;
    let when: Mode | undefined;
    if (raw.when !== undefined) {
      if (!MODES.includes(raw.when as Mode)) this.add([...path, 'when'], `must be one of: ${MODES.join(', ')}`);
      else when = raw.when as Mode;
    }
    let lang: string | undefined;
    if (raw.lang !== undefined) {
      if (m === 'button' || m === 'classifier') this.add([...path, 'lang'], 'only rules that match words have this setting');
      else if (typeof raw.lang !== 'string' || !/^[a-z]{2,3}(?:-[a-z0-9]+)*$/.test(raw.lang))
        this.add([...path, 'lang'], 'must be a language pack code such as es or pt-br');
      else lang = raw.lang;
    }
    const withWhen = <T extends object>(r: T): T => ({ ...r, ...(when ? { when } : {}), ...(lang ? { lang } : {}) });
    if (m !== 'classifier') {
      for (const k of ['timeoutMs', 'labels']) if (k in raw) this.add([...path, k], 'only classifier rules have this setting');
    }
    if (m !== 'near') {
      for (const k of ['maxEdits', 'skip']) if (k in raw) this.add([...path, k], 'only near rules have this setting');
    }
    if (m !== 'intent' && 'whole' in raw) this.add([...path, 'whole'], 'only intent rules have this setting');
    if ('whole' in raw && typeof raw.whole !== 'boolean') this.add([...path, 'whole'], 'must be true or false');
    switch (m) {
      case 'exact':
      case 'prefix':
      case 'intent': {
        const phrases = this.phrases(raw[m], [...path, m], m === 'exact');
        if (m === 'intent' && phrases) {
          phrases.forEach((p, i) => {
            if (!INTENT_NAMES.includes(p.replace(/ /g, '-'))) this.add([...path, m, i], `unknown intent "${p}" (known: ${INTENT_NAMES.join(', ')})`);
          });
        }
        const verbs = this.verbs(raw.do, [...path, 'do'], kind, raw);
        if (!phrases || !verbs) return undefined;
        const list = m === 'intent' ? phrases.map((p) => p.replace(/ /g, '-')) : phrases;
        const whole = m === 'intent' && raw.whole === true ? { whole: true } : {};
        return withWhen({ [m]: list, ...whole, do: verbs } as RuleSpec & object);
      }
      case 'pattern': {
        const p = raw.pattern;
        if (typeof p !== 'string' || !p) {
          this.add([...path, 'pattern'], 'must be a regular expression (a string)');
          return undefined;
        }
        try {
          new RegExp(p, 'u');
        } catch (err) {
          this.add([...path, 'pattern'], `invalid regular expression: ${(err as Error).message}`);
          return undefined;
        }
        const verbs = this.verbs(raw.do, [...path, 'do'], kind, raw);
        return verbs ? withWhen({ pattern: p, do: verbs }) : undefined;
      }
      case 'kitchen': {
        const fams = Array.isArray(raw.kitchen) ? raw.kitchen : [raw.kitchen];
        const ok = fams.length > 0 && fams.every((f) => KITCHEN_FAMILIES.includes(f as KitchenFamily));
        if (!ok) this.add([...path, 'kitchen'], `must list one or more of: ${KITCHEN_FAMILIES.join(', ')}`);
        const verbs = this.verbs(raw.do, [...path, 'do'], kind, raw);
        return ok && verbs ? withWhen({ kitchen: fams as KitchenFamily[], do: verbs }) : undefined;
      }
      case 'near': {
        const phrases = this.phrases(raw.near, [...path, 'near'], false);
        let maxEdits: number | undefined;
        if (raw.maxEdits !== undefined) {
          const v = raw.maxEdits;
          if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > MAX_NEAR_EDITS)
            this.add([...path, 'maxEdits'], `must be a whole number from 0 to ${MAX_NEAR_EDITS}`);
          else maxEdits = v;
        }
        let skip: string[] | undefined;
        if (raw.skip !== undefined) {
          if (!Array.isArray(raw.skip)) this.add([...path, 'skip'], 'must be a list of words');
          else {
            skip = [];
            raw.skip.forEach((w, i) => {
              const n = typeof w === 'string' ? normalise(w) : '';
              if (!n || n.includes(' ')) this.add([...path, 'skip', i], 'must be one word');
              else skip!.push(n);
            });
          }
        }
        const verbs = this.verbs(raw.do, [...path, 'do'], kind, raw);
        if (!phrases || !verbs) return undefined;
        return withWhen({ near: phrases, ...(maxEdits !== undefined ? { maxEdits } : {}), ...(skip ? { skip } : {}), do: verbs });
      }
      case 'button': {
        const g = raw.button;
        const ok = BUTTON_GESTURES.includes(g as ButtonGesture);
        if (!ok) this.add([...path, 'button'], `must be one of: ${BUTTON_GESTURES.join(', ')}`);
        const verbs = this.verbs(raw.do, [...path, 'do'], kind, raw);
        let wordless = true;
        (Array.isArray(raw.do) ? raw.do : [raw.do]).forEach((v, i) => {
          if (typeof v === 'string' && WORD_VERBS.includes(v)) {
            this.add(Array.isArray(raw.do) ? [...path, 'do', i] : [...path, 'do'], `"${v}" needs words; a button rule has none`);
            wordless = false;
          }
        });
        return ok && verbs && wordless ? withWhen({ button: g as ButtonGesture, do: verbs }) : undefined;
      }
      case 'catch-all': {
        if (raw['catch-all'] !== true) this.add([...path, 'catch-all'], 'must be true');
        const verbs = this.verbs(raw.do, [...path, 'do'], kind, raw);
        return verbs && raw['catch-all'] === true ? withWhen({ 'catch-all': true as const, do: verbs }) : undefined;
      }
      case 'classifier': {
        const name = raw.classifier;
        if (typeof name !== 'string' || !name) this.add([...path, 'classifier'], 'must name a classifier (e.g. ollama)');
        const t = raw.timeoutMs ?? 3000;
        if (typeof t !== 'number' || !Number.isInteger(t) || t < 1 || t > 60_000)
          this.add([...path, 'timeoutMs'], 'must be a whole number of milliseconds between 1 and 60000');
        let labels: Record<string, VerbSpec[]> | undefined;
        if (raw.labels !== undefined) {
          if (!isObject(raw.labels)) this.add([...path, 'labels'], 'must map each label to what to do');
          else {
            labels = {};
            for (const [label, v] of Object.entries(raw.labels)) {
              const verbs = this.verbs(v, [...path, 'labels', label], kind, raw);
              if (verbs) labels[label] = verbs;
            }
          }
        }
        const verbs = raw.do === undefined ? undefined : this.verbs(raw.do, [...path, 'do'], kind, raw);
        if (raw.do === undefined && raw.labels === undefined) this.add(path, 'a classifier rule needs do (any label) or labels (label → verbs)');
        if (typeof name !== 'string' || !name || typeof t !== 'number') return undefined;
        return withWhen({ classifier: name, timeoutMs: t, ...(verbs ? { do: verbs } : {}), ...(labels ? { labels } : {}) });
      }
    }
  }

  frame(name: string, raw: Record<string, unknown>, base: FrameSpec | undefined, path: Path): FrameSpec | undefined {
    const kind = (raw.kind ?? base?.kind) as FrameKind;
    const known = new Set(['kind', 'rules', 'target', 'silenceMs', 'timeoutMs']);
    for (const k of Object.keys(raw)) if (!known.has(k)) this.add([...path, k], 'unknown setting');
    for (const k of ['target', 'silenceMs', 'timeoutMs']) {
      if (k in raw && !KIND_FIELDS[kind].includes(k)) this.add([...path, k], `a ${kind} frame has no ${k}`);
    }
    const sameKind = base && base.kind === kind;
    const out: FrameSpec = { kind, rules: [], ...(sameKind ? pickFields(base) : {}) };
    if (raw.target !== undefined) {
      if (typeof raw.target !== 'string' || !raw.target) this.add([...path, 'target'], 'must name a target from actions.targets');
      else out.target = raw.target;
    }
    for (const k of ['silenceMs', 'timeoutMs'] as const) {
      if (raw[k] === undefined) continue;
      const v = raw[k];
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 100 || v > 3_600_000)
        this.add([...path, k], 'must be a whole number of milliseconds between 100 and 3600000');
      else out[k] = v;
    }
    if (raw.rules === undefined) {
      if (!sameKind) {
        this.add([...path, 'rules'], `missing: a ${kind} frame${base ? ` replacing the default ${base.kind} frame` : ''} needs its own rules`);
        return undefined;
      }
      out.rules = base.rules;
    } else if (!Array.isArray(raw.rules)) {
      this.add([...path, 'rules'], 'must be a list of rules');
      return undefined;
    } else {
      raw.rules.forEach((r, i) => {
        const rule = this.rule(r, [...path, 'rules', i], kind);
        if (rule !== undefined) out.rules.push(rule);
      });
    }
    if (KIND_FIELDS[kind].includes('target') && !out.target) out.target = kind === 'inventory' ? 'inventory' : 'file';
    if (kind === 'query' && out.silenceMs === undefined) out.silenceMs = 4000;
    if (kind === 'voice' && out.timeoutMs === undefined) out.timeoutMs = 15_000;
    if (kind === 'confirm' && out.timeoutMs === undefined) out.timeoutMs = 10_000;
    return out;
  }
}

function pickFields(f: FrameSpec): Partial<FrameSpec> {
  const out: Partial<FrameSpec> = {};
  if (f.target !== undefined) out.target = f.target;
  if (f.silenceMs !== undefined) out.silenceMs = f.silenceMs;
  if (f.timeoutMs !== undefined) out.timeoutMs = f.timeoutMs;
  return out;
}

/** Validate router.frames (undefined → the defaults). */
export function parseFrames(raw: unknown, defaults: FramesSpec = DEFAULT_FRAMES): { frames: FramesSpec; issues: SpecIssue[] } {
  if (raw === undefined || raw === null) return { frames: defaults, issues: [] };
  if (!isObject(raw)) return { frames: defaults, issues: [{ path: [], message: 'must be a mapping of frame names to frames' }] };

  // Names and kinds first, so a push can name a frame defined later in the file.
  const kinds = new Map<string, FrameKind>();
  for (const [name, f] of Object.entries(defaults)) kinds.set(name, f.kind);
  const pre: SpecIssue[] = [];
  for (const [name, f] of Object.entries(raw)) {
    if (!FRAME_NAME.test(name)) {
      pre.push({ path: [name], message: 'a frame name is lower case letters, digits and hyphens, starting with a letter' });
      continue;
    }
    if (!isObject(f)) {
      pre.push({ path: [name], message: `must be a frame mapping (kind, rules, ...); got ${describe(f)}` });
      continue;
    }
    const kind = f.kind ?? defaults[name]?.kind;
    if (kind === undefined) pre.push({ path: [name, 'kind'], message: `missing: a new frame needs a kind (${FRAME_KINDS.join(', ')})` });
    else if (!FRAME_KINDS.includes(kind as FrameKind)) pre.push({ path: [name, 'kind'], message: `must be one of: ${FRAME_KINDS.join(', ')}` });
    else kinds.set(name, kind as FrameKind);
  }
  const checker = new Checker(new Set(kinds.keys()), kinds);
  checker.issues.push(...pre);
  const frames: FramesSpec = { ...defaults };
  for (const [name, f] of Object.entries(raw)) {
    if (!kinds.has(name) || !isObject(f)) continue;
    const frame = checker.frame(name, f, defaults[name], [name]);
    if (frame) frames[name] = frame;
  }
  if (frames.base?.kind !== 'base') checker.add(['base'], 'the bottom frame must be named base and be of kind base');
  const needsConfirm = Object.values(frames).some((f) => f.rules.some((r) => r !== 'check-parent' && 'do' in r && r.do?.includes('discard')));
  if (needsConfirm && frames.confirm?.kind !== 'confirm')
    checker.add(['confirm'], 'a frame uses discard, which asks through a frame named confirm of kind confirm');
  for (const [name, f] of Object.entries(frames)) {
    if (f.kind === 'base' && name !== 'base') checker.add([name, 'kind'], 'only the frame named base can be of kind base');
  }
  return { frames, issues: checker.issues };
}

/** Validate router.voices: a list of ids, or of {id, say: [...]} (undefined → the defaults). */
export function parseVoices(raw: unknown): { voices: VoiceSpec[]; issues: SpecIssue[] } {
  if (raw === undefined || raw === null) return { voices: DEFAULT_VOICES, issues: [] };
  if (!Array.isArray(raw)) return { voices: [], issues: [{ path: [], message: 'must be a list of voices (an id, or {id, say: [names]})' }] };
  const issues: SpecIssue[] = [];
  const voices: VoiceSpec[] = [];
  raw.forEach((v, i) => {
    if (typeof v === 'string' && v.trim()) {
      const say = normalise(v);
      if (!say) issues.push({ path: [i], message: `"${v}" has no words to say` });
      else voices.push({ id: v.trim(), say: [say] });
      return;
    }
    if (!isObject(v) || typeof v.id !== 'string' || !v.id.trim()) {
      issues.push({ path: [i], message: 'must be a voice id or {id, say: [names]}' });
      return;
    }
    for (const k of Object.keys(v)) if (k !== 'id' && k !== 'say') issues.push({ path: [i, k], message: 'unknown setting' });
    const said = v.say === undefined ? [v.id] : typeof v.say === 'string' ? [v.say] : v.say;
    if (!Array.isArray(said) || said.some((s) => typeof s !== 'string' || !normalise(s))) {
      issues.push({ path: [i, 'say'], message: 'must be a name or a list of names a person says' });
      return;
    }
    voices.push({ id: v.id.trim(), say: (said as string[]).map(normalise) });
  });
  return { voices, issues };
}
