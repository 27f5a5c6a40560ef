import { connect, type Socket } from 'node:net';

/**
 * Home Assistant's client (aioesphomeapi) at the byte level, for what its frame helpers decide before
 * any message is decoded: how a device's first bytes are read and what error Home Assistant reports.
 * Written from aioesphomeapi/_frame_helper/plain_text.py and noise.py; every wait is bounded.
 */

/** varuint as aioesphomeapi writes it (packets.py). */
function varuint(n: number): number[] {
  const out: number[] = [];
  while (n > 0x7f) {
    out.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  out.push(n);
  return out;
}

/** What an aioesphomeapi client reports when it connects. */
export type ClientVerdict =
  /** RequiresEncryptionAPIError: Home Assistant asks the user for the device's encryption key. */
  | { kind: 'requires-encryption'; message: string }
  /** ProtocolAPIError: Invalid preamble. */
  | { kind: 'invalid-preamble'; message: string }
  /** A plaintext frame came: the device speaks plaintext. */
  | { kind: 'plaintext'; message: string }
  /** The socket closed with nothing Home Assistant can read: "can't connect". */
  | { kind: 'closed'; message: string };

function withSocket<T>(
  port: number,
  ms: number,
  onOpen: (s: Socket) => void,
  onData: (all: Buffer, s: Socket) => T | null,
  onClose: (all: Buffer) => T,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => onOpen(s));
    let all = Buffer.alloc(0);
    let done = false;
    const finish = (v: T) => {
      if (done) return;
      done = true;
      clearTimeout(t);
      s.destroy();
      resolve(v);
    };
    const t = setTimeout(() => {
      done = true;
      s.destroy();
      reject(new Error(`the device neither answered nor closed within ${ms} ms (${all.length} bytes: ${all.subarray(0, 32).toString('hex')})`));
    }, ms);
    s.on('data', (d) => {
      all = Buffer.concat([all, d]);
      const v = onData(all, s);
      if (v !== null) finish(v);
    });
    s.on('error', () => {});
    s.on('close', () => finish(onClose(all)));
  });
}

/**
 * A plaintext Home Assistant connecting: HelloRequest (connection.py `_connect_hello_login`), then
 * APIPlaintextFrameHelper.data_received on what comes back: at least 3 bytes, a varuint preamble;
 * 0x00 is a plaintext frame, 0x01 "Connection requires encryption", anything else "Invalid preamble".
 */
export function plaintextHello(port: number, ms = 3000): Promise<ClientVerdict> {
  // HelloRequest (type 1) with client_info "Home Assistant" (field 1).
  const info = Buffer.from('Home Assistant');
  const payload = Buffer.from([0x0a, info.length, ...info]);
  const hello = Buffer.from([0, ...varuint(payload.length), 1, ...payload]);
  return withSocket<ClientVerdict>(
    port,
    ms,
    (s) => s.write(hello),
    (all) => {
      if (all.length < 3) return null;
      const preamble = all[0]!;
      if (preamble === 0) return { kind: 'plaintext', message: 'a plaintext frame' };
      if (preamble === 1) return { kind: 'requires-encryption', message: 'Connection requires encryption' };
      return { kind: 'invalid-preamble', message: `Invalid preamble 0x${preamble.toString(16).padStart(2, '0')}` };
    },
    (all) => ({ kind: 'closed', message: `connection closed after ${all.length} bytes` }),
  );
}

/** What an encrypted client makes of the device's answer to its handshake frame. */
export type HandshakeVerdict = { kind: 'rejected'; explanation: string } | { kind: 'closed'; message: string };

/**
 * An encrypted client whose handshake frame announces `announced` bytes and sends none of them:
 * the client hello (`01 00 00`) and a frame header, as noise.py `_send_hello_handshake` frames them.
 * Then APINoiseFrameHelper.data_received: frames `01 len_hi len_lo`; the first is the server hello,
 * the next the handshake answer, where a first byte other than 0 is a rejection and the rest its
 * explanation (`_error_on_incorrect_preamble`: "Handshake failure: <explanation>").
 */
export function oversizedHandshake(port: number, announced: number, ms = 3000): Promise<HandshakeVerdict> {
  return withSocket<HandshakeVerdict>(
    port,
    ms,
    (s) => s.write(Buffer.from([1, 0, 0, 1, announced >> 8, announced & 0xff, 0])),
    (all) => {
      const frames: Buffer[] = [];
      let at = 0;
      while (all.length - at >= 3) {
        if (all[at] !== 1) return { kind: 'closed', message: `marker byte invalid: ${all[at]}` };
        const len = (all[at + 1]! << 8) | all[at + 2]!;
        if (all.length - at - 3 < len) break;
        frames.push(all.subarray(at + 3, at + 3 + len));
        at += 3 + len;
      }
      // frames[0]: the server hello (its first byte the chosen protocol); frames[1]: the handshake answer.
      const answer = frames[1];
      if (answer && answer.length > 0 && answer[0] !== 0) return { kind: 'rejected', explanation: answer.subarray(1).toString('utf8') };
      return null;
    },
    (all) => ({ kind: 'closed', message: `connection closed after ${all.length} bytes` }),
  );
}

/** A bare TCP connection that says nothing (an idle scanner, a half-open client). */
export function silentSocket(port: number): Promise<{ socket: Socket; closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1');
    const closed = new Promise<void>((r) => s.on('close', () => r()));
    s.on('error', () => {});
    s.once('connect', () => resolve({ socket: s, closed }));
    s.once('error', reject);
  });
}
