import type { HaSatelliteConfig } from './config.js';
import type { Bus } from '../../core/bus.js';
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/log.js';
import type { ApiConnection, DeviceSide } from './connection.js';
import type { Msg } from './proto.js';
import { CancelledRun } from './cancelled-run.js';
import { configurationResponse, deviceInfo, ENTITIES } from './device.js';
import { FollowUpWindow } from './follow-up.js';
import { playAnnouncement, playUrl, timerEvent } from './playback.js';
import { ACCEPT_MS, CANCEL_WINDOW_MS, FOLLOW_UP_MS, newRun, sendRunAudio, type Run } from './run.js';
import { runEnding } from './run-end.js';
import { AUDIO_SETTINGS, EVENT, EVENT_NAME, MUTE_KEY, type SatelliteHooks } from './voice-api.js';
import { wakeCut, type Heard } from './wake-cut.js';
import './events.js';

export { EVENT, FEATURES, MUTE_KEY, type SatelliteHooks } from './voice-api.js';

export { CANCEL_WINDOW_MS, FOLLOW_UP_MS } from './run.js';

/**
 * hark as an Assist satellite: the device side of Home Assistant's voice pipeline over the
 * ESPHome native API. Home Assistant subscribes; a segment hark hands over (decide.ts) becomes a
 * VoiceAssistantRequest naming the wake phrase heard, and its audio from where that phrase ends;
 * Home Assistant's run events come back and drive hark: the TTS answer is fetched, played and
 * reported finished (the entity goes idle), `continue_conversation` starts the next run at once,
 * timers ring as hark's own, announcements play and are acknowledged. Message by message this
 * follows ESPHome's own device (voice_assistant.cpp), what Home Assistant expects (aioesphomeapi
 * client.py subscribe_voice_assistant, HA's esphome/assist_satellite.py) and the reference
 * satellite (OHF-Voice/linux-voice-assistant satellite.py).
 */
export class Satellite implements DeviceSide {
  readonly name: string;
  readonly mac: string;
  private readonly conns = new Set<ApiConnection>();
  private subscriber: { conn: ApiConnection; apiAudio: boolean } | null = null;
  private run: Run | null = null;
  private readonly cancelled: CancelledRun<ApiConnection>;
  private readonly window: FollowUpWindow;
  /** Announcements being played: until the last has, no run reports its answer finished. */
  private announcing = 0;
  private conversationId = '';

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
    this.cancelled = new CancelledRun(o.clock, CANCEL_WINDOW_MS);
    this.window = new FollowUpWindow(o.clock);
  }

  /** Home Assistant is subscribed to the voice assistant and can take a run now. */
  get ready(): boolean {
    return this.subscriber !== null && !this.subscriber.conn.isClosed;
  }

  /** The answer to Home Assistant's question may come without the wake phrase. */
  get followUp(): boolean {
    return this.window.open;
  }

  added(conn: ApiConnection): void {
    this.conns.add(conn);
  }

  subscribedOn(conn: ApiConnection): boolean {
    return this.subscriber?.conn === conn;
  }

  deviceInfo(o: { encrypted: boolean }): Msg {
    const { friendlyName, version, area } = this.o;
    return deviceInfo({ name: this.name, friendlyName, mac: this.mac, version, encrypted: o.encrypted, ...(area ? { area } : {}) });
  }

  entities(): { name: string; msg: Msg }[] {
    return [...ENTITIES];
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
        conn.send('VoiceAssistantConfigurationResponse', configurationResponse(this.o.config.wakeWord));
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
        return timerEvent(this.o, msg);
      case 'VoiceAssistantAnnounceRequest':
        void this.announce(conn, msg);
        return;
      default:
        this.o.log.debug('ha satellite: message not handled', { message: name });
    }
  }

  /**
   * A client went away. A run Home Assistant had not answered (cancelled just before, as a clean
   * stop does, or not, as a crash) will never be answered: the error sound now, not a wait; an
   * answer already playing plays on; the conversation is forgotten. It reconnects by itself.
   */
  closed(conn: ApiConnection): void {
    this.conns.delete(conn);
    if (this.subscriber?.conn === conn) this.subscriber = null;
    const run = this.run;
    // A clean stop cancels the run first (RUN_END), then disconnects; a crash just disconnects.
    const cancelledHere = this.cancelled.settle(conn);
    if (run?.conn === conn || cancelledHere) {
      if (cancelledHere || (run && run.answer === 'none' && run.audio !== null)) {
        this.o.log.warn('ha satellite: Home Assistant went away before answering (restarted or upgraded?); the run is lost', { connection: conn.id });
        this.o.hooks.earcon('error');
      }
      this.endRun('Home Assistant disconnected');
      this.conversationId = '';
      this.window.close();
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
    this.cancelled.settle();
    const cut = wakeCut(pcm, heard, this.o.wakePhrases ?? []);
    const audio = pcm.subarray(cut.cutSample);
    const cutMs = Math.round((cut.cutSample / 16) * 10) / 10;
    // A continued conversation's run is already open, waiting for this answer: it takes the audio.
    const open = this.run && this.run.audio === null && this.run.conn === sub.conn ? this.run : null;
    this.window.close();
    this.o.bus.emit('ha.satellite.request', {
      samples: audio.length,
      why,
      conversationId: this.conversationId || null,
      wakeWordPhrase: open ? null : cut.phrase,
      cutMs,
      cutBy: cut.by,
    });
    if (open) {
      open.audio = audio;
      if (open.accepted) sendRunAudio(open, this.o.bus);
      return true;
    }
    if (this.run) this.endRun('a new run started');
    // An empty phrase is "none" to aioesphomeapi (the button, a follow-up: the reference satellite sends none).
    this.request(sub.conn, audio, cut.phrase ?? '');
    return true;
  }

  /** hark's rules took what was said while a continued conversation's run waits (a timer): it is dropped. */
  answeredLocally(): void {
    if (this.run?.audio === null) this.abort("hark's own rules took the answer");
  }

  /** VoiceAssistantRequest{start}, with the audio settings ESPHome sends; the audio follows acceptance. */
  private request(conn: ApiConnection, audio: Int16Array | null, wakeWordPhrase: string): void {
    const run = newRun(conn, audio);
    this.run = run;
    run.timer = this.o.clock.setTimer(ACCEPT_MS, () => {
      if (this.run === run && !run.accepted) {
        this.o.log.warn('ha satellite: Home Assistant did not accept the run', { withinMs: ACCEPT_MS });
        this.o.hooks.earcon('error');
        this.endRun('not accepted');
      }
    });
    conn.send('VoiceAssistantRequest', { start: true, conversationId: this.conversationId, flags: 0, audioSettings: AUDIO_SETTINGS, wakeWordPhrase });
  }

  stop(): void {
    this.abort('hark is stopping');
    this.endRun('stopping');
    this.cancelled.settle();
    this.window.close();
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
    if (run.audio) sendRunAudio(run, this.o.bus);
  }

  private event(conn: ApiConnection, msg: Msg): void {
    const type = Number(msg.eventType);
    const data = Object.fromEntries(((msg.data as { name: string; value: string }[]) ?? []).map((d) => [d.name, d.value]));
    const run = this.run?.conn === conn ? this.run : null;
    this.o.bus.emit('ha.satellite.event', { event: EVENT_NAME[type] ?? String(type), data });
    if (run && type === EVENT.RUN_END && !run.accepted) {
      // Home Assistant ends the pipeline it was running before it accepts the next (its new
      // pipeline task cancels the old first): this RUN_END, and what came before it, were that one's.
      run.events = [];
      return;
    }
    if (run && type !== EVENT.RUN_END) run.events.push(type);
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
          void playUrl(this.o, data.url, 'answer').then((ok) => {
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
          // No answer was played, so no VoiceAssistantAnnounceFinished: ESPHome sends it only when its
          // media player has played an announcement or a TTS answer (voice_assistant.cpp), and Home
          // Assistant takes the first one that comes as the end of whatever it is waiting for — an
          // announcement it makes right after cancelling this run among them.
          if (run.answer === 'none' && run.audio && runEnding(run.events) === 'cancelled') this.judgeCancelled(run);
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
    // An announcement came while the answer played: Home Assistant waits for the announcement's
    // "finished", and would take this one for it; the announcement's own sets the entity idle.
    if (this.announcing > 0) return;
    run.conn.send('VoiceAssistantAnnounceFinished', { success });
    this.o.bus.emit('ha.satellite.finished', { success });
  }

  /** The run is over and its answer played: Home Assistant's question continues the conversation. */
  private afterRun(run: Run): void {
    if (this.run !== run) return;
    this.run = null;
    if (run.audio === null) this.window.close(); // cancelled by Home Assistant before the answer came
    if (run.continueConversation && run.answer === 'done') this.continueConversation(run.conn);
    else this.conversationId = '';
  }

  /**
   * Home Assistant asked something back, or an announcement starts a conversation: the next run
   * starts at once, as ESPHome's (RESPONSE_FINISHED → START_PIPELINE) and the reference satellite's
   * (_tts_finished → VoiceAssistantRequest) do, so the entity shows listening while the cook
   * answers. hark hears whole segments, so the run's audio is the answer's segment when it comes
   * (no wake phrase needed for FOLLOW_UP_MS); no answer by then, and the run is aborted.
   */
  private continueConversation(conn: ApiConnection): void {
    if (conn.isClosed || this.subscriber?.conn !== conn) return;
    this.o.hooks.earcon('listening');
    this.o.bus.emit('ha.satellite.follow-up', { withinMs: FOLLOW_UP_MS });
    this.request(conn, null, '');
    this.window.start(FOLLOW_UP_MS, () => {
      if (this.run?.audio === null) this.abort('no answer within the follow-up window');
    });
  }

  /**
   * Home Assistant cancelled the run before answering. Followed by a disconnect, it is stopping
   * (closed() says so and plays the error sound); by an announcement, the announcement is the
   * answer; by nothing, the cook is still told that no answer will come.
   */
  private judgeCancelled(run: Run): void {
    this.cancelled.hold(run.conn, () => {
      this.o.log.warn('ha satellite: Home Assistant cancelled the run before answering', { connection: run.conn.id });
      this.o.hooks.earcon('error');
    });
  }

  private endRun(why: string): void {
    const run = this.run;
    if (!run) return;
    if (run.timer) this.o.clock.clearTimer(run.timer);
    this.run = null;
    // A continued conversation's run given up on (aborted, refused, gone): the answer window goes with it.
    if (run.audio === null) this.window.close();
    this.o.log.debug('ha satellite: run ended', { why });
  }

  private async announce(conn: ApiConnection, msg: Msg): Promise<void> {
    // Home Assistant cancels a running pipeline before it announces: the announcement is what the
    // cook hears instead, so that cancellation is no failure.
    this.cancelled.settle(conn);
    let ok = false;
    this.announcing++;
    try {
      ok = await playAnnouncement(this.o, msg);
    } finally {
      this.announcing--;
    }
    if (conn.isClosed) return;
    conn.send('VoiceAssistantAnnounceFinished', { success: ok });
    this.o.bus.emit('ha.satellite.announced', { url: String(msg.mediaId ?? ''), success: ok });
    if (ok && msg.startConversation) this.continueConversation(conn);
  }
}
