import type { HaSatelliteConfig } from '../../config/sections/ha-satellite.js';
import type { Bus } from '../../core/bus.js';
import type { Clock } from '../../core/clock.js';
import { errorMessage } from '../../core/errors.js';
import type { Logger } from '../../core/log.js';
import type { ApiConnection, DeviceSide } from './connection.js';
import type { Msg } from './proto.js';
import './events.js';

/** ESPHome's VoiceAssistantFeature bits (aioesphomeapi): what Home Assistant may use on this device. */
export const FEATURES = { voiceAssistant: 1, speaker: 2, apiAudio: 4, timers: 8, announce: 16, startConversation: 32 } as const;
const OUR_FEATURES = FEATURES.voiceAssistant | FEATURES.apiAudio | FEATURES.timers | FEATURES.announce | FEATURES.startConversation;

/** VoiceAssistantEvent numbers from api.proto. */
export const EVENT = { ERROR: 0, RUN_START: 1, RUN_END: 2, STT_START: 3, STT_END: 4, INTENT_START: 5, INTENT_END: 6, TTS_START: 7, TTS_END: 8, STT_VAD_START: 11, STT_VAD_END: 12 } as const;
const EVENT_NAME: Record<number, string> = Object.fromEntries(Object.entries(EVENT).map(([k, v]) => [v, k.toLowerCase().replaceAll('_', '-')]));
const TIMER_EVENT = ['started', 'updated', 'cancelled', 'finished'] as const;

/** The mute switch's entity key (a fixed32 Home Assistant echoes in commands). */
export const MUTE_KEY = 0x6d757465; // "mute"

/** Samples per VoiceAssistantAudio message: 64 ms, as ESPHome devices send. */
const CHUNK_SAMPLES = 1024;
/** How long hark waits for Home Assistant to accept a run (VoiceAssistantResponse). */
const ACCEPT_MS = 5000;
/** After a run that asked something back, the answer needs no wake phrase for this long. */
export const FOLLOW_UP_MS = 8000;

/** What the satellite needs of hark: its speaker, its mute, its ring, its router. */
export interface SatelliteHooks {
  /** Play decoded audio through hark's speech queue (barge-in applies); resolves with how it ended. */
  play(pcm: Int16Array, text: string): Promise<string>;
  earcon(name: string): void;
  muted(): boolean;
  setMuted(muted: boolean): void;
  /** A Home Assistant timer is done: ring it as one of hark's. */
  ring(label: string | undefined): void;
  /** Fetch and decode a TTS/announcement URL to hark's playback format. */
  media(url: string): Promise<Int16Array>;
}

interface Run {
  conn: ApiConnection;
  pcm: Int16Array;
  accepted: boolean;
  continueConversation: boolean;
  /** The answer being fetched and played; the run is over when it has played and RUN_END came. */
  playing: Promise<unknown> | null;
  /** RUN_END came. */
  ended: boolean;
  timer: ReturnType<Clock['setTimer']> | null;
}

/**
 * hark as an Assist satellite: the device side of Home Assistant's voice pipeline over the
 * ESPHome native API. Home Assistant subscribes; a segment hark hands over (decide.ts) becomes a
 * VoiceAssistantRequest and its audio, pre-roll first; Home Assistant's run events come back and
 * drive hark: the TTS answer is fetched and played, `continue_conversation` opens a window in which
 * the answer needs no wake phrase, timers ring as hark's own, announcements play and are acknowledged.
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
    private readonly o: { config: HaSatelliteConfig; friendlyName: string; name: string; mac: string; version: string; area?: string; bus: Bus; clock: Clock; log: Logger; hooks: SatelliteHooks },
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

  /** hark's mute changed (button, Home Assistant): every client hears the new state. */
  muteChanged(muted: boolean): void {
    for (const c of this.conns) c.send('SwitchStateResponse', { key: MUTE_KEY, state: muted });
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

  closed(conn: ApiConnection): void {
    this.conns.delete(conn);
    if (this.subscriber?.conn === conn) this.subscriber = null;
    if (this.run?.conn === conn) this.endRun('Home Assistant disconnected');
  }

  /**
   * Hand a segment to Home Assistant: VoiceAssistantRequest{start}, then (once accepted) its audio,
   * pre-roll first, then the end of the stream (VoiceAssistantRequest{start: false}). False when no
   * Home Assistant is subscribed.
   */
  startRun(pcm: Int16Array, why: string): boolean {
    const sub = this.subscriber;
    if (!sub || sub.conn.isClosed) {
      this.o.log.warn('ha satellite: a segment for Home Assistant, but it is not connected', { why });
      this.o.hooks.earcon('error');
      return false;
    }
    if (this.run) this.endRun('a new run started');
    const run: Run = { conn: sub.conn, pcm, accepted: false, continueConversation: false, playing: null, ended: false, timer: null };
    this.run = run;
    this.followUntil = 0;
    run.timer = this.o.clock.setTimer(ACCEPT_MS, () => {
      if (this.run === run && !run.accepted) {
        this.o.log.warn('ha satellite: Home Assistant did not accept the run', { withinMs: ACCEPT_MS });
        this.o.hooks.earcon('error');
        this.endRun('not accepted');
      }
    });
    this.o.bus.emit('ha.satellite.request', { samples: pcm.length, why, conversationId: this.conversationId || null });
    run.conn.send('VoiceAssistantRequest', { start: true, conversationId: this.conversationId, flags: 0, wakeWordPhrase: this.o.config.wakeWord });
    return true;
  }

  stop(): void {
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
    // Port 0 (or none): audio over the API itself, as hark announced (API audio).
    const bytes = Buffer.from(run.pcm.buffer, run.pcm.byteOffset, run.pcm.byteLength);
    for (let i = 0; i < run.pcm.length; i += CHUNK_SAMPLES) {
      conn.send('VoiceAssistantAudio', { data: bytes.subarray(i * 2, Math.min(run.pcm.length, i + CHUNK_SAMPLES) * 2) });
    }
    conn.send('VoiceAssistantRequest', { start: false });
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
        if (run && data.url) {
          run.playing = this.playUrl(data.url, 'answer').then(() => {
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
          if (!run.playing) this.afterRun(run);
        }
        return;
      default:
        return;
    }
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
