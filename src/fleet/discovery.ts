import type { Topics } from './topics.js';

/**
 * Home Assistant MQTT discovery configs (pure): one retained config per entity under
 * <discoveryPrefix>/<component>/<device>/<object>/config, all sharing one device block and this
 * device's availability topic. unique_id is hark_<device>_<object>: stable across restarts, so Home
 * Assistant keeps the entity (and its history) rather than adding a new one each boot.
 */
export interface DiscoveryMessage {
  topic: string;
  payload: Record<string, unknown>;
}

interface Entity {
  component: 'sensor' | 'binary_sensor';
  object: string;
  name: string;
  state: string;
  template: string;
  extra?: Record<string, unknown>;
}

// A Home Assistant state is at most 255 characters: the full text stays in the attributes.
const ENTITIES: Entity[] = [
  { component: 'sensor', object: 'heard', name: 'Last heard', state: 'heard', template: '{{ value_json.text[:255] }}', extra: { icon: 'mdi:ear-hearing' } },
  {
    component: 'sensor',
    object: 'timers',
    name: 'Running timers',
    state: 'timers',
    template: '{{ value_json.count }}',
    extra: { icon: 'mdi:timer-outline', state_class: 'measurement' },
  },
  {
    component: 'binary_sensor',
    object: 'microphone',
    name: 'Microphone',
    state: 'microphone',
    template: '{{ value_json.state }}',
    extra: { payload_on: 'up', payload_off: 'down', device_class: 'running' },
  },
  { component: 'sensor', object: 'action', name: 'Last action', state: 'action', template: '{{ value_json.name }}', extra: { icon: 'mdi:gesture-tap' } },
  { component: 'sensor', object: 'mode', name: 'Mode', state: 'mode', template: '{{ value_json.mode }}', extra: { icon: 'mdi:microphone-settings' } },
];

export function discoveryMessages(topics: Topics, opts: { version: string; room: string }): DiscoveryMessage[] {
  const { device } = topics.n;
  const deviceBlock = {
    identifiers: [`hark_${device}`],
    name: `hark ${device}`,
    manufacturer: 'hark',
    model: 'hark voice appliance',
    sw_version: opts.version,
    ...(opts.room ? { suggested_area: opts.room } : {}),
  };
  return ENTITIES.map((e) => ({
    topic: topics.discoveryConfig(e.component, e.object),
    payload: {
      name: e.name,
      has_entity_name: true,
      unique_id: `hark_${device}_${e.object}`,
      state_topic: topics.state(e.state),
      value_template: e.template,
      json_attributes_topic: topics.state(e.state),
      availability_topic: topics.availability,
      payload_available: 'online',
      payload_not_available: 'offline',
      device: deviceBlock,
      origin: { name: 'hark', sw: opts.version },
      ...e.extra,
    },
  }));
}
