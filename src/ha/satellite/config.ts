import { z } from 'zod';
import { flag, intBetween, section, text } from '../../core/config-fields.js';

/**
 * ha.satellite: hark as a Home Assistant Assist satellite over the ESPHome native API.
 * Off unless `enabled`. The encryption key never lives in this file: it comes from the
 * environment (HARK_HA_API_KEY, 32 bytes in base64, the key Home Assistant asks for when adding the
 * device); without it the API is plaintext, which Home Assistant also accepts.
 */
export const haSatelliteSection = section({
  enabled: flag(false),
  /** TCP port of the native API (ESPHome's is 6053; 0 picks a free one, for tests). */
  port: intBetween(0, 65535, 6053),
  /** Address to listen on: all interfaces by default (Home Assistant is on another machine). */
  host: text('0.0.0.0'),
  /** The node name Home Assistant shows and the mDNS instance name (letters, digits, -). Empty: hark-<host name>. */
  name: text('').refine((s) => s === '' || /^[a-z0-9][a-z0-9-]{0,62}$/.test(s), 'must be lower-case letters, digits and - (an ESPHome node name), at most 63'),
  /** The friendly name Home Assistant shows. Empty: the node name. */
  friendlyName: text(''),
  /**
   * hark's own rules first: a segment they take (a timer, a list) is handled locally and never
   * needs the network; only what they decline goes to Home Assistant. False: the button's
   * segments go to Home Assistant as they are spoken, without waiting for hark's transcript.
   */
  localFirst: flag(true),
  /** Advertise `_esphomelib._tcp` over mDNS so Home Assistant discovers hark by itself. */
  mdns: flag(true),
  /** The address of the network interface to advertise on (a Pi on both Wi-Fi and Ethernet). Empty: all. */
  mdnsInterface: text(''),
  /**
   * The wake word Home Assistant lists in the satellite's configuration. Each run names the phrase
   * that actually woke hark (its base frame's prefix rules), not this.
   */
  wakeWord: text('computer'),
  /** A TTS or announcement file bigger than this is refused (bytes). */
  maxMediaBytes: intBetween(1024, 64 * 1024 * 1024, 8 * 1024 * 1024),
  /** Fetching a TTS or announcement URL gives up after this long. */
  fetchTimeoutMs: intBetween(500, 120_000, 10_000),
});

export type HaSatelliteConfig = z.infer<typeof haSatelliteSection>;
