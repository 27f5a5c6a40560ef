import type { Check } from './check.js';
import { configCheck, deepgramCheck, diskCheck, espeakCheck, microphoneCheck, playbackCheck } from './checks.js';
import { gpioCheck } from './gpio-check.js';
import { ollamaCheck } from './ollama.js';
import { databaseCheck, modelCheck } from './model-db-checks.js';
import { whisperBuildCheck } from './whisper-build.js';
import { mqttCheck } from './mqtt.js';
import { haConversationCheck } from './ha-conversation.js';
import { wyomingCheck } from './wyoming.js';
import { echoCheck } from './echo.js';
import { clocksCheck } from './clocks.js';
import { modelSpeedCheck } from './model-speed.js';
import { pickingCheck } from './picking.js';

/**
 * Every check `hark doctor` runs, in the order a technician would fix things.
 * Subsystems add theirs here (model, Ollama, GPIO, database).
 */
export function allChecks(): Check[] {
  return [
    configCheck,
    microphoneCheck,
    playbackCheck,
    echoCheck,
    clocksCheck,
    espeakCheck,
    modelCheck,
    whisperBuildCheck,
    modelSpeedCheck,
    deepgramCheck,
    wyomingCheck,
    ollamaCheck,
    gpioCheck,
    diskCheck,
    databaseCheck,
    mqttCheck,
    haConversationCheck,
    pickingCheck,
  ];
}
