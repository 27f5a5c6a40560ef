import type { Msg } from './proto.js';
import { MUTE_KEY, OUR_FEATURES } from './voice-api.js';

/** What hark tells Home Assistant about itself as an ESPHome device. Pure. */
export interface DeviceFacts {
  name: string;
  friendlyName: string;
  mac: string;
  version: string;
  area?: string;
  /** The API has a key (then every connection is Noise). */
  encrypted: boolean;
}

export function deviceInfo(d: DeviceFacts): Msg {
  return {
    name: d.name,
    friendlyName: d.friendlyName,
    macAddress: d.mac.toUpperCase().match(/../g)!.join(':'),
    esphomeVersion: '2025.10.0',
    compilationTime: '',
    model: 'hark',
    manufacturer: 'hark',
    projectName: 'hark.voice',
    projectVersion: d.version,
    voiceAssistantFeatureFlags: OUR_FEATURES,
    // True only with a key: Home Assistant offers to set a key on a device that says it supports
    // encryption but has none (NoiseEncryptionSetKeyRequest), and hark cannot store one.
    apiEncryptionSupported: d.encrypted,
    ...(d.area ? { suggestedArea: d.area } : {}),
  };
}

/** The one entity hark has: its Mute switch. */
export const ENTITIES: readonly { name: string; msg: Msg }[] = [
  { name: 'ListEntitiesSwitchResponse', msg: { objectId: 'mute', key: MUTE_KEY, name: 'Mute', icon: 'mdi:microphone-off' } },
];

/** hark's wake phrase lives in its rules; Home Assistant is shown the configured one, and cannot change it. */
export function configurationResponse(wakeWord: string): Msg {
  return { availableWakeWords: [{ id: 'hark', wakeWord, trainedLanguages: ['en'] }], activeWakeWords: ['hark'], maxActiveWakeWords: 1 };
}
