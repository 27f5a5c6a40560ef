/**
 * What a small speaker makes of what it is handed, as the canceller's far end: the driver's
 * suspension stiffens as the cone moves further (a cubic, y = u − k·u³, its THD growing with the
 * square of the level), and past the cubic's top the cone goes no further. Set by the one figure a
 * spec sheet gives: the THD of a sine at one level. Pure.
 */
export class SpeakerModel {
  private readonly k: number;
  private readonly top: number;
  private readonly held: number;

  constructor(thdPct: number, atDbfs: number) {
    const t = thdPct / 100;
    const a = Math.pow(10, atDbfs / 20);
    // THD = (k·A²/4) / (1 − 3k·A²/4) at peak A, solved for k.
    this.k = (4 * t) / (a * a * (1 + 3 * t));
    this.top = 1 / Math.sqrt(3 * this.k);
    this.held = this.top - this.k * this.top ** 3;
  }

  /** `ref` (what the card was handed, full scale 32768) as the cone plays it, into `out`. */
  apply(ref: Int16Array, out: Int16Array): void {
    for (let i = 0; i < ref.length; i++) {
      const u = ref[i]! / 32768;
      const y = Math.abs(u) >= this.top ? Math.sign(u) * this.held : u - this.k * u * u * u;
      out[i] = Math.round(y * 32768);
    }
  }
}

/**
 * The reference as the speaker plays it: through the model of its distortion when one is set, so
 * the linear filter after it models only the room (a driver's harmonics are in no reference as
 * played; docs/echo.md, "A louder ring"). Into `scratch` when it fits, else a new buffer.
 */
export function asPlayed(model: SpeakerModel | null, ref: Int16Array, scratch: Int16Array): Int16Array {
  if (!model) return ref;
  const out = ref.length === scratch.length ? scratch : new Int16Array(ref.length);
  model.apply(ref, out);
  return out;
}
