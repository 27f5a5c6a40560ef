import { describe, expect, it } from 'vitest';
import { Bus } from '../../src/core/bus.js';
import { VirtualClock } from '../../src/core/clock.js';
import { memoryLogger } from '../../src/core/log.js';
import { ButtonGestures, type ButtonEffect } from '../../src/gpio/button.js';
import { wireButton } from '../../src/gpio/button-controller.js';
import { SimulatedGpio } from '../../src/gpio/simulated-driver.js';

const SETTINGS = { debounceMs: 30, tapMaxMs: 400, muteHoldMs: 5000 };

function rig(opts: { speaking?: boolean; initiallyPressed?: boolean; debounceMs?: number } = {}) {
  const clock = new VirtualClock();
  const out: string[] = [];
  let speaking = opts.speaking ?? false;
  const b = new ButtonGestures({
    settings: { ...SETTINGS, ...(opts.debounceMs !== undefined ? { debounceMs: opts.debounceMs } : {}) },
    clock,
    isSpeaking: () => speaking,
    ...(opts.initiallyPressed ? { initiallyPressed: true } : {}),
    onEffect: (e: ButtonEffect) => out.push(`${clock.now()} ${show(e)}`),
  });
  /** Raw levels: [ms from now, pressed] */
  const levels = (...steps: [number, boolean][]) => {
    for (const [at, level] of steps) {
      clock.advanceBy(at);
      b.level(level);
    }
  };
  return { clock, b, out, levels, setSpeaking: (s: boolean) => (speaking = s) };
}

function show(e: ButtonEffect): string {
  switch (e.type) {
    case 'up':
    case 'hold':
      return `${e.type} ${e.heldMs}`;
    case 'tap':
      return `tap ${e.heldMs}${e.whileSpeaking ? ' speaking' : ''}${e.muted ? ' muted' : ''}`;
    case 'ptt-end':
      return `ptt-end${e.cancelled ? ' cancelled' : ''}`;
    case 'mute':
      return `mute ${e.muted}`;
    default:
      return e.type;
  }
}
describe('button gestures', () => {
  it('contact bounce is one press, counted once the level has held for 30 ms', () => {
    const r = rig();
    r.levels([0, true], [4, false], [3, true], [5, false], [2, true]);
    r.clock.advanceBy(29);
    expect(r.out).toEqual([]);
    r.clock.advanceBy(1);
    expect(r.out).toEqual(['44 down', '44 ptt-start']);
  });

  it('a glitch shorter than the debounce is nothing', () => {
    const r = rig();
    r.levels([0, true], [20, false]);
    r.clock.advanceBy(1000);
    expect(r.out).toEqual([]);
  });

  it('press and hold is push-to-talk: open at the press, closed at the release', () => {
    const r = rig();
    r.levels([0, true], [2000, false]);
    r.clock.advanceBy(100);
    expect(r.out).toEqual(['30 down', '30 ptt-start', '2030 up 2000', '2030 ptt-end']);
  });

  it('a tap while hark speaks stops it at the press, and its push-to-talk segment is dropped', () => {
    const r = rig({ speaking: true });
    r.levels([0, true], [150, false]);
    r.clock.advanceBy(100);
    expect(r.out).toEqual(['30 down', '30 barge-in', '30 ptt-start', '180 up 150', '180 tap 150 speaking', '180 ptt-end cancelled']);
  });

  it('holding the button while hark speaks stops it and talks over it', () => {
    const r = rig({ speaking: true });
    r.levels([0, true], [1500, false]);
    r.clock.advanceBy(100);
    expect(r.out).toEqual(['30 down', '30 barge-in', '30 ptt-start', '1530 up 1500', '1530 ptt-end']);
  });

  it('a tap while hark is silent is a short push-to-talk (the segmenter judges its length)', () => {
    const r = rig();
    r.levels([0, true], [200, false]);
    r.clock.advanceBy(100);
    expect(r.out).toEqual(['30 down', '30 ptt-start', '230 up 200', '230 tap 200', '230 ptt-end']);
  });

  it('a 5 s hold toggles mute while still held; the next 5 s hold unmutes', () => {
    const r = rig();
    r.levels([0, true]);
    r.clock.advanceBy(5029);
    expect(r.out).toEqual(['30 down', '30 ptt-start']);
    r.clock.advanceBy(1);
    expect(r.out.slice(2)).toEqual(['5030 hold 5000', '5030 ptt-end cancelled', '5030 mute true']);
    r.levels([1000, false]);
    r.clock.advanceBy(100);
    expect(r.out.slice(5)).toEqual(['6060 up 6030']);
    expect(r.b.muted).toBe(true);
    // muted: a press does not open the microphone; a tap says so; a long hold unmutes
    r.out.length = 0;
    r.levels([0, true], [100, false]);
    r.clock.advanceBy(100);
    expect(r.out).toEqual(['6160 down', '6260 up 100', '6260 tap 100 muted']);
    r.out.length = 0;
    r.levels([0, true]);
    r.clock.advanceBy(6000);
    expect(r.out).toEqual(['6360 down', '11360 hold 5000', '11360 mute false']);
  });

  it('a button that reads pressed at start-up is ignored until it is released', () => {
    const r = rig({ initiallyPressed: true });
    expect(r.b.pressed).toBe(false);
    r.clock.advanceBy(10_000);
    r.levels([0, false]);
    r.clock.advanceBy(100);
    expect(r.out).toEqual([]);
    r.levels([0, true], [500, false]);
    r.clock.advanceBy(100);
    expect(r.out).toEqual(['10130 down', '10130 ptt-start', '10630 up 500', '10630 ptt-end']);
  });

  it('with no debounce, levels count at once', () => {
    const r = rig({ debounceMs: 0 });
    r.levels([0, true], [600, false]);
    expect(r.out).toEqual(['0 down', '0 ptt-start', '600 up 600', '600 ptt-end']);
  });
});

describe('button wired to hark', () => {
  it('puts gestures on the bus and calls the targets; the simulated driver is the button', () => {
    const clock = new VirtualClock();
    const bus = new Bus();
    const driver = new SimulatedGpio();
    const calls: string[] = [];
    const events: string[] = [];
    bus.onAny((type, p) => events.push(`${type} ${JSON.stringify(p)}`));
    let speaking = true;
    wireButton({
      driver,
      clock,
      bus,
      settings: SETTINGS,
      targets: {
        isSpeaking: () => speaking,
        stopSpeaking: (r) => {
          speaking = false;
          calls.push(`stop ${r}`);
        },
        pttDown: () => calls.push('pttDown'),
        pttUp: (c) => calls.push(`pttUp${c ? ' cancelled' : ''}`),
        setMuted: (m) => calls.push(`muted ${m}`),
      },
    });
    driver.press();
    clock.advanceBy(100);
    driver.release();
    clock.advanceBy(100);
    expect(calls).toEqual(['stop button', 'pttDown', 'pttUp cancelled']);
    expect(events).toEqual(['button.down {"muted":false}', 'button.up {"heldMs":100}', 'button.tap {"heldMs":100,"whileSpeaking":true,"muted":false}']);
    driver.apply({ state: 'down' });
    clock.advanceBy(5100);
    driver.apply({ state: 'up' });
    clock.advanceBy(100);
    expect(calls.slice(3)).toEqual(['pttDown', 'pttUp cancelled', 'muted true']);
    expect(events.slice(3)).toEqual([
      'button.down {"muted":false}',
      'button.hold {"heldMs":5000}',
      'mute {"muted":true,"by":"button"}',
      'button.up {"heldMs":5100}',
    ]);
    expect(() => driver.apply({ state: 'pressed' })).toThrow('button state must be "down" or "up", got "pressed"');
  });

  it('a tap on a quiet hark is offered to the top frame (dictation ends on it); a tap that silenced hark is not', () => {
    const driver = new SimulatedGpio();
    const clock = new VirtualClock();
    const calls: string[] = [];
    let speaking = false;
    wireButton({
      driver,
      clock,
      bus: new Bus(),
      settings: SETTINGS,
      targets: {
        isSpeaking: () => speaking,
        stopSpeaking: () => {
          speaking = false;
          calls.push('stop');
        },
        pttDown: () => calls.push('pttDown'),
        pttUp: (c) => calls.push(`pttUp${c ? ' cancelled' : ''}`),
        setMuted: () => {},
        tap: () => {
          calls.push('tap');
          return true;
        },
      },
    });
    driver.press();
    clock.advanceBy(100);
    driver.release();
    clock.advanceBy(100);
    // Offered before the release closes the push-to-talk segment, so the frame can wait for it.
    expect(calls).toEqual(['pttDown', 'tap', 'pttUp']);
    speaking = true;
    driver.press();
    clock.advanceBy(100);
    driver.release();
    clock.advanceBy(100);
    expect(calls.slice(3)).toEqual(['stop', 'pttDown', 'pttUp cancelled']);
  });

  it('warns when the button reads pressed at start-up', () => {
    const driver = new SimulatedGpio();
    driver.press();
    const logger = memoryLogger();
    wireButton({
      driver,
      clock: new VirtualClock(),
      bus: new Bus(),
      settings: SETTINGS,
      logger,
      targets: { isSpeaking: () => false, stopSpeaking() {}, pttDown() {}, pttUp() {}, setMuted() {} },
    });
    expect(logger.lines.join('\n')).toMatch(/reads pressed at start-up: ignored until released.*gpio=<pin>=ip,pu/);
  });
});

describe('gpio config', () => {
  it('defaults to BCM 17 and 27 and refuses the same pin twice', async () => {
    const { parseConfigText } = await import('../../src/config/load.js');
    expect(parseConfigText('', 'hark.yaml').gpio).toMatchObject({
      driver: 'auto',
      sysfsRoot: '/sys/class/gpio',
      buttonPin: 17,
      buttonActiveLow: true,
      debounceMs: 30,
      muteHoldMs: 5000,
      ledPin: 27,
      ledIdle: 'heartbeat',
    });
    expect(() => parseConfigText('gpio:\n  ledPin: 17\n', 'hark.yaml')).toThrow('gpio.ledPin: must differ from gpio.buttonPin (both are BCM 17)');
  });
});
