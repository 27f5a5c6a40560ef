import type { Clock, TimerHandle } from '../../core/clock.js';

/** A client has this long to finish its hello (and, encrypted, the Noise handshake before it). */
export const SETUP_TIMEOUT_MS = 10_000;
/** ESPHome api_connection.cpp: a PingRequest after this long without a frame from the client… */
export const KEEPALIVE_MS = 60_000;
/** …and the connection is dropped after 2.5 × that without one. */
export const SILENT_CLOSE_MS = (KEEPALIVE_MS * 5) / 2;

/**
 * Whether a connection is still worth its slot, on the daemon's clock.
 *
 * Before its hello: a deadline, so a client that connects and says nothing (a port scanner, a
 * half-open socket, a Home Assistant that died mid-handshake) does not hold a slot for ever. Home
 * Assistant sends its hello (or Noise hello and handshake) as soon as the socket opens.
 *
 * After it: ESPHome's own keepalive (api_connection.cpp loop()): a PingRequest after 60 s without a
 * frame, the connection dropped 150 s after the last one. Home Assistant pings every 20 s
 * (aioesphomeapi client_base.py), so it never gets near either; a client that vanished without a FIN
 * (power cut, Wi-Fi gone) is let go within 150 s instead of TCP keepalive's quarter of an hour.
 */
export class Liveness {
  readonly openedAt: number;
  lastTrafficAt: number;
  setupDone = false;
  private pinged = false;
  private timer: TimerHandle | null = null;

  constructor(
    private readonly clock: Clock,
    private readonly on: { ping(): void; expire(why: string): void },
  ) {
    this.openedAt = this.lastTrafficAt = clock.now();
    this.timer = clock.setTimer(SETUP_TIMEOUT_MS, () => {
      this.timer = null;
      if (!this.setupDone) this.on.expire(`did not finish its hello within ${SETUP_TIMEOUT_MS / 1000} s`);
    });
  }

  /** A frame came from the client. */
  traffic(): void {
    this.lastTrafficAt = this.clock.now();
    if (this.pinged) {
      this.pinged = false;
      this.arm();
    }
  }

  /** Its hello is done: from now on, the keepalive. */
  setup(): void {
    if (this.setupDone) return;
    this.setupDone = true;
    this.arm();
  }

  stop(): void {
    this.clock.clearTimer(this.timer);
    this.timer = null;
  }

  private arm(): void {
    this.clock.clearTimer(this.timer);
    const due = this.lastTrafficAt + (this.pinged ? SILENT_CLOSE_MS : KEEPALIVE_MS);
    this.timer = this.clock.setTimer(due - this.clock.now(), () => this.tick());
  }

  private tick(): void {
    this.timer = null;
    const quiet = this.clock.now() - this.lastTrafficAt;
    if (quiet >= SILENT_CLOSE_MS) return this.on.expire(`nothing from the client for ${SILENT_CLOSE_MS / 1000} s, not even an answer to a ping`);
    if (quiet >= KEEPALIVE_MS && !this.pinged) {
      this.pinged = true;
      this.on.ping();
    }
    this.arm();
  }
}
