import type { CompiledRule } from './compile.js';
import type { Effect } from '../core/effects.js';
import { BaseFrame, type Frame, type FrameHost } from './frame.js';
import { DictationFrame } from './frames/dictation.js';
import { InventoryFrame } from './frames/inventory.js';
import { QueryFrame } from './frames/query.js';
import { VoiceFrame } from './frames/voice.js';
import type { FramesSpec } from './spec.js';

/**
 * The frames, bottom to top, and their lifecycle: a frame is made from its spec, pushed (the one
 * below is covered), popped with everything above it (the one below uncovered); the base frame is
 * never popped. Every change is announced as a `stack` effect.
 */
export class FrameStack {
  readonly frames: Frame[] = [];

  constructor(
    private readonly specs: FramesSpec,
    private readonly compiled: ReadonlyMap<string, CompiledRule[]>,
    private readonly host: FrameHost,
    private readonly emit: (e: Effect) => void,
  ) {}

  get top(): Frame {
    return this.frames[this.frames.length - 1]!;
  }

  get names(): string[] {
    return this.frames.map((f) => f.name);
  }

  create(name: string): Frame {
    const spec = this.specs[name];
    const rules = this.compiled.get(name);
    if (!spec || !rules) throw new Error(`no frame named ${name}`);
    switch (spec.kind) {
      case 'base':
        return new BaseFrame(name, spec, rules, this.host);
      case 'query':
        return new QueryFrame(name, spec, rules, this.host);
      case 'dictation':
        return new DictationFrame(name, spec, rules, this.host);
      case 'inventory':
        return new InventoryFrame(name, spec, rules, this.host);
      case 'voice':
        return new VoiceFrame(name, spec, rules, this.host);
      case 'confirm':
        // Confirm frames carry a pending action; they are opened through confirm().
        throw new Error(`frame ${name} is a confirm frame; open it with confirm()`);
    }
  }

  /** The bottom frame, once, at start. */
  base(frame: Frame): void {
    this.frames.push(frame);
  }

  push(frame: Frame): void {
    this.top.cover();
    this.frames.push(frame);
    this.emit({ type: 'stack', frames: this.names });
    frame.enter();
  }

  /** Pop this frame and everything above it (no-op if it is already gone, or is the base). */
  popFrom(frame: Frame): void {
    const at = this.frames.indexOf(frame);
    if (at <= 0) return;
    for (let i = this.frames.length - 1; i >= at; i--) this.frames[i]!.exit();
    this.frames.length = at;
    this.emit({ type: 'stack', frames: this.names });
    this.frames[at - 1]!.uncover();
  }

  /** Is a frame of this name open above `frame`? */
  openAbove(frame: Frame, name: string): boolean {
    for (let i = this.frames.indexOf(frame) + 1; i < this.frames.length; i++) if (this.frames[i]!.name === name) return true;
    return false;
  }
}
