import type { EchoView, SpeechServicesView } from './views.js';
import type { EchoStatus } from '../echo/canceller.js';
import { skewTooFar } from '../echo/create.js';
import type { SpeechTts } from '../speech/wyoming-speech.js';
import { WyomingTts } from '../speech/wyoming-voice.js';
import type { EngineSlot } from '../stt/engine.js';
import { WyomingSttEngine } from '../stt/wyoming/engine.js';

/**
 * What the debug page and /healthz show of the speech services in use: each speech-to-text engine in
 * the order asked (a Wyoming one with its server and the models its `info` listed at start), and a
 * Wyoming voice with its voices. Reads what the engines already hold; asks no server. Pure.
 */
export function speechServicesView(
  engines: readonly EngineSlot[] | undefined,
  tts: SpeechTts | null | undefined,
  echo?: EchoStatus | null,
): SpeechServicesView {
  return {
    echo: echo ? echoView(echo) : null,
    engines: (engines ?? []).map((slot) => {
      if (!slot.engine) return { id: slot.id, missing: slot.missing, wyoming: null };
      const e = slot.engine;
      if (!(e instanceof WyomingSttEngine)) return { id: slot.id, missing: null, wyoming: null };
      const info = e.serverInfo;
      return {
        id: slot.id,
        missing: null,
        wyoming: {
          server: e.o.server.url,
          answered: info !== null,
          error: e.describeError,
          models: info?.models.map((m) => m.name) ?? [],
          streams: info?.streamsTranscripts ?? false,
        },
      };
    }),
    voice: tts instanceof WyomingTts ? voiceView(tts) : null,
  };
}

const r2 = (x: number | null) => (x === null ? null : Math.round(x * 100) / 100);

function echoView(st: EchoStatus): EchoView {
  const c = st.clocks;
  return {
    state: st.state,
    delayMs: Math.round(st.delayMs * 10) / 10,
    erleDb: Math.round(st.erleDb),
    skewPpm: r2(c.ppm),
    skewErrorPpm: r2(c.errorPpm),
    followedPpm: r2(c.followedPpm) ?? 0,
    captureVsClockPpm: r2(c.captureVsClockPpm),
    problem: c.unfollowable ? skewTooFar(c.ppm ?? 0) : null,
  };
}

function voiceView(tts: WyomingTts): SpeechServicesView['voice'] {
  const info = tts.wyoming.serverInfo;
  return {
    server: tts.wyoming.server.url,
    answered: info !== null,
    error: tts.wyoming.describeError,
    voice: tts.wyoming.voice,
    voices: info?.voices.map((v) => v.name) ?? [],
  };
}
