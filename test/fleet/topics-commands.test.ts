import { describe, expect, it } from 'vitest';
import { Topics } from '../../src/fleet/topics.js';
import { parseCommand } from '../../src/fleet/commands.js';
import { validateConfig } from '../../src/config/load.js';
import { deviceIdFromHost } from '../../src/fleet/config.js';

const t = new Topics({ prefix: 'hark', device: 'kitchen-1', room: 'kitchen', discoveryPrefix: 'homeassistant' });

describe('topics', () => {
  it.each([
    ['availability', t.availability, 'hark/kitchen-1/availability'],
    ['event', t.event('timer'), 'hark/kitchen-1/event/timer'],
    ['state', t.state('timers'), 'hark/kitchen-1/state/timers'],
    ['claim', t.claim, 'hark/room/kitchen/claim'],
    ['ha status', t.haStatus, 'homeassistant/status'],
    ['discovery', t.discoveryConfig('binary_sensor', 'microphone'), 'homeassistant/binary_sensor/kitchen-1/microphone/config'],
  ])('%s', (_n, got, want) => expect(got).toBe(want));

  it('subscribes to its own commands and its room’s', () => {
    expect(t.commandFilters).toEqual(['hark/kitchen-1/cmd/+', 'hark/room/kitchen/cmd/+']);
    expect(new Topics({ ...t.n, room: '' }).commandFilters).toEqual(['hark/kitchen-1/cmd/+']);
    expect(new Topics({ ...t.n, room: '' }).claim).toBeNull();
  });

  it.each([
    ['hark/kitchen-1/cmd/say', { verb: 'say', scope: 'device' }],
    ['hark/room/kitchen/cmd/utterance', { verb: 'utterance', scope: 'room' }],
    ['hark/room/bar/cmd/say', null],
    ['hark/kitchen-2/cmd/say', null],
    ['hark/kitchen-1/cmd/say/extra', null],
    ['hark/kitchen-1/event/say', null],
  ])('parses %s', (topic, want) => expect(t.parseCommand(topic)).toEqual(want));
});

describe('command payloads', () => {
  it.each([
    ['say', '{"text": "dinner is ready"}', { verb: 'say', text: 'dinner is ready' }],
    ['say', 'dinner is ready', { verb: 'say', text: 'dinner is ready' }],
    ['utterance', '"computer set a timer for five minutes"', { verb: 'utterance', text: 'computer set a timer for five minutes' }],
    ['utterance', '{"text": " computer stop "}', { verb: 'utterance', text: 'computer stop' }],
    ['timer', '{"action":"set","seconds":300,"label":"Pasta"}', { verb: 'timer', action: 'set', seconds: 300, label: 'pasta' }],
    ['timer', '{"action":"cancel","all":true}', { verb: 'timer', action: 'cancel', all: true }],
    ['timer', '{"action":"pause","label":"rice"}', { verb: 'timer', action: 'pause', all: false, label: 'rice' }],
    ['mode', '{"mode":"always-listen"}', { verb: 'mode', mode: 'always-listen' }],
    ['mode', 'wake-word', { verb: 'mode', mode: 'wake-word' }],
  ])('%s %s', (verb, raw, command) => expect(parseCommand(verb, raw)).toEqual({ ok: true, command }));

  it.each([
    ['dance', '{}', /unknown command "dance"/],
    ['say', '', /say: empty payload/],
    ['say', '{"txt": "hi"}', /say: missing "text"/],
    ['utterance', '{"text": "   "}', /"text" is empty/],
    ['utterance', '{"text": 42}', /missing "text"/],
    ['timer', 'set 5 minutes', /timer: payload is not JSON/],
    ['timer', '[1,2]', /must be a JSON object/],
    ['timer', '{"action":"set"}', /"seconds" must be a whole number from 1 to 86400 \(got null\)/],
    ['timer', '{"action":"set","seconds":-5}', /"seconds" must be a whole number/],
    ['timer', '{"action":"explode"}', /"action" must be one of set, cancel, pause, resume \(got "explode"\)/],
    ['timer', '{"action":"cancel","all":"yes"}', /"all" must be true or false/],
    ['mode', '{"mode":"party"}', /"mode" must be one of wake-word, always-listen \(got "party"\)/],
  ])('%s %j is refused, naming what was wrong', (verb, raw, why) => {
    const r = parseCommand(verb, raw);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(why);
  });
});

describe('mqtt config', () => {
  it('is off by default, with the documented defaults', () => {
    const c = validateConfig({}, 'test').mqtt;
    expect(c).toMatchObject({
      url: '',
      room: '',
      topicPrefix: 'hark',
      discoveryPrefix: 'homeassistant',
      arbitrationWindowMs: 200,
      queueMax: 1000,
      discovery: true,
    });
    expect(c.device).toMatch(/^[a-z0-9][a-z0-9_-]*$/);
  });
  it('derives a safe device id from the host name', () => {
    expect(deviceIdFromHost('Kitchen Pi.local')).toBe('kitchen-pi');
    expect(deviceIdFromHost('...')).toBe('hark');
  });
  it.each([
    [{ url: 'http://broker' }, /mqtt\.url: must be an mqtt:\/\//],
    [{ device: 'a/b' }, /mqtt\.device: must be a name/],
    [{ device: 'room' }, /mqtt\.device: must not be empty or "room"/],
    [{ room: 'bar #1' }, /mqtt\.room: must be a room name/],
    [{ topicPrefix: 'hark/#' }, /mqtt\.topicPrefix: must be a topic without/],
    [{ password: 'secret' }, /mqtt\.password: unknown setting/],
    [{ reconnectInitialMs: 5000, reconnectMaxMs: 1000 }, /mqtt\.reconnectMaxMs: must not be below/],
  ])('refuses %j', (mqtt, why) => expect(() => validateConfig({ mqtt }, 'test.yaml')).toThrow(why));
});
