import type { Vad } from './vad.js';

/**
 * A second hearing of the same frames while hark's sound may be in the microphone, whose state
 * starts afresh after `resetFrames` frames with no one talking over hark (as the canceller vouches).
 *
 * Why: the VAD's own state hears a whole list or ring of hark's residual, which lies under the
 * room's noise floor and so is handed to it. Silero is recurrent, and a state settled on that
 * residual scored a cook's "stop" 6 dB under a loud stretch of hark's list 0.10-0.29 where a state
 * started 2 s before the word scored the same samples 0.75-0.96: at ±200 ppm between the two clocks
 * the word went unheard, and at RT60 600 it opened a frame late at every skew. Starting the VAD's own
 * state afresh instead let hark's residual open segments (the settled state is what keeps it out).
 * Beside it, this one hears every frame hark's sound may be in — hark's own frames too, which the VAD
 * is spared — and never carries more than `resetFrames` of them into a frame the canceller vouches
 * for. It decides nothing alone: the gate lets it lift only a frame the canceller vouches is someone
 * talking over hark, and only when it scores that frame high (FrameGate.adjust, its `fresh`).
 */
export class TalkOverEar {
  /** Frames heard since the state last started afresh with no talk-over vouched for. */
  private sinceTalk = 0;
  private hearing = false;

  constructor(
    private readonly vad: Vad,
    private readonly resetFrames: number,
  ) {}

  /**
   * One frame while hark's sound may be in the microphone; `talkOver`: the canceller vouches someone is
   * talking over hark in it. Its score (0..1).
   */
  async hear(frame: Int16Array, talkOver: boolean): Promise<number> {
    if (talkOver) this.sinceTalk = 0;
    else if (++this.sinceTalk > this.resetFrames) {
      this.vad.reset();
      this.sinceTalk = 1;
    }
    this.hearing = true;
    return this.vad.process(frame);
  }

  /** hark is silent and its room has rung out: the next sound of hark's starts from nothing. */
  quiet(): void {
    if (!this.hearing) return;
    this.vad.reset();
    this.sinceTalk = 0;
    this.hearing = false;
  }
}
