import './events.js';
import type { Bus } from '../core/bus.js';
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/log.js';
import { ButtonGestures, type ButtonEffect, type ButtonSettings } from './button.js';
import type { GpioDriver } from './driver.js';

export interface ButtonTargets {
  /** hark is saying something (SpeechQueue.isPlaying: an earcon counts, the press should silence it too). */
  isSpeaking(): boolean;
  /** Silence hark (SpeechQueue.stop; also interrupt the cascade). */
  stopSpeaking(reason: string): void;
  /** Open a push-to-talk segment now (SegmentPipeline.pttDown). */
  pttDown(): void;
  /**
   * Close it now, with no hangover (SegmentPipeline.pttUp). `cancelled`: it was a tap that stopped
   * hark or a hold that toggled mute, so the segment it produces should be dropped, not transcribed.
   */
  pttUp(cancelled: boolean): void;
  /** Close or reopen the microphone. */
  setMuted(muted: boolean): void;
  /**
   * A tap while hark is quiet: the top frame may take it (dictation and inventory end on a tap).
   * True when taken; the push-to-talk segment the tap itself opened is then not transcribed.
   */
  tap?(): boolean;
}

/**
 * The button from driver to actions: raw levels from the driver go through the pure gesture logic,
 * each gesture goes on the bus (button.*, mute) and to its target.
 */
export function wireButton(opts: {
  driver: GpioDriver;
  clock: Clock;
  bus: Bus;
  settings: ButtonSettings;
  targets: ButtonTargets;
  logger?: Logger;
  muted?: boolean;
}): ButtonGestures {
  const { driver, bus, targets, logger } = opts;
  const initiallyPressed = driver.readButton();
  if (initiallyPressed) {
    logger?.warn(
      'the button reads pressed at start-up: ignored until released (stuck button, or no pull-up: add gpio=<pin>=ip,pu to /boot/firmware/config.txt)',
    );
  }
  const gestures = new ButtonGestures({
    settings: opts.settings,
    clock: opts.clock,
    isSpeaking: () => targets.isSpeaking(),
    initiallyPressed,
    ...(opts.muted !== undefined ? { muted: opts.muted } : {}),
    onEffect: (e: ButtonEffect) => {
      switch (e.type) {
        case 'down':
          return bus.emit('button.down', { muted: gestures.muted });
        case 'up':
          return bus.emit('button.up', { heldMs: e.heldMs });
        case 'tap':
          bus.emit('button.tap', { heldMs: e.heldMs, whileSpeaking: e.whileSpeaking, muted: e.muted });
          // A tap that silenced hark was a "stop"; only a tap on a quiet hark is for the frame.
          if (!e.whileSpeaking && !e.muted) targets.tap?.();
          return;
        case 'hold':
          return bus.emit('button.hold', { heldMs: e.heldMs });
        case 'barge-in':
          return targets.stopSpeaking('button');
        case 'ptt-start':
          return targets.pttDown();
        case 'ptt-end':
          return targets.pttUp(e.cancelled);
        case 'mute':
          targets.setMuted(e.muted);
          return bus.emit('mute', { muted: e.muted, by: 'button' });
      }
    },
  });
  driver.onButton((pressed) => gestures.level(pressed));
  return gestures;
}
