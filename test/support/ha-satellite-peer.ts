import { connectClient, eventMsg, msg, type EsphomeConnection } from './esphome-client.js';

/**
 * Home Assistant's side of an Assist satellite run, as Home Assistant really handles it, over a real
 * native-API connection (the npm client library does the framing, the Noise initiator and protobuf;
 * every reaction below is Home Assistant's, written from its source, not from what hark sends):
 *
 *  - aioesphomeapi `client.py` `subscribe_voice_assistant`: SubscribeVoiceAssistantRequest{flags:
 *    API_AUDIO}; `_on_voice_assistant_request`: `start: true` → handle_start(conversation_id, flags,
 *    audio_settings, wake_word_phrase ("" → None)), whose port goes back as VoiceAssistantResponse;
 *    `start: false` → handle_stop(abort=True). `_on_voice_assistant_audio`: `end: true` →
 *    handle_stop(False), else handle_audio(data). VoiceAssistantAnnounceFinished →
 *    handle_announcement_finished. `model.py` VoiceAssistantCommand.from_pb reads audio_settings
 *    from the message as protobuf does: a request without it reads all zeros (volume multiplier 0.0).
 *  - aioesphomeapi `client.py` `send_voice_assistant_announcement_await_response`: the announce
 *    request, then the FIRST VoiceAssistantAnnounceFinished that arrives is its answer, whatever it
 *    was sent for (send_message_await_response).
 *  - HA core `components/esphome/assist_satellite.py` (EsphomeAssistSatellite): handle_start clears
 *    the audio queue and returns port 0 (API audio); handle_audio queues; `_stop_pipeline` ends the
 *    audio stream and the run goes on; `_abort_pipeline` cancels the pipeline task;
 *    `handle_announcement_finished` → tts_response_finished(); `_do_announce` waits for
 *    VoiceAssistantAnnounceFinished (5 min) after VoiceAssistantAnnounceRequest;
 *    `_wrap_audio_stream` stops at the first empty chunk.
 *  - HA core `components/assist_satellite/entity.py` (AssistSatelliteEntity): the entity's state —
 *    STT_START → listening, INTENT_START → processing, TTS_START → responding (and `_run_has_tts`),
 *    RUN_END → idle only when the run had no TTS; otherwise idle only on tts_response_finished().
 *    `async_internal_announce` first cancels the running pipeline (`_cancel_running_pipeline`: its
 *    RUN_END goes out) and only then sends the announcement, responding until it is finished, then idle.
 *  - HA core `core.py` `async_stop` (a clean restart or upgrade): every background task is cancelled
 *    first — the satellite's pipeline among them, so a run in flight ends with RUN_END — and then
 *    EVENT_HOMEASSISTANT_STOP fires, on which the esphome integration (`manager.py` on_stop →
 *    `_cleanup_instance`) disconnects: DisconnectRequest, then the socket closes.
 *  - HA core `components/assist_pipeline/pipeline.py` (PipelineInput.execute): RUN_START; the
 *    wake-word cooldown (DEFAULT_WAKE_WORD_COOLDOWN, 2 s, per phrase) for a run that names one;
 *    STT_START; speech-to-text until the audio stream ends; "stt-no-text-recognized" for empty text;
 *    INTENT_START / INTENT_END {conversation_id, continue_conversation "0"/"1"}; TTS_START {text} /
 *    TTS_END {url} when the agent's answer is not empty; errors as ERROR {code, message}; RUN_END in
 *    a `finally`, so a cancelled (aborted) run still ends with RUN_END and nothing between.
 *
 * Not modelled: Home Assistant's own VAD ending speech-to-text early on silence (hark sends a closed
 * segment and ends it itself), UDP audio, streamed TTS (hark announces no speaker feature).
 */

/** VoiceAssistantEvent numbers (api.proto). */
export const VA_EVENT = { ERROR: 0, RUN_START: 1, RUN_END: 2, STT_START: 3, STT_END: 4, INTENT_START: 5, INTENT_END: 6, TTS_START: 7, TTS_END: 8 } as const;
const API_AUDIO = 1;
/** assist_pipeline/const.py DEFAULT_WAKE_WORD_COOLDOWN. */
const WAKE_WORD_COOLDOWN_MS = 2000;
/** esphome/assist_satellite.py _ANNOUNCEMENT_TIMEOUT_SEC. */
const ANNOUNCEMENT_TIMEOUT_MS = 5 * 60 * 1000;

export type EntityState = 'idle' | 'listening' | 'processing' | 'responding';

/** What Home Assistant's conversation agent answers. */
export interface AgentReply {
  speech: string;
  continueConversation?: boolean;
}

export interface PeerOptions {
  /** Home Assistant's speech-to-text on the run's audio (16 kHz mono s16). */
  stt(pcm: Int16Array): string | Promise<string>;
  /** The conversation agent. */
  agent(text: string, conversationId: string): AgentReply | Promise<AgentReply>;
  /** Where the TTS answer for `speech` is served (the tts_proxy URL Home Assistant hands out). */
  ttsUrl(speech: string): string;
}

/** One pipeline run as Home Assistant saw it. */
export interface PeerRun {
  wakeWordPhrase: string | null;
  /** The request's audio settings as aioesphomeapi reads them (zeros when the request had none). */
  audioSettings: { noiseSuppressionLevel: number; autoGain: number; volumeMultiplier: number };
  conversationId: string;
  audio: Buffer[];
  /** How the device ended the audio: 'end' (VoiceAssistantAudio{end}) or 'abort' (VoiceAssistantRequest{start:false}). */
  endedBy: 'end' | 'abort' | null;
  /** The pipeline was cancelled (abort): no transcript, no answer. */
  cancelled: boolean;
  transcript: string | null;
  /** Events sent to the device, by name, in order. */
  events: string[];
  done: Promise<void>;
}

let conversationSeq = 0;

type RequestMsg = { start: boolean; conversationId: string; wakeWordPhrase: string; audioSettings?: Partial<PeerRun['audioSettings']> };

export class HaSatellitePeer {
  state: EntityState = 'idle';
  readonly states: EntityState[] = ['idle'];
  readonly runs: PeerRun[] = [];
  /** Every VoiceAssistantAnnounceFinished the device sent. */
  readonly announceFinished: { success: boolean }[] = [];
  /** Audio that came when no run was taking it (dropped, as HA's cleared queue drops it). */
  strayAudio = 0;
  private queue: (Buffer | null)[] = [];
  private wake: (() => void) | null = null;
  private current: { run: PeerRun; cancel: () => void } | null = null;
  private runHasTts = false;
  private lastWakeUp = new Map<string, number>();
  private waiters: { pred: () => boolean; resolve: () => void }[] = [];

  private constructor(
    readonly conn: EsphomeConnection,
    private readonly o: PeerOptions,
  ) {
    conn.on('message.VoiceAssistantRequest', (m: RequestMsg) => this.onRequest(m));
    conn.on('message.VoiceAssistantAudio', (m: { data: string; end: boolean }) => this.onAudio(m));
    conn.on('message.VoiceAssistantAnnounceFinished', (m: { success: boolean }) => {
      this.announceFinished.push({ success: Boolean(m.success) });
      // handle_announcement_finished → tts_response_finished(): the entity goes back to idle.
      this.setState('idle');
    });
    // subscribe_voice_assistant with handle_audio: API audio.
    conn.sendMessage(msg('SubscribeVoiceAssistantRequest', { subscribe: true, flags: API_AUDIO }));
  }

  /** Connect as Home Assistant's ESPHome integration and subscribe the satellite entity. */
  static async connect(port: number, o: PeerOptions & { encryptionKey?: string; expectedServerName?: string }): Promise<HaSatellitePeer> {
    const conn = await connectClient(port, {
      ...(o.encryptionKey ? { encryptionKey: o.encryptionKey } : {}),
      ...(o.expectedServerName ? { expectedServerName: o.expectedServerName } : {}),
    });
    return new HaSatellitePeer(conn, o);
  }

  /** Resolves once `pred` holds (checked after every change); rejects after `ms`. */
  until(pred: () => boolean, ms: number, what: string): Promise<void> {
    if (pred()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const w = { pred, resolve: () => (clearTimeout(t), resolve()) };
      const t = setTimeout(() => {
        this.waiters = this.waiters.filter((x) => x !== w);
        reject(
          new Error(
            `Home Assistant: timed out after ${ms} ms waiting for ${what} (entity ${this.state}; runs ${JSON.stringify(this.runs.map((r) => ({ endedBy: r.endedBy, events: r.events })))})`,
          ),
        );
      }, ms);
      this.waiters.push(w);
    });
  }

  /**
   * entity.py `async_internal_announce` → esphome/assist_satellite.py `_do_announce`: a running
   * pipeline is cancelled first (its RUN_END reaches the device), then the request, then block until
   * the first VoiceAssistantAnnounceFinished.
   */
  async announce(mediaId: string, o: { text?: string; preannounceMediaId?: string; startConversation?: boolean } = {}): Promise<{ success: boolean }> {
    await this.cancelPipeline();
    this.setState('responding');
    try {
      const r = await this.conn.sendMessageAwaitResponse(
        msg('VoiceAssistantAnnounceRequest', {
          mediaId,
          text: o.text ?? '',
          preannounceMediaId: o.preannounceMediaId ?? '',
          startConversation: Boolean(o.startConversation),
        }),
        'VoiceAssistantAnnounceFinished',
        ANNOUNCEMENT_TIMEOUT_MS / 1000,
      );
      return { success: Boolean(r.success) };
    } finally {
      this.setState('idle');
    }
  }

  /**
   * Home Assistant goes away without its stop sequence (a crash, a kill): aioesphomeapi's
   * disconnect() sends DisconnectRequest and closes the socket; the pipeline in flight dies with it,
   * no RUN_END.
   */
  drop(): void {
    this.conn.disconnect();
  }

  /**
   * Home Assistant stops cleanly (a restart, an upgrade; core.py async_stop): the pipeline task is
   * cancelled first, so a run in flight ends with RUN_END and nothing between, then the esphome
   * integration disconnects (DisconnectRequest, then the socket closes).
   */
  async stop(): Promise<void> {
    await this.cancelPipeline();
    this.conn.disconnect();
  }

  /**
   * entity.py `_cancel_running_pipeline`: cancel the pipeline task and wait until it has ended
   * (RUN_END sent). Alone (nothing following it) it is what `async_internal_start_conversation`
   * does before it finds that the pipeline's agent, Home Assistant's own, cannot start one.
   */
  async cancelPipeline(): Promise<void> {
    const current = this.current;
    if (!current) return;
    current.cancel();
    await current.run.done;
  }

  private onRequest(m: RequestMsg): void {
    if (!m.start) {
      // handle_stop(abort=True) → _abort_pipeline: end the stream and cancel the pipeline task.
      if (this.current) this.current.run.endedBy ??= 'abort';
      this.push(null);
      this.current?.cancel();
      this.changed();
      return;
    }
    // handle_start: clear the audio queue; port 0 (API audio). The pipeline task it starts
    // (async_accept_pipeline_from_satellite) first cancels a running one and waits for it
    // (_cancel_running_pipeline); handle_start returns while it waits, so the old run's RUN_END
    // reaches the device before this run's VoiceAssistantResponse.
    this.queue = [];
    const previous = this.current;
    previous?.cancel();
    const a = m.audioSettings ?? {};
    const audioSettings = { noiseSuppressionLevel: a.noiseSuppressionLevel ?? 0, autoGain: a.autoGain ?? 0, volumeMultiplier: a.volumeMultiplier ?? 0 };
    const run: PeerRun = {
      wakeWordPhrase: m.wakeWordPhrase || null,
      audioSettings,
      conversationId: m.conversationId || `01HA${++conversationSeq}`,
      audio: [],
      endedBy: null,
      cancelled: false,
      transcript: null,
      events: [],
      done: Promise.resolve(),
    };
    let cancelled!: () => void;
    const cancel = new Promise<'cancelled'>((r) => (cancelled = () => r('cancelled')));
    const me = { run, cancel: () => ((run.cancelled = true), cancelled()) };
    this.current = me;
    this.runs.push(run);
    run.done = (async () => {
      if (previous) await previous.run.done;
      this.conn.sendMessage(msg('VoiceAssistantResponse', { port: 0 }));
      await this.pipeline(run, cancel);
    })().finally(() => {
      if (this.current === me) this.current = null;
      this.changed();
    });
  }

  private onAudio(m: { data: string; end: boolean }): void {
    if (m.end) {
      // handle_stop(False) → _stop_pipeline: the stream ends, the run goes on.
      if (this.current) this.current.run.endedBy ??= 'end';
      this.push(null);
      return;
    }
    const data = Buffer.from(m.data, 'base64');
    if (!this.current) {
      this.strayAudio += data.length;
      return;
    }
    // _wrap_audio_stream: an empty chunk ends the stream.
    this.push(data.length ? data : null);
  }

  private push(chunk: Buffer | null): void {
    this.queue.push(chunk);
    this.wake?.();
    this.changed();
  }

  /** pipeline.py PipelineInput.execute, as far as a satellite can see it. */
  private async pipeline(run: PeerRun, cancel: Promise<'cancelled'>): Promise<void> {
    const send = (type: keyof typeof VA_EVENT, data: Record<string, string> = {}) => {
      run.events.push(type);
      this.onPipelineEvent(type);
      this.conn.sendMessage(eventMsg(VA_EVENT[type], data));
      this.changed();
    };
    const orCancel = async <T>(p: Promise<T> | T): Promise<T | 'cancelled'> => Promise.race([Promise.resolve(p), cancel]);
    send('RUN_START');
    try {
      if (run.wakeWordPhrase) {
        const last = this.lastWakeUp.get(run.wakeWordPhrase);
        if (last !== undefined && Date.now() - last < WAKE_WORD_COOLDOWN_MS) {
          send('ERROR', { code: 'duplicate_wake_up_detected', message: `Duplicate wake-up detected for ${run.wakeWordPhrase}` });
          return;
        }
        this.lastWakeUp.set(run.wakeWordPhrase, Date.now());
      }
      send('STT_START');
      for (;;) {
        const chunk = this.queue.shift();
        if (chunk === undefined) {
          let wake!: () => void;
          const arrived = new Promise<void>((r) => (wake = r));
          this.wake = wake;
          const woke = await orCancel(arrived);
          if (this.wake === wake) this.wake = null;
          if (woke === 'cancelled') return;
          continue;
        }
        if (chunk === null) break;
        run.audio.push(chunk);
      }
      if (run.cancelled) return;
      const bytes = Buffer.concat(run.audio);
      const pcm = new Int16Array(bytes.buffer, bytes.byteOffset, bytes.length >> 1);
      const text = await orCancel(this.o.stt(pcm));
      if (text === 'cancelled') return;
      if (!text) {
        send('ERROR', { code: 'stt-no-text-recognized', message: 'No text recognized' });
        return;
      }
      run.transcript = text;
      send('STT_END', { text });
      send('INTENT_START');
      const reply = await orCancel(this.o.agent(text, run.conversationId));
      if (reply === 'cancelled') return;
      send('INTENT_END', { conversation_id: run.conversationId, continue_conversation: reply.continueConversation ? '1' : '0' });
      if (!reply.speech.trim()) return;
      send('TTS_START', { text: reply.speech });
      send('TTS_END', { url: this.o.ttsUrl(reply.speech) });
    } finally {
      // "Always end the run": RUN_END even for a cancelled pipeline.
      send('RUN_END');
    }
  }

  /** entity.py _internal_on_pipeline_event. */
  private onPipelineEvent(type: keyof typeof VA_EVENT): void {
    if (type === 'RUN_START') this.runHasTts = false;
    else if (type === 'STT_START') this.setState('listening');
    else if (type === 'INTENT_START') this.setState('processing');
    else if (type === 'TTS_START') {
      this.runHasTts = true;
      this.setState('responding');
    } else if (type === 'RUN_END' && !this.runHasTts) this.setState('idle');
  }

  private setState(s: EntityState): void {
    if (s !== this.state) {
      this.state = s;
      this.states.push(s);
    }
    this.changed();
  }

  private changed(): void {
    this.waiters = this.waiters.filter((w) => (w.pred() ? (w.resolve(), false) : true));
  }
}
