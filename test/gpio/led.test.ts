import { describe, expect, it } from 'vitest';
import '../../src/path/events.js';
import { Bus, type HarkEvents } from '../../src/core/bus.js';
import { VirtualClock } from '../../src/core/clock.js';
import { StatusLed } from '../../src/gpio/status-led.js';
import type { LedState } from '../../src/gpio/led-state.js';
import { harness } from '../command/harness.js';

function rig(idle: 'heartbeat' | 'off' = 'heartbeat') {
  const clock = new VirtualClock();
  const bus = new Bus();
  const writes: string[] = [];
  const patterns: string[] = [];
  bus.on('led.pattern', (e) => patterns.push(`${e.state}:${e.pattern}`));
  const led = new StatusLed({ bus, clock, idle, write: (on) => writes.push(`${clock.now()} ${on ? 'on' : 'off'}`) });
  return { clock, bus, led, writes, patterns };
}

const speechStart = (id: number, kind: 'speech' | 'earcon' = 'speech'): HarkEvents['speak.start'] => ({
  id,
  kind,
  text: 'x',
  priority: 'normal',
  durationMs: 1000,
  offsetMs: 0,
});
const closed = { openedBy: 'vad' } as unknown as HarkEvents['segment.closed'];

/** A step of a sequence: an event on the bus, or (as a string) a flag the daemon sets. */
type Step = [keyof HarkEvents, unknown] | ['confirm', boolean];

function states(steps: Step[]): LedState[] {
  const r = rig();
  return steps.map(([name, payload]) => {
    if (name === 'confirm') r.led.setFlag('confirm', payload as boolean);
    else r.bus.emit(name, payload as never);
    return r.led.state;
  });
}

describe('status LED: one pattern per state', () => {
  it.each<[string, Step[], LedState[]]>([
    [
      'a spoken command: listening, thinking, speaking, idle',
      [
        ['segment.open', {}],
        ['segment.closed', closed],
        ['speak.start', speechStart(1)],
        ['speak.end', { id: 1 }],
      ],
      ['listening', 'thinking', 'speaking', 'idle'],
    ],
    [
      'a segment too short to keep',
      [
        ['segment.open', {}],
        ['segment.dropped', {}],
      ],
      ['listening', 'idle'],
    ],
    [
      'the microphone unplugged and back',
      [
        ['capture.down', {}],
        ['segment.open', {}],
        ['capture.up', {}],
      ],
      ['error', 'error', 'listening'],
    ],
    [
      'muted beats a missing microphone (muting closes it)',
      [
        ['mute', { muted: true, by: 'button' }],
        ['capture.down', {}],
        ['mute', { muted: false, by: 'button' }],
        ['capture.up', {}],
      ],
      ['muted', 'muted', 'error', 'idle'],
    ],
    [
      'awaiting confirmation, the question spoken, then answered',
      [
        ['confirm', true],
        ['speak.start', speechStart(2)],
        ['speak.end', { id: 2 }],
        ['segment.open', {}],
        ['confirm', false],
        ['segment.closed', closed],
      ],
      ['confirm', 'speaking', 'confirm', 'listening', 'listening', 'thinking'],
    ],
    [
      'the person talks over hark',
      [
        ['speak.start', speechStart(3)],
        ['segment.open', {}],
        ['speak.stopped', { id: 3 }],
        ['segment.closed', closed],
      ],
      ['speaking', 'listening', 'listening', 'thinking'],
    ],
    [
      'earcons are too short to show',
      [
        ['speak.start', speechStart(4, 'earcon')],
        ['speak.end', { id: 4 }],
      ],
      ['idle', 'idle'],
    ],
    [
      'an older item ending does not end newer speech',
      [
        ['speak.start', speechStart(5)],
        ['speak.start', speechStart(6)],
        ['speak.end', { id: 5 }],
        ['speak.stopped', { id: null }],
      ],
      ['speaking', 'speaking', 'speaking', 'speaking'],
    ],
    [
      'the cascade thinking, then playing',
      [
        ['cascade.stage', { stage: 'thinking' }],
        ['cascade.stage', { stage: 'rendering' }],
        ['speak.start', speechStart(7)],
        ['cascade.done', {}],
        ['speak.end', { id: 7 }],
      ],
      ['thinking', 'thinking', 'speaking', 'speaking', 'idle'],
    ],
    [
      'a cancelled cascade stops thinking',
      [
        ['cascade.stage', { stage: 'thinking' }],
        ['cascade.cancelled', {}],
      ],
      ['thinking', 'idle'],
    ],
  ])('%s', (_name, steps, expected) => {
    expect(states(steps)).toEqual(expected);
  });

  it('each state has its pattern', () => {
    const r = rig();
    const seen = () => r.patterns.at(-1);
    expect(seen()).toBe('idle:heartbeat');
    r.bus.emit('segment.open', {} as never);
    expect(seen()).toBe('listening:on');
    r.bus.emit('segment.closed', closed);
    expect(seen()).toBe('thinking:blink-2hz');
    r.bus.emit('speak.start', speechStart(1));
    expect(seen()).toBe('speaking:on');
    r.bus.emit('speak.end', { id: 1 } as never);
    r.led.setFlag('confirm', true);
    expect(seen()).toBe('confirm:blink-0.5hz');
    r.bus.emit('mute', { muted: true, by: 'button' });
    expect(seen()).toBe('muted:off');
    r.bus.emit('mute', { muted: false, by: 'button' });
    r.bus.emit('capture.down', {} as never);
    expect(seen()).toBe('error:blink-8hz');
    expect(rig('off').patterns).toEqual(['idle:off']);
  });

  it('blinks at the stated rates on the clock', () => {
    const r = rig();
    // heartbeat: a 60 ms blip each second
    r.clock.advanceBy(2000);
    expect(r.writes).toEqual(['0 on', '60 off', '1000 on', '1060 off', '2000 on']);
    r.writes.length = 0;
    r.bus.emit('segment.closed', closed); // thinking, 2 Hz
    r.clock.advanceBy(1000);
    // (already on from the heartbeat's blip at 2000, so the first half-cycle writes nothing)
    expect(r.writes).toEqual(['2250 off', '2500 on', '2750 off', '3000 on']);
    r.writes.length = 0;
    r.bus.emit('capture.down', {} as never); // 8 Hz
    r.clock.advanceBy(250);
    expect(r.writes).toEqual(['3063 off', '3125 on', '3188 off', '3250 on']);
  });

  it('a one-off failure blinks fast for 2 s, then the LED goes back', () => {
    const r = rig();
    r.bus.emit('speak.start', speechStart(1));
    r.bus.emit('speak.error', { id: 1, kind: 'speech', text: 'x', error: 'aplay could not play' });
    expect(r.led.state).toBe('error');
    r.clock.advanceBy(1999);
    expect(r.led.state).toBe('error');
    r.clock.advanceBy(1);
    expect(r.led.state).toBe('idle');
  });

  it('thinking gives up after 15 s if nothing answers', () => {
    const r = rig();
    r.bus.emit('segment.closed', closed);
    r.clock.advanceBy(14_999);
    expect(r.led.state).toBe('thinking');
    r.clock.advanceBy(1);
    expect(r.led.state).toBe('idle');
  });

  it('re-announcing a state does not restart its blink; close() turns the LED off', () => {
    const r = rig();
    r.bus.emit('segment.closed', closed);
    r.clock.advanceBy(100);
    const before = r.writes.length;
    r.bus.emit('cascade.stage', { generation: 1, stage: 'thinking', atMs: 500 });
    expect(r.writes.length).toBe(before);
    expect(r.patterns.filter((p) => p.startsWith('thinking'))).toHaveLength(1);
    r.led.close();
    expect(r.writes.at(-1)).toBe('100 off');
    r.clock.advanceBy(5000);
    expect(r.writes.at(-1)).toBe('100 off');
  });
});

describe('status LED: a ringing timer', () => {
  /** The command core's timers (the harness's), their effects on the bus as the conversation puts them there. */
  function kitchen(giveUpMs = 300_000) {
    const h = harness({ config: { actions: { timers: { ringEveryMs: 5000, giveUpMs } } } });
    const bus = new Bus();
    const patterns: string[] = [];
    bus.on('led.pattern', (e) => patterns.push(`${e.state}:${e.pattern}`));
    const writes: string[] = [];
    const led = new StatusLed({ bus, clock: h.clock, write: (on) => writes.push(`${h.clock.now()} ${on ? 'on' : 'off'}`) });
    let sent = 0;
    const flush = () => {
      for (const e of h.effects.slice(sent)) bus.emit('router.effect', e);
      sent = h.effects.length;
    };
    return { h, bus, led, patterns, writes, flush };
  }

  it('flashes three times a second from the first ring until it is stopped, over the spoken name, unlike listening, speaking or thinking', () => {
    const k = kitchen();
    k.h.say('computer set a pasta timer for 1 minute', 0);
    k.h.say('computer set a pizza timer for 2 minutes', 1000);
    k.flush();
    expect(k.led.state).toBe('idle');
    k.h.clock.advanceTo(60_000);
    k.flush();
    expect(k.patterns.at(-1)).toBe('ringing:triple-flash');
    // The spoken name does not take the LED from the ring; a cook talking does.
    k.bus.emit('speak.start', speechStart(1));
    expect(k.led.state).toBe('ringing');
    k.bus.emit('speak.end', { id: 1 } as never);
    k.writes.length = 0;
    k.h.clock.advanceBy(1000);
    expect(k.writes).toEqual(['60120 off', '60200 on', '60320 off', '60400 on', '60520 off', '61000 on']);
    k.bus.emit('segment.open', {} as never);
    expect(k.led.state).toBe('listening');
    k.bus.emit('segment.dropped', {} as never);
    expect(k.led.state).toBe('ringing');
    // The second timer comes due while the first rings; one "stop" ends both, and the LED with them.
    k.h.clock.advanceTo(121_000);
    k.h.say('stop', 122_000);
    k.flush();
    expect(k.h.of('timer').filter((t) => t.event === 'stopped')).toHaveLength(2);
    expect(k.patterns.at(-1)).toBe('idle:heartbeat');
    expect(new Set(k.patterns.map((p) => p.split(':')[1]))).toEqual(new Set(['heartbeat', 'triple-flash', 'on']));
  });

  it('a delayed command coming due does not ring; a timer that gives up stops ringing', () => {
    const k = kitchen(60_000);
    k.h.say('computer in 1 minute say hello', 0);
    k.h.clock.advanceTo(61_000);
    k.flush();
    expect(k.patterns).not.toContain('ringing:triple-flash');
    k.h.say('computer set a timer for 1 minute', 62_000);
    k.h.clock.advanceTo(125_000);
    k.flush();
    expect(k.led.state).toBe('ringing');
    k.h.clock.advanceTo(200_000);
    k.flush();
    expect(k.h.of('timer').at(-1)).toEqual(expect.objectContaining({ event: 'gave-up' }));
    expect(k.led.state).toBe('idle');
  });
});
