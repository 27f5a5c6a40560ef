import { spawn } from 'node:child_process';
import { decodeWav } from '../audio/wav.js';
import { HarkError } from '../core/errors.js';

export interface VoiceSettings {
  /** espeak-ng voice (-v), e.g. en-us, en-gb-scotland. */
  voice: string;
  /** Words per minute (-s). */
  speed: number;
  /** Amplitude (-a), 0-200. */
  volume: number;
}

export interface EspeakOptions extends VoiceSettings {
  /** Rendered phrases kept (least recently used goes first); 0 disables the cache. */
  cacheEntries?: number;
  /** ...and at most this many MB of them; a phrase over a quarter of it is not kept. */
  cacheMb?: number;
  bin?: string;
  timeoutMs?: number;
  /**
   * The voice a reply in one of the device's languages is said in (speech.voices, else its pack's):
   * a render asked for in a language finds its own voice here, so no caller has to.
   */
  voiceFor?: (lang: string) => string | undefined;
}

/** What one render may change: the voice picker's settings, or the language it is said in. */
export interface RenderOptions extends Partial<VoiceSettings> {
  lang?: string;
}

/**
 * Text to speech with espeak-ng, rendered to hark's PCM format (16 kHz mono s16; espeak-ng's own
 * 22.05 kHz is resampled so the player and the earcons share one format).
 *
 * Confirmations ("added", "say that again?") repeat all day: rendered phrases are cached by
 * voice, speed, volume and text, and two requests for the same phrase share one espeak-ng run.
 */
export class EspeakTts {
  private settings: VoiceSettings;
  private readonly cacheEntries: number;
  private readonly bin: string;
  private readonly timeoutMs: number;
  private readonly cache = new Map<string, Promise<Int16Array>>();
  /** Bytes of each rendered phrase in the cache, and their sum (what the MB bound counts). */
  private readonly sizes = new Map<string, number>();
  private bytes = 0;
  private readonly cacheBytes: number;
  private readonly voiceFor: (lang: string) => string | undefined;

  constructor(opts: EspeakOptions) {
    this.settings = { voice: opts.voice, speed: opts.speed, volume: opts.volume };
    this.cacheEntries = opts.cacheEntries ?? 128;
    this.cacheBytes = (opts.cacheMb ?? 2) * 1024 * 1024;
    this.bin = opts.bin ?? 'espeak-ng';
    this.timeoutMs = opts.timeoutMs ?? 15_000;
    this.voiceFor = opts.voiceFor ?? (() => undefined);
  }

  get voice(): VoiceSettings {
    return { ...this.settings };
  }

  /** The voice picker: later renders use this voice. */
  setVoice(voice: string): void {
    this.settings = { ...this.settings, voice };
  }

  get cached(): number {
    return this.cache.size;
  }

  /** Bytes of rendered audio the cache holds. */
  get cachedBytes(): number {
    return this.bytes;
  }

  render(text: string, opts: RenderOptions = {}): Promise<Int16Array> {
    const { lang, ...overrides } = opts;
    const inLanguage = lang !== undefined && overrides.voice === undefined ? this.voiceFor(lang) : undefined;
    const s = { ...this.settings, ...overrides, ...(inLanguage ? { voice: inLanguage } : {}) };
    const said = text.trim();
    if (!said) return Promise.resolve(new Int16Array(0));
    if (this.cacheEntries === 0) return this.run(said, s);
    const key = `${s.voice}\u0000${s.speed}\u0000${s.volume}\u0000${said}`;
    const hit = this.cache.get(key);
    if (hit) {
      // Map order is insertion order: re-inserting makes this the most recently used.
      this.cache.delete(key);
      this.cache.set(key, hit);
      return hit;
    }
    const p = this.run(said, s);
    this.cache.set(key, p);
    // A failed render is not remembered: the next request tries again.
    p.then(
      (pcm) => {
        if (this.cache.get(key) !== p) return; // evicted before it was rendered
        // Bounded by bytes too: a count alone let 128 long answers (a 30 s list is ~1 MB) stay, and
        // every new timer's "Timer set for N minutes" added ~75 KB for good (the hour-long capture
        // soak's memory crept +5 MB of ArrayBuffers). Confirmations are what repeats.
        if (pcm.byteLength > this.cacheBytes / 4) return this.forget(key);
        this.sizes.set(key, pcm.byteLength);
        this.bytes += pcm.byteLength;
        this.evict();
      },
      // Only this render's entry: a later request for the same phrase may have replaced it.
      () => this.cache.get(key) === p && this.forget(key),
    );
    this.evict();
    return p;
  }

  /** Least recently used first, until both bounds hold. */
  private evict(): void {
    while (this.cache.size > this.cacheEntries || this.bytes > this.cacheBytes) this.forget(this.cache.keys().next().value!);
  }

  private forget(key: string): void {
    this.cache.delete(key);
    this.bytes -= this.sizes.get(key) ?? 0;
    this.sizes.delete(key);
  }

  private run(text: string, s: VoiceSettings): Promise<Int16Array> {
    // Text goes in on stdin, never argv: a phrase starting with "-" must not be read as an option.
    const args = ['--stdout', '-v', s.voice, '-s', String(s.speed), '-a', String(s.volume)];
    return new Promise<Int16Array>((resolve, reject) => {
      const child = spawn(this.bin, args, { stdio: ['pipe', 'pipe', 'pipe'] });
      const out: Buffer[] = [];
      let err = '';
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new HarkError(`espeak-ng took longer than ${this.timeoutMs} ms to say "${clip(text)}"`));
      }, this.timeoutMs);
      child.stdout.on('data', (d: Buffer) => out.push(d));
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (d: string) => (err += d));
      child.stdin.on('error', () => {});
      child.once('error', (e: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        reject(new HarkError(e.code === 'ENOENT' ? `${this.bin} is not installed (sudo apt-get install espeak-ng)` : `cannot start ${this.bin}: ${e.message}`));
      });
      child.once('close', (code) => {
        clearTimeout(timer);
        if (code !== 0) {
          const why = err.trim().split('\n').pop() || `exit code ${code}`;
          const hint = /voice/i.test(why) ? ` (speech.voice is "${s.voice}"; \`espeak-ng --voices\` lists the installed ones)` : '';
          return reject(new HarkError(`espeak-ng could not say "${clip(text)}": ${why}${hint}`));
        }
        try {
          resolve(decodeWav(Buffer.concat(out), 'espeak-ng output').pcm);
        } catch (e) {
          reject(e);
        }
      });
      child.stdin.end(text + '\n');
    });
  }
}

function clip(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}...` : text;
}
