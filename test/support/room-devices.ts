import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Reverb, RoomPaths, type RoomSpec } from './room-sim.js';
import { HarkProcess } from './hark-process.js';

/**
 * A simulated kitchen for `hark run`: a fake `aplay` hands what hark plays to this room, and the fake
 * `arecord` gets the room's microphone, in real time: the person's speech at known instants, kitchen
 * noise, and hark's own sound coming back `delayMs` late (the USB card's latency) through the room's
 * reverberation, `echoGain` louder. Put `dir` first on PATH: hark's production capture path
 * (AlsaCapture → node-record-lpcm16 → arecord) and playback path (AplayPlayer → aplay) run unchanged.
 *
 * The scripts are bash talking to this process over 127.0.0.1 (bash's /dev/tcp), so they start in
 * milliseconds on a loaded machine.
 *  - arecord: sends "arecord", then copies the socket to stdout. The room writes one ALSA period
 *    (125 ms, 2000 samples) as each is "captured", like arecord with no -B/-F.
 *  - aplay: sends "aplay <pid>", copies stdin to the socket; a clean end is marked by a file written
 *    before the socket closes (a SIGKILLed aplay leaves none, and the room drops the sound it had
 *    been sent ahead, as the kernel drops a killed stream's buffer); then it waits, as real aplay
 *    drains, until the room has played the last sample.
 *
 * Everything is on one timeline, room samples since start(): `mic`, and its parts `person` (as said,
 * before the room), `echo` and `noise` are kept for the assertions.
 *
 * The room is either a RoomSpec (room-spec.ts: latency, RT60, reflections, speaker, person, fan and
 * hum, a card restart; the same room the offline matrix runs) or the fixed tuned room (Reverb) with
 * its latency, gain and RT60 given.
 */
export type RoomOptions = RoomCommon & ({ spec: RoomSpec } | { spec?: undefined; delayMs: number; echoGain: number; rt60Ms: number });

interface RoomCommon {
  /** Kitchen noise, looped, already at its level. */
  noise?: Int16Array;
  /** Seconds of timeline to keep. */
  maxSeconds?: number;
  /**
   * Each aplay process sleeps this long (ms, taken in turn) before it takes audio: aplay's own
   * start-up (exec, ALSA configuration, opening the card), measured 47–185 ms apart on this loaded
   * machine. Absent: bash's own start-up only.
   */
  aplayStartupMs?: number[];
}

const PERIOD = 2000;
const RATE = 16;

export class Room {
  readonly dir: string;
  private server: Server | null = null;
  private port = 0;
  private t0 = 0;
  private produced = 0;
  private timer: NodeJS.Timeout | null = null;
  /** What the card played, by room sample (before the delay and the room). */
  readonly played: Float32Array;
  readonly person: Float32Array;
  readonly echo: Float32Array;
  readonly mic: Int16Array;
  private readonly reverb: Reverb | null;
  private readonly paths: RoomPaths | null;
  private delay: number;
  private recorders = new Set<Socket>();
  /** Every connection still open (arecord, aplay and wait relays): close() ends them all, or the server never closes. */
  private sockets = new Set<Socket>();
  /** Room sample at which the current arecord connection started (its capture sample 0). */
  captureStart = -1;
  /** Each aplay stream: where it started and ended on the room timeline. */
  readonly streams: Array<{ pid: number; start: number; end: number; killed: boolean }> = [];
  private waiters: Array<{ pid: number; socket: Socket }> = [];
  /** Each time a card ran dry mid-stream (audio came later than it was due): room sample, and how late. */
  readonly underruns: Array<{ at: number; lateMs: number }> = [];

  constructor(
    dir: string,
    private readonly opts: RoomOptions,
  ) {
    this.dir = dir;
    const n = (opts.maxSeconds ?? 240) * 16000;
    this.played = new Float32Array(n);
    this.person = new Float32Array(n);
    this.echo = new Float32Array(n);
    this.mic = new Int16Array(n);
    this.paths = opts.spec ? new RoomPaths(opts.spec, PERIOD) : null;
    this.reverb = opts.spec ? null : new Reverb(opts.rt60Ms);
    this.delay = Math.round((opts.spec ? opts.spec.latencyMs : opts.delayMs) * RATE);
  }

  async start(): Promise<this> {
    mkdirSync(this.dir, { recursive: true });
    this.server = createServer((s) => this.accept(s));
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    this.port = (this.server.address() as AddressInfo).port;
    writeScript(
      join(this.dir, 'arecord'),
      `#!/bin/bash
exec 3<>/dev/tcp/127.0.0.1/${this.port} || exit 1
printf 'arecord\\n' >&3
exec cat <&3
`,
    );
    const startups = this.opts.aplayStartupMs ?? [];
    // The n-th aplay (counted in a file, so separate processes take the list in turn) sleeps the n-th
    // start-up (hark sees it ready once its cat reads the script's stdin: aplay-stream-ready.ts).
    const startup = startups.length
      ? `n=0
read -r n < ${JSON.stringify(this.dir)}/count 2>/dev/null
printf '%s' $((n + 1)) > ${JSON.stringify(this.dir)}/count
d=(${startups.map((m) => (m / 1000).toFixed(3)).join(' ')})
sleep \${d[$((n % ${startups.length}))]}
`
      : '';
    writeScript(
      join(this.dir, 'aplay'),
      `#!/bin/bash
${startup}exec 3<>/dev/tcp/127.0.0.1/${this.port} || exit 1
printf 'aplay %s\\n' $$ >&3
cat >&3
: > ${JSON.stringify(this.dir)}/end-$$
exec 3>&-
exec 4<>/dev/tcp/127.0.0.1/${this.port} || exit 0
printf 'wait %s\\n' $$ >&4
read -r _ <&4
exit 0
`,
    );
    this.t0 = performance.now();
    this.timer = setInterval(() => this.tick(), 20);
    return this;
  }

  /** Room samples elapsed now. */
  now(): number {
    return Math.floor((performance.now() - this.t0) * RATE);
  }

  /** The person says `pcm` (at its level) starting at room sample `at`. */
  say(pcm: ArrayLike<number>, at: number, gain = 1): { start: number; end: number } {
    for (let i = 0; i < pcm.length && at + i < this.person.length; i++) this.person[at + i]! += pcm[i]! * gain;
    return { start: at, end: at + pcm.length };
  }

  /** Change the card's latency from now on. */
  setDelay(ms: number): void {
    this.delay = Math.round(ms * RATE);
  }

  /** The room sample at a performance.now() instant (hark's SystemClock shares that timeline). */
  sampleAt(perfMs: number): number {
    return Math.round((perfMs - this.t0) * RATE);
  }

  /** Capture position (ms, as hark's segment events count) of a room sample. */
  captureMs(roomSample: number): number {
    return (roomSample - this.captureStart) / RATE;
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }

  private accept(s: Socket): void {
    this.sockets.add(s);
    s.on('close', () => this.sockets.delete(s));
    let header = '';
    let mode: 'arecord' | 'aplay' | 'wait' | null = null;
    let stream: (typeof this.streams)[number] | null = null;
    let odd: number | null = null;
    s.on('error', () => {});
    s.on('data', (d: Buffer) => {
      if (mode === null) {
        const nl = d.indexOf(10);
        header += d.subarray(0, nl < 0 ? d.length : nl).toString('latin1');
        if (nl < 0) return;
        const [what, arg] = header.split(' ');
        d = d.subarray(nl + 1);
        if (what === 'arecord') {
          mode = 'arecord';
          this.recorders.add(s);
          this.captureStart = this.produced;
          s.on('close', () => this.recorders.delete(s));
          return;
        }
        if (what === 'wait') {
          mode = 'wait';
          const pid = Number(arg);
          const st = this.streams.find((x) => x.pid === pid);
          if (!st || st.end <= this.now()) s.end('done\n');
          else this.waiters.push({ pid, socket: s });
          return;
        }
        mode = 'aplay';
        stream = { pid: Number(arg), start: this.now(), end: this.now(), killed: false };
        this.streams.push(stream);
        s.on('close', () => {
          const clean = existsSync(join(this.dir, `end-${stream!.pid}`));
          if (!clean) {
            // Killed: what was sent ahead of the playhead never sounded.
            const now = this.now();
            if (stream!.end > now) this.played.fill(0, now, stream!.end);
            stream!.end = Math.min(stream!.end, now);
            stream!.killed = true;
          }
        });
      }
      if (mode !== 'aplay' || !stream) return;
      // A card that ran dry (an underrun) starts again with the next audio: nothing is played in the past.
      const now = this.now();
      if (stream.end < now) {
        if (stream.end > stream.start) this.underruns.push({ at: now, lateMs: (now - stream.end) / RATE });
        stream.end = now;
      }
      let i = 0;
      if (odd !== null && d.length > 0) {
        this.put(stream, (d[0]! << 8) | odd);
        odd = null;
        i = 1;
      }
      for (; i + 1 < d.length; i += 2) this.put(stream, d.readInt16LE(i));
      if (i < d.length) odd = d[i]!;
    });
  }

  private put(stream: (typeof this.streams)[number], v: number): void {
    const sv = v > 32767 ? v - 65536 : v;
    if (stream.end < this.played.length) this.played[stream.end]! += sv;
    stream.end++;
  }

  private tick(): void {
    const target = Math.min(this.now(), this.mic.length);
    while (this.produced + PERIOD <= target) {
      const a = this.produced;
      const x = new Float32Array(PERIOD);
      for (let i = 0; i < PERIOD; i++) {
        if (this.paths) x[i] = this.paths.cardSample(this.played, a + i, this.delay);
        else x[i] = a + i - this.delay >= 0 ? this.played[a + i - this.delay]! : 0;
      }
      const y = this.paths ? this.paths.echo(x) : this.reverb!.process(x);
      const gain = this.opts.spec ? 1 : this.opts.echoGain;
      // The person through their own path in a RoomSpec's room; as said in the tuned one.
      const person = this.paths ? this.paths.person(this.person.subarray(a, a + PERIOD)) : this.person.subarray(a, a + PERIOD);
      const noise = this.opts.noise;
      const out = Buffer.alloc(PERIOD * 2);
      for (let i = 0; i < PERIOD; i++) {
        const e = y[i]! * gain;
        this.echo[a + i] = e;
        const v = e + person[i]! + (noise ? noise[(a + i) % noise.length]! : 0) + (this.paths ? this.paths.noise(a + i) : 0);
        const s = Math.max(-32768, Math.min(32767, Math.round(v)));
        this.mic[a + i] = s;
        out.writeInt16LE(s, i * 2);
      }
      this.produced += PERIOD;
      for (const r of this.recorders) r.write(out);
    }
    const now = this.now();
    this.waiters = this.waiters.filter((w) => {
      const st = this.streams.find((x) => x.pid === w.pid);
      if (st && st.end > now) return true;
      w.socket.end('done\n');
      return false;
    });
  }
}

function writeScript(path: string, text: string): void {
  writeFileSync(path, text);
  chmodSync(path, 0o755);
}

/**
 * A real `hark run` in the room: the room's arecord and aplay first on PATH, speech-to-text from the
 * Deepgram double (cloud-only), `hark.yaml` written into `dir` from `yaml`. Resolves once capture is up
 * and a second of the room has gone by.
 */
export async function startHarkInRoom(room: Room, dir: string, deepgramUrl: string, yaml: string): Promise<HarkProcess> {
  writeFileSync(join(dir, 'hark.yaml'), yaml);
  const hark = new HarkProcess(['--db', join(dir, 'hark.db'), '--port', '0', '--stt-mode', 'cloud-only', '--deepgram-url', deepgramUrl], {
    ...process.env,
    PATH: `${room.dir}:${process.env.PATH}`,
    DEEPGRAM_API_KEY: 'e2e-key',
    HARK_CONFIG: join(dir, 'hark.yaml'),
  });
  await hark.waitFor((e) => e.type === 'capture.up', 30_000, 'capture up');
  await new Promise((r) => setTimeout(r, 1000));
  return hark;
}
