import type { Bus } from '../core/bus.js';
import type { Speech } from '../speech/create.js';
import type { SttStack } from '../stt/create.js';
import type { InterimTranscript } from '../stt/interim-transcript.js';
import type { LiveSegment } from '../stt/transcriber.js';
import type { FilterDecision } from '../turn/interruption.js';
import { detectIntent } from '../language/intent-rules.js';
import { completeCommand } from '../command/complete.js';
import type { RouterConfig } from '../command/config.js';
import type { SttConfig } from '../stt/config.js';
import { SAMPLE_RATE } from '../audio/pcm.js';
import type { Conversation } from './conversation.js';
import { longSpeechSeconds } from './opening.js';
import type { OpeningJudge, OpeningVerdict } from './opening-check.js';

/**
 * Stage 1 of a segment's path: the open segment, from the VAD opening it to its close.
 * In: the segmenter's events (opened, audio, paused, resumed, long, dropped). Out: the OpenSegment
 * handed to the line at its close (close()). While it is open its live hearing (cloud partials) and its
 * pauses' speculative transcripts feed the interruption filter, so "stop" cuts hark off before the
 * segment closes. A long segment in wake-word mode gets the wake-phrase check of its opening
 * while it is still being said; only when the wake phrase is there do its pauses start the whole.
 */

declare module '../core/bus.js' {
  interface HarkEvents {
    /** A tentative intent from the settled words of the open segment — a hint for the page, never acted on. */
    'intent.candidate': { segmentId: string; candidate: string; stableText: string };
  }
}

/** A segment between the VAD opening it and its close. */
export interface OpenSegment {
  startSample: number;
  /** Its name until it closes and gets an index. */
  key: string;
  live: LiveSegment | null;
  /** hark was speaking at some point while this was said: the interruption filter applies. */
  speaking: boolean;
  /** The answer cascade's playback is held for it until it is known to be words. */
  held: boolean;
  /** Final chunks of the live hearing already decided on by the interruption filter. */
  spans: number;
  /** The last intent hint given for it. */
  candidate: string | null;
  /** Pauses so far (each may start a speculative transcript). */
  pauses: number;
  /** Ids it gave the interruption filter: forgotten when the segment comes to nothing. */
  bargeIds: Set<string>;
  /** Pre-roll samples at its start: its speech is measured without them. */
  prerollSamples: number;
  /** The wake-phrase check of its opening, once its speech ran long (null: short so far, or no check). */
  opening: OpenCheck | null;
  /** The last pause's audio while no speech has followed it: the whole starts on it if the check says so. */
  lastPause: { pcm: Int16Array; n: number } | null;
}

/** A long open segment's opening check. */
export interface OpenCheck {
  /** Pre-roll and stt.opening.seconds of speech. */
  pcm: Int16Array;
  maxProb: number;
  /** Null until it starts: it waits while speech-to-text has segments to finish first. */
  verdict: Promise<OpeningVerdict | null> | null;
  /** What it said, once it has. */
  result: OpeningVerdict | null;
}

export interface OpenSegmentDeps {
  conv: Conversation;
  stt: SttStack | null;
  speech: Speech | null;
  bus: Bus;
  config: { stt: SttConfig; router: RouterConfig };
  /** Wake-word mode with nothing awaited: a long segment gets its opening checked, not a transcript at each pause. */
  openingChecked: () => boolean;
  /** The opening check; null when it cannot be used (no phrases, or no speech-to-text). */
  judge: OpeningJudge | null;
  /**
   * Speech-to-text has closed segments to finish (one in its words stage, or waiting in the line):
   * an open segment's check waits for them, so push-to-talk and awaited answers keep going first.
   */
  sttBusy: () => boolean;
  /** Close the open segment now (the segment pipeline's closeEarly). */
  closeEarly?: () => void;
}

export class OpenSegments {
  private open: OpenSegment | null = null;
  constructor(private readonly d: OpenSegmentDeps) {}

  opened(e: { startSample: number; pcm: Int16Array; prerollSamples?: number }): void {
    const speaking = this.d.speech?.queue.isSpeaking ?? false;
    const key = `@${e.startSample}`;
    const seg: OpenSegment = {
      startSample: e.startSample,
      key,
      live: null,
      speaking,
      held: false,
      spans: 0,
      candidate: null,
      pauses: 0,
      bargeIds: new Set(),
      prerollSamples: e.prerollSamples ?? 0,
      opening: null,
      lastPause: null,
    };
    // An answer being prepared waits while the person may be talking; a cough gives it back.
    seg.held = this.d.conv.hold();
    seg.live = this.d.stt?.transcriber.open(key, e.pcm, (h) => this.hearing(seg, h)) ?? null;
    this.open = seg;
  }

  audio(frame: Int16Array): void {
    const seg = this.open;
    if (!seg) return;
    if (!seg.speaking && this.d.speech?.queue.isSpeaking) seg.speaking = true;
    seg.live?.write(frame);
    // A check that waited for speech-to-text: every frame asks again, while the segment is open.
    if (seg.opening && !seg.opening.verdict) this.check(seg);
  }

  /**
   * The open segment's speech ran long (the segmenter's `long`): check its opening for the wake phrase
   * now, while the person is still talking, so the verdict — and, with the wake phrase, the whole's
   * transcript started at the pauses — is in by the close instead of two inferences after it.
   */
  long(e: { startSample: number; pcm: Int16Array; prerollSamples: number; maxProb: number }): void {
    const seg = this.open;
    const judge = this.d.judge;
    if (seg?.startSample !== e.startSample || !judge || seg.live) return;
    seg.opening = { pcm: judge.openingOf(e.pcm, e.prerollSamples), maxProb: e.maxProb, verdict: null, result: null };
    this.check(seg);
  }

  private check(seg: OpenSegment): void {
    const c = seg.opening!;
    // Not while something waits for an answer (the segment is then transcribed whole), nor while closed
    // segments wait for speech-to-text (they go first; the next audio frame asks again).
    if (!this.d.openingChecked() || this.d.sttBusy()) return;
    // No deadline runs yet (it counts from the close): waitedMs 0.
    c.verdict = this.d.judge!.judge({ index: seg.key, pcm: c.pcm, maxProb: c.maxProb, waitedMs: 0 }, seg.key).then((v) => {
      c.result = v;
      // The person already paused: the whole starts on what they said, as at any pause.
      if (v?.kind === 'wake' && this.open === seg && seg.lastPause) this.preempt(seg, seg.lastPause.pcm, seg.lastPause.n);
      return v;
    });
  }

  /** The segmenter dropped the open segment (too short): its stream goes, and a held answer plays. */
  dropped(startSample: number): void {
    const seg = this.open;
    if (!seg || seg.startSample !== startSample) return;
    this.open = null;
    this.d.stt?.transcriber.cancel(seg.live, 'the segment was too short');
    this.d.stt?.transcriber.discardPreempt(seg.key);
    // A partial "mm" waiting for its final must not time out into an interruption now.
    forgetBarge(this.d.conv, seg);
    release(this.d.conv, seg);
  }

  /**
   * The open segment fell silent (stt.preemptiveMs): the person may have stopped, so local Whisper
   * starts on what was said; the close then finds the transcript ready instead of waiting for it.
   */
  paused(e: { startSample: number; pcm: Int16Array; silenceSamples?: number }): void {
    const seg = this.open;
    if (seg?.startSample !== e.startSample) return;
    const n = ++seg.pauses;
    if (this.d.openingChecked()) {
      const check = seg.opening;
      if (check) {
        seg.lastPause = { pcm: e.pcm, n };
        // Radio: once the opening says no wake phrase (or hands the whole past the local engine), the
        // rest of the segment costs no more local inference. Not known yet: started on the verdict.
        if (check.result?.kind !== 'wake') return;
      } else {
        // Measured as the segmenter and the close measure it (pre-roll and this pause not counted): a
        // long segment the segmenter did not tell about is checked at its close, not transcribed here.
        const speech = e.pcm.length - seg.prerollSamples - (e.silenceSamples ?? 0);
        if (speech > longSpeechSeconds(this.d.config.stt.opening.seconds) * SAMPLE_RATE) return;
      }
    }
    this.preempt(seg, e.pcm, n);
  }

  private preempt(seg: OpenSegment, pcm: Int16Array, n: number): void {
    const stt = this.d.config.stt;
    this.d.stt?.transcriber.preempt(seg.key, pcm, (t) => {
      if (this.open !== seg) return;
      // Said over hark's voice: decide barge-in on these words now, not after the hangover and another
      // inference. A whole transcript of the words so far, so "yeah" is settled as a backchannel here
      // (never timing out into an interruption) and "stop" stops hark at once.
      if (t.text) barge(this.d.conv, seg, `${seg.key}#pause${n}`, t.text, true, seg.speaking);
      // Already a whole command of the top frame ("yes", "stop"): act now, not after the rest of the hangover.
      if (!stt.actOnCompleteCommand) return;
      if (completeCommand(this.d.config.router.frames, this.d.conv.topFrame, t.text)) this.d.closeEarly?.();
    });
  }

  /** They went on: the speculative transcript is stale. */
  resumed(startSample: number): void {
    const seg = this.open;
    if (seg?.startSample !== startSample) return;
    seg.lastPause = null;
    this.d.stt?.transcriber.discardPreempt(seg.key);
  }

  /** The segmenter closed the segment that started here: it is handed over (null when it was not the open one). */
  close(startSample: number): OpenSegment | null {
    const seg = this.open?.startSample === startSample ? this.open : null;
    if (seg) {
      this.open = null;
      seg.lastPause = null;
    }
    // Told now, not at its turn: a server starts on it at once, and its deadline counts from the close.
    seg?.live?.end();
    return seg;
  }

  /**
   * The interruption filter on what has been heard so far of the open segment (cloud partials): while hark speaks,
   * command words stop it at once; a backchannel-only span waits for its final chunk. Each final chunk
   * of the segment gets its own decision, so "yeah … stop" still stops. Words cancel an
   * answer being prepared.
   */
  private hearing(seg: OpenSegment, h: InterimTranscript): void {
    const conv = this.d.conv;
    const speakingNow = this.d.speech?.queue.isSpeaking ?? false;
    if (speakingNow) seg.speaking = true;
    if (h.text && !seg.speaking) conv.interruptAnswer('speech');
    this.hint(seg, h.stableText);
    const chunks = h.finalChunks;
    while (seg.spans < chunks.length) barge(conv, seg, `${seg.key}#${seg.spans}`, chunks[seg.spans++]!, true, seg.speaking);
    if (h.partialText) barge(conv, seg, `${seg.key}#${seg.spans}`, h.partialText, false, seg.speaking);
  }

  /** Two-stage detection: the settled words' intent as a hint (UI, pre-warming); only the final acts. */
  private hint(seg: OpenSegment, stableText: string): void {
    if (!stableText) return;
    const intent = detectIntent(stableText, this.d.conv.commands.core.language);
    const candidate = intent.name === 'other' || intent.name === 'statement' ? null : intent.name;
    if (!candidate || candidate === seg.candidate) return;
    seg.candidate = candidate;
    this.d.bus.emit('intent.candidate', { segmentId: seg.key, candidate, stableText });
  }
}

// ---- the segment's hold on the floor: used while it is open and again when its fate is decided ----

/** The interruption filter on words of this segment (Conversation.interruption); its ids are forgotten if the segment comes to nothing. */
export function barge(
  conv: Conversation,
  seg: OpenSegment | null,
  id: string,
  text: string,
  final: boolean,
  speaking: boolean,
  language?: string,
): FilterDecision | null {
  seg?.bargeIds.add(id);
  return conv.interruption(id, text, final, speaking, language);
}

/** Every engine failed on a segment said over hark: it gets the floor. */
export function bargeFailed(conv: Conversation, seg: OpenSegment, reason: string): void {
  forgetBarge(conv, seg);
  conv.interruptionFailed(seg.key, reason);
}

export function forgetBarge(conv: Conversation, seg: OpenSegment): void {
  for (const id of seg.bargeIds) conv.forgetInterruption(id);
  seg.bargeIds.clear();
}

/** The answer held for this segment plays (once). */
export function release(conv: Conversation, seg: OpenSegment): void {
  if (!seg.held) return;
  seg.held = false;
  conv.release();
}
