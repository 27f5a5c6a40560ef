import { z } from 'zod';
import { logSection } from '../core/log-config.js';
import { captureSection } from '../audio/config.js';
import { vadSection } from '../vad/config.js';
import { storeSection } from '../store/config.js';
import { debugSection } from '../debug/config.js';
import { routerSection, checkRouterTargets } from '../command/config.js';
import { actionsSection } from '../command/actions/config.js';
import { speechSection } from '../speech/config.js';
import { echoSection } from '../echo/config.js';
import { interruptionSection } from '../turn/interruption-config.js';
import { cascadeSection } from '../turn/cascade-config.js';
import { gpioSection } from '../gpio/config.js';
import { sttSection } from '../stt/config.js';
import { intentSection, checkIntentConfig } from '../intent/config.js';
import { mqttSection } from '../fleet/config.js';
import { haConversationSection, checkHaConversationConfig } from '../ha/conversation/config.js';
import { haSatelliteSection } from '../ha/satellite/config.js';
import { section } from '../core/config-fields.js';
import { deviceSection } from '../core/device-config.js';
import { languageSection } from '../language/config.js';
import { pickingSection, checkPickingConfig } from '../picking/config.js';

/**
 * The whole config, composed of the sections the modules own (each in its own `config.ts`, beside
 * the code that reads it; docs/configuration.md lists them). Every setting has a default, so an
 * empty file is a working config. A new section: a line here; nothing else of it lives in config/.
 */
export const configSchema = z
  .strictObject({
    log: logSection,
    capture: captureSection,
    vad: vadSection,
    store: storeSection,
    debug: debugSection,
    router: routerSection,
    language: languageSection,
    actions: actionsSection,
    speech: speechSection,
    echo: echoSection,
    interruption: interruptionSection,
    cascade: cascadeSection,
    gpio: gpioSection,
    stt: sttSection,
    intent: intentSection,
    device: deviceSection,
    mqtt: mqttSection,
    ha: section({ conversation: haConversationSection, satellite: haSatelliteSection }),
    picking: pickingSection,
  })
  // Checks across sections (each written by the module that owns the rule); a section's own rules sit in its schema.
  .superRefine((cfg, ctx) => {
    checkRouterTargets(cfg, ctx);
    checkIntentConfig(cfg, ctx);
    checkHaConversationConfig(cfg, ctx);
    checkPickingConfig(cfg, ctx);
  });

export type HarkConfig = z.infer<typeof configSchema>;
