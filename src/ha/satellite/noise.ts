import createNoise, { type CipherState, type HandshakeState, type Noise } from '@richardhopton/noise-c.wasm';

/** What Home Assistant (aioesphomeapi) and ESPHome speak when the device has an encryption key. */
export const NOISE_PROTOCOL = 'Noise_NNpsk0_25519_ChaChaPoly_SHA256';
const PROLOGUE = Buffer.from('NoiseAPIInit');

let loading: Promise<Noise> | null = null;
/** noise-c compiled to WebAssembly (no native build, so the same on arm64): loaded once. */
export function loadNoise(): Promise<Noise> {
  return (loading ??= new Promise((resolve) => createNoise(resolve)));
}

/** A key as Home Assistant shows it: 32 bytes in base64. Throws naming what is wrong. */
export function parseKey(base64: string): Buffer {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(base64)) throw new Error('the encryption key (HARK_HA_API_KEY) is not base64');
  const key = Buffer.from(base64, 'base64');
  if (key.length !== 32) throw new Error(`the encryption key (HARK_HA_API_KEY) is ${key.length} bytes; it must be 32 (44 base64 characters)`);
  return key;
}

/**
 * The device side of ESPHome's Noise handshake, one per connection:
 *   client hello frame → server hello ([1] chosen protocol, node name\0, mac\0)
 *   client handshake frame ([0] + NN psk0 message) → server handshake ([0] + reply), then transport.
 * ESPHome's prologue is "NoiseAPIInit", the hello frame's u16 length and its bytes (clients send an
 * empty hello, so "NoiseAPIInit\0\0"). A handshake that fails (a wrong key) is answered [1] + reason.
 */
export class NoiseResponder {
  private hs: HandshakeState | null = null;
  private send: CipherState | null = null;
  private recv: CipherState | null = null;
  state: 'hello' | 'handshake' | 'ready' | 'failed' = 'hello';

  constructor(
    private readonly noise: Noise,
    private readonly psk: Buffer,
    private readonly identity: { name: string; mac: string },
  ) {}

  /** The client's hello frame: returns the server hello frame to send. */
  hello(frame: Uint8Array): Buffer {
    const prologue = Buffer.concat([PROLOGUE, Buffer.from([frame.length >> 8, frame.length & 0xff]), frame]);
    this.hs = this.noise.HandshakeState(NOISE_PROTOCOL, this.noise.constants.NOISE_ROLE_RESPONDER);
    this.hs.Initialize(new Uint8Array(prologue), null, null, new Uint8Array(this.psk));
    this.state = 'handshake';
    return Buffer.concat([Buffer.from([1]), Buffer.from(this.identity.name), Buffer.from([0]), Buffer.from(this.identity.mac), Buffer.from([0])]);
  }

  /** The client's handshake frame: the reply frame, or a rejection ([1] + reason) with `error` set. */
  handshake(frame: Uint8Array): { reply: Buffer; error?: string } {
    const hs = this.hs;
    if (!hs || this.state !== 'handshake') throw new Error('handshake before hello');
    if (frame.length === 0 || frame[0] !== 0) return this.reject(`bad handshake frame (first byte ${frame[0] ?? 'missing'}, expected 0)`);
    try {
      hs.ReadMessage(new Uint8Array(frame.subarray(1)), true);
      const reply = hs.WriteMessage();
      [this.send, this.recv] = hs.Split();
      this.hs = null;
      this.state = 'ready';
      return { reply: Buffer.concat([Buffer.from([0]), reply]) };
    } catch (err) {
      // noise-c frees a handshake state that failed; only a wrong psk gets here in practice.
      this.hs = null;
      const code = err instanceof Error ? err.message : String(err);
      return this.reject(code === 'NOISE_ERROR_MAC_FAILURE' ? 'Handshake MAC failure' : `Handshake error: ${code}`);
    }
  }

  encrypt(plain: Uint8Array): Buffer {
    if (!this.send) throw new Error('encrypt before the handshake finished');
    return Buffer.from(this.send.EncryptWithAd([], new Uint8Array(plain)));
  }

  /** Throws on a frame that does not authenticate (tampered, or not from this session). */
  decrypt(frame: Uint8Array): Buffer {
    if (!this.recv) throw new Error('decrypt before the handshake finished');
    try {
      return Buffer.from(this.recv.DecryptWithAd([], new Uint8Array(frame)));
    } catch (err) {
      throw new Error(`encrypted frame did not authenticate (${err instanceof Error ? err.message : String(err)})`);
    }
  }

  close(): void {
    for (const c of [this.send, this.recv]) {
      try {
        c?.free();
      } catch {
        // already freed by a failed call
      }
    }
    try {
      this.hs?.free();
    } catch {
      // freed by noise-c on failure
    }
    this.send = this.recv = this.hs = null;
  }

  private reject(reason: string): { reply: Buffer; error: string } {
    this.state = 'failed';
    return { reply: Buffer.concat([Buffer.from([1]), Buffer.from(reason)]), error: reason };
  }
}
