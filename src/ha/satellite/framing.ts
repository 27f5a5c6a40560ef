/**
 * The ESPHome native API's two framings, as incremental decoders: bytes in (any split of the TCP
 * stream), whole frames out. Pure: no sockets, no crypto.
 *
 * Plaintext: 0x00, varint payload length, varint message type, protobuf payload.
 * Noise:     0x01, u16 big-endian frame length, frame (handshake bytes, or ciphertext whose
 *            plaintext is u16 type, u16 length, payload).
 */

/** A frame bigger than this is refused: ESPHome's own limit on a device is far below it. */
export const MAX_PLAINTEXT_FRAME = 1 << 20;

/**
 * ESPHome's bound on a Noise frame before the handshake is done (api_frame_helper.h
 * MAX_HANDSHAKE_SIZE): a client hello is empty and an NNpsk0 handshake message 49 bytes, so anything
 * announcing more is not a client worth waiting for.
 */
export const MAX_HANDSHAKE_FRAME = 128;

/**
 * Bad bytes on the wire. `reject` is set where ESPHome answers a client still in the Noise handshake
 * with an explicit rejection (api_frame_helper_noise.cpp send_explicit_handshake_reject_) rather
 * than dropping it: that frame is what lets Home Assistant say why ("requires encryption").
 */
export class FrameError extends Error {
  constructor(
    message: string,
    readonly reject?: 'Bad indicator byte' | 'Bad handshake packet len',
  ) {
    super(message);
  }
}

export interface PlainFrame {
  type: number;
  payload: Uint8Array;
}

/** Reads a varint at `at`; null when the bytes end first. Throws past 32 bits (not a length). */
export function readVarint(buf: Uint8Array, at: number): { value: number; next: number } | null {
  let value = 0;
  for (let i = 0; i < 5; i++) {
    if (at + i >= buf.length) return null;
    const b = buf[at + i]!;
    value += (b & 0x7f) * 2 ** (7 * i);
    if ((b & 0x80) === 0) return { value, next: at + i + 1 };
  }
  throw new FrameError('varint longer than 5 bytes');
}

export function varint(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) b |= 0x80;
    out.push(b);
  } while (n > 0);
  return out;
}

export function encodePlain(type: number, payload: Uint8Array): Buffer {
  return Buffer.concat([Buffer.from([0, ...varint(payload.length), ...varint(type)]), payload]);
}

/** What kind of client this is, from its first byte. */
export function indicator(first: number): 'plaintext' | 'noise' | null {
  return first === 0 ? 'plaintext' : first === 1 ? 'noise' : null;
}

export class PlainDecoder {
  private buf: Buffer = Buffer.alloc(0);
  constructor(private readonly maxFrame = MAX_PLAINTEXT_FRAME) {}

  /** Frames completed by these bytes; throws FrameError on a malformed or oversized frame. */
  push(chunk: Uint8Array): PlainFrame[] {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : Buffer.from(chunk);
    const out: PlainFrame[] = [];
    for (;;) {
      if (this.buf.length === 0) return out;
      if (this.buf[0] === 1) throw new FrameError('an encrypted (Noise) frame, but this device has no encryption key set');
      if (this.buf[0] !== 0) throw new FrameError(`bad indicator byte 0x${this.buf[0]!.toString(16).padStart(2, '0')} (expected 0x00)`);
      const len = readVarint(this.buf, 1);
      if (!len) return out;
      if (len.value > this.maxFrame) throw new FrameError(`frame of ${len.value} bytes is over the ${this.maxFrame}-byte limit`);
      const type = readVarint(this.buf, len.next);
      if (!type) return out;
      const end = type.next + len.value;
      if (this.buf.length < end) return out;
      out.push({ type: type.value, payload: this.buf.subarray(type.next, end) });
      this.buf = this.buf.subarray(end);
    }
  }
}

export function encodeNoiseFrame(frame: Uint8Array): Buffer {
  if (frame.length > 0xffff) throw new FrameError(`noise frame of ${frame.length} bytes is over 65535`);
  return Buffer.concat([Buffer.from([1, frame.length >> 8, frame.length & 0xff]), frame]);
}

/**
 * ESPHome's explicit handshake rejection: a Noise frame whose first byte is 1 (failure) and the rest
 * the reason. A plaintext client reads its 0x01 as the preamble of an encrypted device
 * (aioesphomeapi plain_text.py: RequiresEncryptionAPIError); an encrypted one reads the reason
 * (noise.py `_error_on_incorrect_preamble`: "Handshake MAC failure" means a wrong key).
 */
export function handshakeRejection(reason: string): Buffer {
  return encodeNoiseFrame(Buffer.concat([Buffer.from([1]), Buffer.from(reason, 'utf8')]));
}

export class NoiseDecoder {
  private buf: Buffer = Buffer.alloc(0);
  /** The largest frame accepted; MAX_HANDSHAKE_FRAME until the handshake is done (then `ready()`). */
  private limit = MAX_HANDSHAKE_FRAME;

  /** The handshake is done: frames up to the wire format's 65535 bytes. */
  ready(): void {
    this.limit = 0xffff;
  }

  /** Frames completed by these bytes (a limit changed by ready() applies from the next call). */
  push(chunk: Uint8Array): Buffer[] {
    this.feed(chunk);
    const out: Buffer[] = [];
    for (let f = this.next(); f; f = this.next()) out.push(f);
    return out;
  }

  feed(chunk: Uint8Array): void {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : Buffer.from(chunk);
  }

  /**
   * The next whole frame, or null until more bytes come. One at a time, so the handshake's end
   * (ready()) raises the limit before the frame after it is judged. Throws FrameError on a bad one.
   */
  next(): Buffer | null {
    if (this.buf.length === 0) return null;
    if (this.buf[0] === 0)
      throw new FrameError('a plaintext client, but this device requires encryption: Home Assistant asks for the encryption key', 'Bad indicator byte');
    if (this.buf[0] !== 1) throw new FrameError(`bad indicator byte 0x${this.buf[0]!.toString(16).padStart(2, '0')} (expected 0x01)`, 'Bad indicator byte');
    if (this.buf.length < 3) return null;
    const len = (this.buf[1]! << 8) | this.buf[2]!;
    // Checked on the header, before the body arrives: a client announcing 65,535 bytes is not waited for.
    if (len > this.limit)
      throw new FrameError(`a handshake frame of ${len} bytes (at most ${this.limit} before the handshake is done)`, 'Bad handshake packet len');
    const end = 3 + len;
    if (this.buf.length < end) return null;
    const frame = this.buf.subarray(3, end);
    this.buf = this.buf.subarray(end);
    return frame;
  }
}

/** The plaintext inside an encrypted frame: u16 type, u16 length, payload. */
export function splitNoisePayload(plain: Uint8Array): PlainFrame {
  if (plain.length < 4) throw new FrameError(`encrypted message of ${plain.length} bytes is shorter than its 4-byte header`);
  const type = (plain[0]! << 8) | plain[1]!;
  const len = (plain[2]! << 8) | plain[3]!;
  if (4 + len > plain.length) throw new FrameError(`encrypted message says ${len} bytes but carries ${plain.length - 4}`);
  return { type, payload: plain.subarray(4, 4 + len) };
}

export function joinNoisePayload(type: number, payload: Uint8Array): Buffer {
  return Buffer.concat([Buffer.from([type >> 8, type & 0xff, payload.length >> 8, payload.length & 0xff]), payload]);
}
