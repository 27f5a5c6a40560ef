import type { Cancelling, TalkVerdict } from './double-talk.js';

/**
 * What the echo stage says of a frame beyond the double-talk verdict: whether the canceller has
 * collapsed, and whether it can vouch that someone is talking over hark (EchoStage.talkOver).
 */

/**
 * Smoothed cancellation (dB) under which a trusted canceller has collapsed: lost the echo, or met a
 * person louder than it (DoubleTalkDetector tells which). "stop" 6 dB under hark's cancelled echo keeps
 * about 7 dB; the echo moved 20-64 ms took it to 0-3 within two frames (test/echo/room-matrix.ts, the
 * -restart rooms).
 */
const LOST_ERLE_DB = 3;

/**
 * Ms of hark's sound the filter must have learnt from since it last started over (or its clip moved)
 * before its near-end verdicts may lift the VAD (talkOver). A young filter leaves hark's sound it has
 * not met yet: a ring's "Timer done" after the beeps, with ~5 s learnt, came through 18 dB louder than
 * the filter's residual had been (ERLE 33 -> 19 dB), was read as a person, and Silero scored it
 * 0.46-0.68; lifted, it opened a segment in 2 of 6 kitchens. With 15 s learnt, none (docs/echo.md).
 */
const TALK_OVER_LEARNT_MS = 15_000;
/**
 * A frame the canceller left louder than the microphone it was given (by more than this, dB) holds its
 * own estimate of hark's sound where that sound no longer is (the echo moved: the card restarted), not
 * a person: a voice adds to the microphone as much as to what is left of it.
 */
const LOUDER_DB = 1;
const LOUDER = Math.pow(10, LOUDER_DB / 10);

/** How the canceller is doing for the double-talk decision: a trusted canceller that now takes next to nothing out has 'collapsed'. */
export function cancellingState(erleDb: number, converged: boolean, convergedDb: number): Cancelling {
  if (erleDb >= convergedDb) return 'cancelling';
  return converged && erleDb < LOST_ERLE_DB ? 'collapsed' : 'other';
}

/**
 * Someone talks over hark and the canceller can vouch for it: the double-talk decision gives the frame
 * to the near end, the canceller is trusted, its filter has learnt TALK_OVER_LEARNT_MS of hark's sound,
 * it has not collapsed, and it left no more than the microphone held (`outPower` against `micPower`,
 * both mean squares lined up in time).
 */
export function vouchesTalkOver(v: {
  verdict: TalkVerdict;
  converged: boolean;
  learntMs: number;
  cancelling: Cancelling;
  outPower: number;
  micPower: number;
}): boolean {
  return v.verdict === 'near' && v.converged && v.learntMs >= TALK_OVER_LEARNT_MS && v.cancelling !== 'collapsed' && v.outPower <= v.micPower * LOUDER;
}

/**
 * Mean square of the microphone as it lines up with each frame's output: the native output lags by
 * `lag` samples, so the last `lag` of the previous frame and all but the last `lag` of this one.
 */
export class AlignedMicPower {
  private lastTail = 0;

  constructor(private readonly lag: number) {}

  of(frame: Int16Array): number {
    const n = frame.length;
    let head = 0;
    let tail = 0;
    for (let i = 0; i < n - this.lag; i++) head += frame[i]! * frame[i]!;
    for (let i = n - this.lag; i < n; i++) tail += frame[i]! * frame[i]!;
    const aligned = (this.lastTail + head) / n;
    this.lastTail = tail;
    return aligned;
  }
}
