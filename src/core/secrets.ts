/** Secrets never live in the YAML file (it is world-readable on many installs): only the environment. */
export interface Secrets {
  deepgramApiKey?: string;
  debugToken?: string;
  /** The MQTT broker's credentials (the fleet). */
  mqttUsername?: string;
  mqttPassword?: string;
  /** Home Assistant's long-lived access token (ha.conversation). */
  haToken?: string;
  /** The ESPHome native API encryption key (base64, 32 bytes) for ha.satellite. */
  haApiKey?: string;
  /** A bearer token the warehouse system asks for (picking.wms.url). */
  wmsToken?: string;
}

export function readSecrets(env: NodeJS.ProcessEnv): Secrets {
  const s: Secrets = {};
  if (env.DEEPGRAM_API_KEY?.trim()) s.deepgramApiKey = env.DEEPGRAM_API_KEY.trim();
  if (env.HARK_DEBUG_TOKEN?.trim()) s.debugToken = env.HARK_DEBUG_TOKEN.trim();
  if (env.HARK_MQTT_USERNAME?.trim()) s.mqttUsername = env.HARK_MQTT_USERNAME.trim();
  if (env.HARK_MQTT_PASSWORD) s.mqttPassword = env.HARK_MQTT_PASSWORD;
  if (env.HARK_HA_TOKEN?.trim()) s.haToken = env.HARK_HA_TOKEN.trim();
  if (env.HARK_HA_API_KEY?.trim()) s.haApiKey = env.HARK_HA_API_KEY.trim();
  if (env.HARK_WMS_TOKEN?.trim()) s.wmsToken = env.HARK_WMS_TOKEN.trim();
  return s;
}
