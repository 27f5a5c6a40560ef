import { Bus } from '../core/bus.js';
import { VirtualClock } from '../core/clock.js';
import { speechEndAt as speechEnd, trailingSilenceMs } from '../core/speech-end.js';
import { VirtualDrive } from '../core/virtual-drive.js';
import type { Logger } from '../core/log.js';
import { Conversation, type ConversationDeps } from '../path/conversation.js';
import { createSpeech } from '../speech/create.js';
import { answerPlaysAfterMs } from '../turn/cascade.js';
import type { EchoConfig } from '../echo/config.js';
import type { SpeechConfig } from '../speech/config.js';
import type { SttConfig } from '../stt/config.js';
import type { VadConfig } from '../vad/config.js';
import type { Effect } from '../core/effects.js';
import { addEffect, emptyNewOutcome, type Heard, type NewOutcome, type SegmentReplay, type VadOutcome } from './outcome.js';
import type { StoredSegment } from './source.js';

/** What the hearing side (stored text, or VAD + speech-to-text on the stored audio) made of a segment. */
export type HearResult = { skip: string } | { input: 'audio' | 'text'; heard: Heard; vad: VadOutcome | null; note: string | null };

export type Hear = (s: StoredSegment) => Promise<HearResult>;

/** What a replay reads: the command side's sections, hark's voice (modelled), the VAD's hangover and the early close's pause (for rows that did not store theirs). */
export type ReplaySections = ConversationDeps['config'] & {
  speech: SpeechConfig;
  echo: EchoConfig;
  vad: Pick<VadConfig, 'threshold' | 'hangoverMs'>;
  stt: Pick<SttConfig, 'preemptiveMs'>;
};

export interface RunOptions {
  config: ReplaySections;
  segments: readonly StoredSegment[];
  /** Timers are run up to here after the last segment (the end of what the log knows). */
  horizonMs: number;
  hear: Hear;
  /** File targets write only here (a temporary directory the caller removes). */
  scratchDir: string;
  /** The intent pass against this Ollama (`hark replay --ollama`); without it, none (the model absent). */
  ollama?: string;
  log: Logger;
  /** Each segment's replay, in order, once everything it set off up to the next segment is in. */
  onResult: (r: SegmentReplay) => void;
}

/**
 * The router side of a replay: the device's command side (Conversation, built by buildCommandParts), on a
 * virtual clock that follows the stored segments' times, so a query's silence timer, a confirm
 * timeout, a last-wins conflict window and a kitchen timer run out between segments as they did on the
 * appliance. No side effects: file targets write into `scratchDir`, webhooks are never called.
 *
 * Each segment's utterances are dispatched at the time the segment ended. Effects while it is
 * handled are its own; effects fired by timers before the next segment are hung on it as `later`
 * (the store does the same on the old side).
 */
export async function runReplay(o: RunOptions): Promise<void> {
  const first = o.segments[0];
  if (!first) return;
  const clock = new VirtualClock(first.endedAt);
  let current: { replay: SegmentReplay; out: NewOutcome; speechEndAt: number } | null = null;
  let handling = false;
  // The device's own command side, on a virtual clock, with playback modelled on it: the
  // response cascade prepares a proposal at 0.5 s and hands it over at 2 s as on the device.
  const bus = new Bus();
  const speech = createSpeech(o.config, { bus, clock, simulated: {} });
  const conversation = new Conversation({
    config: o.config,
    bus,
    clock,
    log: o.log,
    store: null,
    speech,
    // Never where the config points (that may be the appliance's real submissions file); webhooks never called.
    sandbox: { dir: o.scratchDir, notCalled: { webhook: 'replay', ha: 'replay' }, ...(o.ollama ? { ollama: o.ollama } : {}) },
  });
  // An answer (a read-back) is said when the device's response cascade would play it.
  conversation.listen((e: Effect, atMs) => {
    if (!current) return;
    const after = atMs - current.speechEndAt;
    addEffect(current.out, e, !handling, e.type === 'speak' && e.answer ? answerPlaysAfterMs(o.config.cascade, after) : after);
  });
  // Settle async work (while the model or the voice is working, virtual time follows real time) and
  // move timer by timer, as simulate does, so what a timer sets off lands before the next.
  const drive = new VirtualDrive(clock, () => conversation.settle(clock));
  const { settle } = drive;
  const finish = () => {
    if (current) o.onResult(current.replay);
    current = null;
  };

  try {
    for (const s of o.segments) {
      const heard = await o.hear(s);
      // Out of order by a few ms (started_at is derived) must not move the clock backwards.
      await drive.advanceTo(Math.max(clock.now(), s.endedAt));
      finish();
      if ('skip' in heard) {
        o.onResult({ id: s.id, startedAt: s.startedAt, input: 'text', note: null, skipped: heard.skip, old: s.old, new: null });
        continue;
      }
      // The cascade counts from when the words ended, as on the device: the hangover it had in force,
      // stored with the segment; a row from before that was kept takes the base hangover.
      const trailingMs =
        s.trailingSilenceMs ?? trailingSilenceMs(s.closeReason, { hangoverMs: o.config.vad.hangoverMs, preemptiveMs: o.config.stt.preemptiveMs });
      const out = emptyNewOutcome(heard.heard, heard.vad, trailingMs);
      const speechEndAt = speechEnd(clock.now(), trailingMs);
      current = { replay: { id: s.id, startedAt: s.startedAt, input: heard.input, note: heard.note, skipped: null, old: s.old, new: out }, out, speechEndAt };
      handling = true;
      // One at a time, each settled before the next, as Conversation.dispatch does.
      for (const [i, text] of heard.heard.texts.entries()) {
        // The language it was heard in goes with it, as speech-to-text hands it on: read in it first.
        const language = heard.heard.languages?.[i] ?? undefined;
        const dispatched = conversation.dispatch(
          {
            id: `replay-${s.id}-${i}`,
            text,
            rawText: text,
            engine: engineName(heard.heard.engine),
            atMs: clock.now(),
            segmentId: s.id,
            ...(language ? { language } : {}),
          },
          speechEndAt,
        );
        await settle();
        await dispatched;
      }
      handling = false;
    }
    await drive.advanceTo(Math.max(clock.now(), o.horizonMs));
    finish();
  } finally {
    conversation.dispose();
    speech.close();
  }
}

function engineName(e: string | null): 'whisper' | 'deepgram' | 'text' {
  return e === 'whisper' || e === 'deepgram' ? e : 'text';
}
