import { describe, expect, it } from 'vitest';
import { discoveryMessages } from '../../src/fleet/discovery.js';
import { publicationsFor, timersState, type Dashboard } from '../../src/fleet/events.js';
import { BoundedQueue } from '../../src/fleet/queue.js';
import { Topics } from '../../src/fleet/topics.js';

const topics = new Topics({ prefix: 'hark', device: 'bar', room: 'bar', discoveryPrefix: 'homeassistant' });
const WALL = Date.UTC(2026, 0, 1);

describe('events out', () => {
  it('a handled segment is an event and the "last heard" state', () => {
    const p = publicationsFor(
      'segment.handled',
      {
        segment: 3,
        fate: 'yielded',
        reason: 'yielded to kitchen',
        utterance: { id: 'u', text: 'computer stop', engine: 'deepgram' },
        actions: [],
        sttMs: 120,
        latencyMs: 400,
        actionMs: null,
      },
      { mode: 'wake-word', frame: 'base' },
      WALL,
    );
    expect(p[0]).toMatchObject({ kind: 'event', type: 'segment', body: { fate: 'yielded', reason: 'yielded to kitchen' } });
    expect(p[1]).toEqual({
      kind: 'state',
      name: 'heard',
      body: { text: 'computer stop', engine: 'deepgram', fate: 'yielded', reason: 'yielded to kitchen', latencyMs: 400, at: '2026-01-01T00:00:00.000Z' },
    });
  });

  it('a timer effect carries the time left and refreshes the timers state', () => {
    const p = publicationsFor(
      'router.effect',
      { type: 'timer', event: 'paused', id: 2, label: 'rice', seconds: 600, dueAtMs: 100_000, atMs: 40_000 },
      { mode: 'wake-word', frame: 'base' },
      WALL,
    );
    expect(p).toEqual([
      { kind: 'event', type: 'timer', body: { event: 'paused', id: 2, label: 'rice', seconds: 600, leftSeconds: 60, at: '2026-01-01T00:00:00.000Z' } },
      { kind: 'timers' },
    ]);
  });

  it('mode and top frame are kept for the retained mode state', () => {
    const dash: Dashboard = { mode: 'wake-word', frame: 'base' };
    publicationsFor('router.effect', { type: 'stack', frames: ['base', 'query'], atMs: 0 }, dash, WALL);
    const p = publicationsFor('router.effect', { type: 'mode', mode: 'always-listen', atMs: 0 }, dash, WALL);
    expect(p[1]).toMatchObject({ kind: 'state', name: 'mode', body: { mode: 'always-listen', frame: 'query' } });
  });

  it.each([
    ['capture.down', { device: 'hw', reason: 'unplugged', restartInMs: 1000 }, 'microphone', 'down'],
    ['capture.up', { device: 'hw' }, 'microphone', 'up'],
    ['led.pattern', { state: 'listening', pattern: 'on' }, 'led', 'listening'],
  ])('%s → event and retained %s', (name, payload, state, value) => {
    const p = publicationsFor(name, payload, { mode: 'wake-word', frame: 'base' }, WALL);
    expect(p[1]).toMatchObject({ kind: 'state', name: state, body: { state: value } });
  });

  it('events the fleet does not forward give nothing', () => {
    expect(publicationsFor('segment.open', {}, { mode: 'wake-word', frame: 'base' }, WALL)).toEqual([]);
    expect(publicationsFor('router.effect', { type: 'matched' }, { mode: 'wake-word', frame: 'base' }, WALL)).toEqual([]);
  });

  it('timers state: seconds left now, paused ones by what was left', () => {
    const s = timersState(
      [
        { id: 1, seconds: 300, dueAtMs: 70_000, state: 'running' },
        { id: 2, label: 'rice', seconds: 600, dueAtMs: 0, state: 'paused', remainingMs: 61_400 },
      ],
      10_000,
      WALL,
    );
    expect(s).toMatchObject({
      count: 2,
      timers: [
        { id: 1, leftSeconds: 60, label: null, dueAt: '2026-01-01T00:01:00.000Z' },
        { id: 2, leftSeconds: 61, state: 'paused', dueAt: null },
      ],
    });
  });
});

describe('Home Assistant discovery', () => {
  const msgs = discoveryMessages(topics, { version: '0.1.0', room: 'bar' });
  it('one retained config per entity, each with the device block, availability and a stable unique_id', () => {
    expect(msgs.map((m) => m.topic)).toEqual([
      'homeassistant/sensor/bar/heard/config',
      'homeassistant/sensor/bar/timers/config',
      'homeassistant/binary_sensor/bar/microphone/config',
      'homeassistant/sensor/bar/action/config',
      'homeassistant/sensor/bar/mode/config',
    ]);
    for (const m of msgs) {
      expect(m.payload).toMatchObject({
        availability_topic: 'hark/bar/availability',
        payload_available: 'online',
        payload_not_available: 'offline',
        device: { identifiers: ['hark_bar'], name: 'hark bar', manufacturer: 'hark' },
      });
      expect(m.payload.unique_id).toMatch(/^hark_bar_[a-z]+$/);
      expect(String(m.payload.state_topic)).toMatch(/^hark\/bar\/state\//);
    }
    expect(new Set(msgs.map((m) => m.payload.unique_id)).size).toBe(msgs.length);
    expect(discoveryMessages(topics, { version: '0.2.0', room: 'bar' }).map((m) => m.payload.unique_id)).toEqual(msgs.map((m) => m.payload.unique_id));
  });
  it('the microphone is a binary sensor on up/down', () => {
    expect(msgs[2]!.payload).toMatchObject({ payload_on: 'up', payload_off: 'down', value_template: '{{ value_json.state }}' });
  });
});

describe('bounded queue', () => {
  it('drops the oldest beyond its bound and counts them; a retained state keeps only its latest', () => {
    const q = new BoundedQueue(3);
    for (let i = 0; i < 5; i++) q.push({ topic: 'e', payload: String(i), retain: false });
    expect(q.dropped).toBe(2);
    q.push({ topic: 's', payload: 'a', retain: true });
    q.push({ topic: 's', payload: 'b', retain: true });
    expect(q.take().map((m) => m.payload)).toEqual(['3', '4', 'b']);
    expect(q.size).toBe(0);
  });
});
