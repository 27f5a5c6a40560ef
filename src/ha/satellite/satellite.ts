import type { HaSatelliteConfig } from './config.js';
import type { Bus } from '../../core/bus.js';
import type { Clock } from '../../core/clock.js';
import { errorMessage } from '../../core/errors.js';
import type { Logger } from '../../core/log.js';
import type { ApiConnection, DeviceSide } from './connection.js';
import type { Msg } from './proto.js';
import { CHUNK_SAMPLES, EVENT, EVENT_NAME, MUTE_KEY, OUR_FEATURES, TIMER_EVENT, type SatelliteHooks } from './voice-api.js';
import { wakeCut, type Heard } from './wake-cut.js';
import './events.js';

export { EVENT, FEATURES, MUTE_KEY, type SatelliteHooks } from './voice-api.js';

/** How long hark waits for Home Assistant to accept a run (VoiceAssistantResponse). */
const ACCEPT_MS = 5000;
/** After a run that asked something back, the answer needs no wake phrase for this long. */
export const FOLLOW_UP_MS = 8000;

interface Run {
  conn: ApiConnection;
  /** What Home Assistant gets: the segment from where the wake phrase ends. */
  audio: Int16Array;
  accepted: boolean;
  continueConversation: boolean;
  /** The answer: none yet, being fetched and played, or done (played, stopped or failed). */
  answer: 'none' | 'playing' | 'done';
  /** VoiceAssistantAnnounceFinished went out for this run. */
  finishedSent: boolean;
  /** RUN_END came. */
  ended: boolean;
  timer: ReturnType<Clock['setTimer']> | null;
}

/**
 * hark as an Assist satellite: the device side of Home Assistant's voice pipeline over the
 * ESPHome native API. Home Assistant subscribes; a segment hark hands over (decide.ts) becomes a
 * VoiceAssistantRequest naming the wake phrase heard, and its audio from where that phrase ends;
 * Home Assistant's run events come back and drive hark: the TTS answer is fetched, played and
 * reported finished (the entity goes idle), `continue_conversation` opens a window in which the
 * answer needs no wake phrase, timers ring as hark's own, announcements play and are acknowledged.
 * Message by message this follows what Home Assistant expects of a satellite (aioesphomeapi
 * client.py subscribe_voice_assistant, HA's esphome/assist_satellite.py) and what the reference
 * satellite does (OHF-Voice/linux-voice-assistant satellite.py).
 */
export class Satellite implements DeviceSide {
  readonly name: string;
  readonly mac: string;
  private readonly conns = new Set<ApiConnection>();
  private subscriber: { conn: ApiConnection; apiAudio: boolean } | null = null;
  private run: Run | null = null;
  private conversationId = '';
  private followUntil = 0;

  constructor(
    private readonly o: {
      config: HaSatelliteConfig;
      friendlyName: string;
      name: string;
      mac: string;
      version: string;
      area?: string;
      /** The base frame's wake phrases as configured ("computer", "hey computer"): what a run names. */
      wakePhrases?: readonly string[];
      bus: Bus;
      clock: Clock;
      log: Logger;
      hooks: SatelliteHooks;
    },
  ) {
    this.name = o.name;
    this.mac = o.mac;
  }

  /** Home Assistant is subscribed to the voice assistant and can take a run now. */
  get ready(): boolean {
    return this.subscriber !== null && !this.subscriber.conn.isClosed;
  }

  /** The answer to Home Assistant's question may come without the wake phrase. */
  get followUp(): boolean {
    return this.o.clock.now() < this.followUntil;
  }

  added(conn: ApiConnection): void {
    this.conns.add(conn);
  }

  subscribedOn(conn: ApiConnection): boolean {
    return this.subscriber?.conn === conn;
  }

  deviceInfo(): Msg {
    return {
      name: this.name,
      friendlyName: this.o.friendlyName,
      macAddress: this.mac.toUpperCase().match(/../g)!.join(':'),
      esphomeVersion: '2025.10.0',
      compilationTime: '',
      model: 'hark',
      manufacturer: 'hark',
      projectName: 'hark.voice',
      projectVersion: this.o.version,
      voiceAssistantFeatureFlags: OUR_FEATURES,
      apiEncryptionSupported: false,
      ...(this.o.area ? { suggestedArea: this.o.area } : {}),
    };
  }

  entities(): { name: string; msg: Msg }[] {
    return [{ name: 'ListEntitiesSwitchResponse', msg: { objectId: 'mute', key: MUTE_KEY, name: 'Mute', icon: 'mdi:microphone-off' } }];
  }

  states(): { name: string; msg: Msg }[] {
    return [{ name: 'SwitchStateResponse', msg: { key: MUTE_KEY, state: this.o.hooks.muted() } }];
  }

  /**
   * hark's mute changed (button, Home Assistant): every client hears the new state, and a run Home
   * Assistant is still working on is aborted, as ESPHome's voice_assistant.stop does on mute
   * (request_stop → signal_stop_): the user silenced hark, so no answer should come.
   */
  muteChanged(muted: boolean): void {
    for (const c of this.conns) c.send('SwitchStateResponse', { key: MUTE_KEY, state: muted });
    if (muted) this.abort('hark was muted');
  }

  /**
   * Abort the run Home Assistant is working on: VoiceAssistantRequest{start: false}, which
   * aioesphomeapi turns into handle_stop(abort=True) and Home Assistant into a cancelled pipeline.
   * Only for a run given up on (mute, hark stopping); a run's audio ends with
   * VoiceAssistantAudio{end: true} instead. An answer already playing is left alone.
   */
  abort(why: string): void {
    const run = this.run;
    if (!run || run.ended || run.answer !== 'none') return;
    run.conn.send('VoiceAssistantRequest', { start: false });
    this.o.log.info('ha satellite: run aborted', { why });
    this.o.bus.emit('ha.satellite.aborted', { why });
    this.endRun(why);
  }

  message(conn: ApiConnection, name: string, msg: Msg): void {
    switch (name) {
      case 'SwitchCommandRequest':
        if (msg.key !== MUTE_KEY) return this.o.log.warn('ha satellite: command for an unknown switch', { key: msg.key });
        this.o.hooks.setMuted(Boolean(msg.state));
        this.o.bus.emit('ha.satellite.mute', { muted: Boolean(msg.state) });
        this.muteChanged(this.o.hooks.muted());
        return;
      case 'SubscribeVoiceAssistantRequest':
        if (msg.subscribe) {
          this.subscriber = { conn, apiAudio: (Number(msg.flags) & 1) === 1 };
          this.o.log.info('ha satellite: Home Assistant subscribed to the voice assistant', { connection: conn.id, apiAudio: this.subscriber.apiAudio });
          this.o.bus.emit('ha.satellite.subscribed', { connection: conn.id, apiAudio: this.subscriber.apiAudio });
        } else if (this.subscriber?.conn === conn) this.subscriber = null;
        return;
      case 'VoiceAssistantConfigurationRequest':
        conn.send('VoiceAssistantConfigurationResponse', {
          availableWakeWords: [{ id: 'hark', wakeWord: this.o.config.wakeWord, trainedLanguages: ['en'] }],
          activeWakeWords: ['hark'],
          maxActiveWakeWords: 1,
        });
        return;
      case 'VoiceAssistantSetConfiguration':
        // hark's wake phrase lives in its rules; Home Assistant's choice cannot change it.
        return;
      case 'VoiceAssistantResponse':
        return this.accepted(conn, msg);
      case 'VoiceAssistantEventResponse':
        return this.event(conn, msg);
      case 'VoiceAssistantAudio':
        // TTS streamed over the API only comes to devices with the speaker feature; hark plays the URL.
        return;
      case 'VoiceAssistantTimerEventResponse':
        return this.timer(msg);
      case 'VoiceAssistantAnnounceRequest':
        void this.announce(conn, msg);
        return;
      default:
        this.o.log.debug('ha satellite: message not handled', { message: name });
    }
  }

  /**
   * A client went away. Home Assistant restarting or being upgraded closes its connection: a run it
   * had not answered yet will never be answered (its pipeline died with it), so the user hears the
   * error sound now rather than waiting; an answer already playing plays on. The conversation is
   * forgotten (Home Assistant's chat sessions do not survive a restart). When Home Assistant is back
   * it reconnects and subscribes by itself; until then segments meant for it stay hark's.
   */
  closed(conn: ApiConnection): void {
    this.conns.delete(conn);
    if (this.subscriber?.conn === conn) this.subscriber = null;
    const run = this.run;
    if (run?.conn === conn) {
      if (run.answer === 'none') {
        this.o.log.warn('ha satellite: Home Assistant went away before answering (restarted or upgraded?); the run is lost', { connection: conn.id });
        this.o.hooks.earcon('error');
      }
      this.endRun('Home Assistant disconnected');
      this.conversationId = '';
      this.followUntil = 0;
    }
  }

  /**
   * Hand a segment to Home Assistant: VoiceAssistantRequest{start, wake_word_phrase}, then (once
   * accepted) the audio from where the wake phrase ends (wake-cut.ts), then the end of the stream,
   * VoiceAssistantAudio{end: true}. False when no Home Assistant is subscribed.
   */
  startRun(pcm: Int16Array, why: string, heard?: Heard): boolean {
    const sub = this.subscriber;
    if (!sub || sub.conn.isClosed) {
      this.o.log.warn('ha satellite: a segment for Home Assistant, but it is not connected', { why });
      this.o.hooks.earcon('error');
      return false;
    }
    if (this.run) this.endRun('a new run started');
    const cut = wakeCut(pcm, heard, this.o.wakePhrases ?? []);
    const run: Run = { conn: sub.conn, audio: pcm.subarray(cut.cutSample), accepted: false, continueConversation: false, answer: 'none', finishedSent: false, ended: false, timer: null };
    this.run = run;
    this.followUntil = 0;
    run.timer = this.o.clock.setTimer(ACCEPT_MS, () => {
      if (this.run === run && !run.accepted) {
        this.o.log.warn('ha satellite: Home Assistant did not accept the run', { withinMs: ACCEPT_MS });
        this.o.hooks.earcon('error');
        this.endRun('not accepted');
      }
    });
    const cutMs = Math.round((cut.cutSample / 16) * 10) / 10;
    this.o.bus.emit('ha.satellite.request', { samples: run.audio.length, why, conversationId: this.conversationId || null, wakeWordPhrase: cut.phrase, cutMs, cutBy: cut.by });
    // An empty phrase is "none" to aioesphomeapi (the button, a follow-up: the reference satellite sends none).
    run.conn.send('VoiceAssistantRequest', { start: true, conversationId: this.conversationId, flags: 0, wakeWordPhrase: cut.phrase ?? '' });
    return true;
  }

  stop(): void {
    this.abort('hark is stopping');
    this.endRun('stopping');
    for (const c of [...this.conns]) c.close('hark is stopping');
  }

  private accepted(conn: ApiConnection, msg: Msg): void {
    const run = this.run;
    if (!run || run.conn !== conn || run.accepted) return;
    if (msg.error) {
      this.o.log.warn('ha satellite: Home Assistant refused the run');
      this.o.hooks.earcon('error');
      return this.endRun('refused');
    }
    run.accepted = true;
    if (run.timer) this.o.clock.clearTimer(run.timer);
    run.timer = null;
    // Port 0 (or none): audio over the API itself, as hark announced (API audio). Never an empty
    // chunk: Home Assistant's audio stream ends at the first one (assist_satellite.py _wrap_audio_stream).
    const a = run.audio;
    const bytes = Buffer.from(a.buffer, a.byteOffset, a.byteLength);
    for (let i = 0; i < a.length; i += CHUNK_SAMPLES) {
      conn.send('VoiceAssistantAudio', { data: bytes.subarray(i * 2, Math.min(a.length, i + CHUNK_SAMPLES) * 2) });
    }
    // The graceful end of the audio: aioesphomeapi handle_stop(False), the run goes on to an answer.
    // (VoiceAssistantRequest{start: false} would be handle_stop(True): the run cancelled.)
    conn.send('VoiceAssistantAudio', { end: true });
    this.o.bus.emit('ha.satellite.audio', { bytes: bytes.length });
  }

  private event(conn: ApiConnection, msg: Msg): void {
    const type = Number(msg.eventType);
    const data = Object.fromEntries(((msg.data as { name: string; value: string }[]) ?? []).map((d) => [d.name, d.value]));
    const run = this.run?.conn === conn ? this.run : null;
    this.o.bus.emit('ha.satellite.event', { event: EVENT_NAME[type] ?? String(type), data });
    switch (type) {
      case EVENT.STT_END:
        this.o.log.info('ha satellite: Home Assistant heard', { text: data.text ?? '' });
        return;
      case EVENT.INTENT_END:
        if (data.conversation_id) this.conversationId = data.conversation_id;
        if (run) run.continueConversation = data.continue_conversation === '1' || data.continue_conversation === 'true';
        return;
      case EVENT.TTS_END:
        if (run && data.url && run.answer === 'none') {
          run.answer = 'playing';
          void this.playUrl(data.url, 'answer').then((ok) => {
            run.answer = 'done';
            this.finished(run, ok);
            if (this.run === run && run.ended) this.afterRun(run);
          });
        }
        return;
      case EVENT.ERROR:
        this.o.log.warn('ha satellite: Home Assistant pipeline error', { code: data.code ?? '', message: data.message ?? '' });
        this.o.hooks.earcon('error');
        return;
      case EVENT.RUN_END:
        if (run) {
          run.ended = true;
          if (run.answer === 'playing') return;
          // No answer to play (none came, or it failed): the reference satellite still says it is
          // done (satellite.py RUN_END → _tts_finished), so an entity that went "responding" on
          // TTS_START is not left there.
          this.finished(run, false);
          this.afterRun(run);
        }
        return;
      default:
        return;
    }
  }

  /**
   * VoiceAssistantAnnounceFinished, once a run: the reference satellite sends it when the answer's
   * playback ends (satellite.py _tts_finished), ESPHome when its media player stops; Home Assistant
   * (assist_satellite.py handle_announcement_finished → tts_response_finished) then sets the
   * satellite entity back to idle, and only then is a continued conversation's next run expected.
   */
  private finished(run: Run, success: boolean): void {
    if (run.finishedSent || run.conn.isClosed) return;
    run.finishedSent = true;
    // A newer run has started since (a command said over this answer): its entity state is Home
    // Assistant's current one, and a late "finished" would set it idle mid-run.
    if (this.run && this.run !== run) return;
    run.conn.send('VoiceAssistantAnnounceFinished', { success });
    this.o.bus.emit('ha.satellite.finished', { success });
  }

  /** The run is over and its answer played: Home Assistant's question opens the follow-up window. */
  private afterRun(run: Run): void {
    if (this.run !== run) return;
    this.run = null;
    if (run.continueConversation) {
      this.followUntil = this.o.clock.now() + FOLLOW_UP_MS;
      this.o.hooks.earcon('listening');
      this.o.bus.emit('ha.satellite.follow-up', { withinMs: FOLLOW_UP_MS });
    } else this.conversationId = '';
  }

  private endRun(why: string): void {
    const run = this.run;
    if (!run) return;
    if (run.timer) this.o.clock.clearTimer(run.timer);
    this.run = null;
    this.o.log.debug('ha satellite: run ended', { why });
  }

  private async playUrl(url: string, what: string): Promise<boolean> {
    try {
      const pcm = await this.o.hooks.media(url);
      const outcome = await this.o.hooks.play(pcm, `[Home Assistant ${what}]`);
      this.o.bus.emit('ha.satellite.played', { what, url, samples: pcm.length, outcome });
      return outcome === 'ended';
    } catch (err) {
      this.o.log.warn(`ha satellite: cannot play the ${what}`, { url, error: errorMessage(err) });
      this.o.hooks.earcon('error');
      return false;
    }
  }

  private timer(msg: Msg): void {
    const event = TIMER_EVENT[Number(msg.eventType)] ?? 'unknown';
    const name = String(msg.name ?? '') || undefined;
    this.o.bus.emit('ha.satellite.timer', { event, id: String(msg.timerId ?? ''), name: name ?? null, totalSeconds: Number(msg.totalSeconds ?? 0), secondsLeft: Number(msg.secondsLeft ?? 0) });
    if (event === 'finished') this.o.hooks.ring(name);
  }

  private async announce(conn: ApiConnection, msg: Msg): Promise<void> {
    const url = String(msg.mediaId ?? '');
    let ok = false;
    if (msg.preannounceMediaId) await this.playUrl(String(msg.preannounceMediaId), 'pre-announcement');
    if (url) ok = await this.playUrl(url, 'announcement');
    else this.o.log.warn('ha satellite: an announcement with no media', { text: msg.text ?? '' });
    conn.send('VoiceAssistantAnnounceFinished', { success: ok });
    this.o.bus.emit('ha.satellite.announced', { url, success: ok });
    if (ok && msg.startConversation) {
      this.followUntil = this.o.clock.now() + FOLLOW_UP_MS;
      this.o.bus.emit('ha.satellite.follow-up', { withinMs: FOLLOW_UP_MS });
    }
  }
}
