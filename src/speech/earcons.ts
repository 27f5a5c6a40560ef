import { SAMPLE_RATE } from '../audio/pcm.js';

/**
 * The earcons: short sounds that say what happened without words, synthesised once at start-up
 * (no sound files to install or lose). Every tone is faded in and out over a few milliseconds: a
 * tone that starts or stops mid-wave is heard as a click.
 */
export const EARCON_NAMES = ['listening', 'listening-end', 'confirmed', 'error', 'timer', 'cancelled', 'item'] as const;
export type EarconName = (typeof EARCON_NAMES)[number];

/** Names the router uses (router/effects.ts) mapped onto these sounds. */
const ALIASES: Record<string, EarconName> = { sent: 'confirmed', 'timer-done': 'timer', started: 'listening', ended: 'listening-end' };

/** A note: a glide from `from` Hz to `to` Hz over `ms`, then `gapMs` of silence. */
interface Note {
  from: number;
  to?: number;
  ms: number;
  gapMs?: number;
}

const SCORES: Record<EarconName, Note[]> = {
  // rising chirp: "I'm listening"
  listening: [{ from: 660, to: 990, ms: 120 }],
  // falling chirp: "got it, stopped listening"
  'listening-end': [{ from: 990, to: 660, ms: 120 }],
  // two rising notes, a fifth apart: done
  confirmed: [
    { from: 880, ms: 70, gapMs: 30 },
    { from: 1320, ms: 110 },
  ],
  // two low falling notes: something went wrong
  error: [
    { from: 392, ms: 160, gapMs: 40 },
    { from: 294, ms: 260 },
  ],
  // three bright beeps, twice: loud enough to cut through a kitchen
  timer: [
    { from: 1568, ms: 120, gapMs: 80 },
    { from: 1568, ms: 120, gapMs: 80 },
    { from: 1568, ms: 120, gapMs: 300 },
    { from: 1568, ms: 120, gapMs: 80 },
    { from: 1568, ms: 120, gapMs: 80 },
    { from: 1568, ms: 120 },
  ],
  // falling glide: dropped
  cancelled: [{ from: 700, to: 350, ms: 220 }],
  // a tick: one more item on the list
  item: [{ from: 1200, ms: 45 }],
};

/** Fade length at each end of a note. */
const FADE_MS = 8;

export function synthNote(note: Note, volume: number, rate = SAMPLE_RATE): Int16Array {
  const n = Math.round((note.ms * rate) / 1000);
  const gap = Math.round(((note.gapMs ?? 0) * rate) / 1000);
  const out = new Int16Array(n + gap);
  const fade = Math.min(Math.round((FADE_MS * rate) / 1000), Math.floor(n / 2));
  const to = note.to ?? note.from;
  let phase = 0;
  for (let i = 0; i < n; i++) {
    const f = note.from + ((to - note.from) * i) / n;
    phase += (2 * Math.PI * f) / rate;
    // raised-cosine ramps at both ends
    let env = 1;
    if (i < fade) env = 0.5 - 0.5 * Math.cos((Math.PI * i) / fade);
    else if (i >= n - fade) env = 0.5 - 0.5 * Math.cos((Math.PI * (n - 1 - i)) / fade);
    out[i] = Math.round(Math.sin(phase) * env * volume * 32767);
  }
  return out;
}

export function synthEarcon(name: EarconName, volume: number, rate = SAMPLE_RATE): Int16Array {
  const parts = SCORES[name].map((note) => synthNote(note, volume, rate));
  const total = parts.reduce((s, p) => s + p.length, 0);
  const out = new Int16Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** All earcons, made once. `get` also takes the router's names (sent, timer-done). */
export class EarconBank {
  private readonly sounds = new Map<EarconName, Int16Array>();

  constructor(opts: { volume: number; sampleRate?: number }) {
    const volume = Math.max(0, Math.min(1, opts.volume));
    for (const name of EARCON_NAMES) this.sounds.set(name, synthEarcon(name, volume, opts.sampleRate));
  }

  has(name: string): boolean {
    return resolveEarcon(name) !== null;
  }

  /** The sound for a name, or null for a name hark has no sound for. */
  get(name: string): Int16Array | null {
    const n = resolveEarcon(name);
    return n ? this.sounds.get(n)! : null;
  }
}

export function resolveEarcon(name: string): EarconName | null {
  if ((EARCON_NAMES as readonly string[]).includes(name)) return name as EarconName;
  return ALIASES[name] ?? null;
}
