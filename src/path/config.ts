import type { RouterConfig } from '../command/config.js';
import type { ActionsConfig } from '../command/actions/config.js';
import type { LanguageConfig } from '../language/config.js';
import type { IntentConfig } from '../intent/config.js';
import type { HaConversationConfig } from '../ha/conversation/config.js';
import type { createHaConversation } from '../ha/conversation/compose.js';
import type { IntentRuntimeOptions } from '../intent/compose.js';
import type { CascadeConfig } from '../turn/cascade-config.js';
import type { InterruptionConfig } from '../turn/interruption-config.js';
import type { SttConfig } from '../stt/config.js';
import type { VadConfig } from '../vad/config.js';

/*
 * What the path reads of the config: the sections it needs, each typed by the module that owns it.
 * src/config composes these into HarkConfig, which satisfies them structurally; the path never imports
 * src/config (a layer above it), so a test or a tool can hand it just these sections.
 */

/**
 * The command side's builder (command-parts.ts). It hands the config on to the intent pass's and Home
 * Assistant's builders, so it needs whatever those declare they take (named from their own signatures,
 * so it narrows as they do).
 */
export type CommandsConfig = {
  router: RouterConfig;
  language: LanguageConfig;
  actions: ActionsConfig;
  intent: IntentConfig;
  ha: { conversation: HaConversationConfig };
  /** Where this appliance stands ("the kitchen timer" is its own). */
  device: { area?: string | undefined };
} & IntentRuntimeOptions['config'] &
  Parameters<typeof createHaConversation>[0]['config'];

/** The command side (conversation.ts): the core, the response cascade and the interruption filter. */
export type ConversationConfig = CommandsConfig & { cascade: CascadeConfig; interruption: InterruptionConfig };

/** The segment's stages (segment-path.ts): the VAD's hangovers, speech-to-text's line and opening check, the frames. */
export interface SegmentPathConfig {
  vad: Pick<VadConfig, 'hangoverMs' | 'routerFrameHangoverMs'>;
  stt: SttConfig;
  router: RouterConfig;
}

/** What the capture wiring reads (capture-wiring.ts): the segmenter's settings and when a pause starts a transcript. */
export interface SegmentingConfig {
  vad: VadConfig;
  stt: Pick<SttConfig, 'preemptiveMs' | 'opening'>;
}
