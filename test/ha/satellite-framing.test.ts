import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  encodeNoiseFrame,
  encodePlain,
  FrameError,
  handshakeRejection,
  joinNoisePayload,
  NoiseDecoder,
  PlainDecoder,
  splitNoisePayload,
  varint,
} from '../../src/ha/satellite/framing.js';
import { apiProto } from '../../src/ha/satellite/proto.js';

/** Cut `bytes` at the given points (sorted, deduplicated) into chunks. */
function cut(bytes: Buffer, points: number[]): Buffer[] {
  const ps = [...new Set(points.map((p) => p % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Buffer[] = [];
  let at = 0;
  for (const p of ps) {
    out.push(bytes.subarray(at, p));
    at = p;
  }
  out.push(bytes.subarray(at));
  return out;
}

describe('plaintext framing', () => {
  const proto = apiProto();
  const frames = [
    { type: proto.idOf('HelloRequest'), payload: proto.encode('HelloRequest', { clientInfo: 'Home Assistant', apiVersionMajor: 1, apiVersionMinor: 12 }) },
    { type: proto.idOf('PingRequest'), payload: new Uint8Array(0) },
    // 200 bytes: a two-byte length varint.
    { type: proto.idOf('VoiceAssistantAudio'), payload: proto.encode('VoiceAssistantAudio', { data: Buffer.alloc(200, 7) }) },
    { type: proto.idOf('VoiceAssistantAnnounceRequest'), payload: proto.encode('VoiceAssistantAnnounceRequest', { mediaId: 'http://x/a.mp3' }) },
  ];
  const stream = Buffer.concat(frames.map((f) => encodePlain(f.type, f.payload)));

  it('gives the same frames for any split of the byte stream', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 30 }), (points) => {
        const d = new PlainDecoder();
        const got = cut(stream, points).flatMap((c) => d.push(c));
        expect(got.map((f) => [f.type, Buffer.from(f.payload).toString('hex')])).toEqual(frames.map((f) => [f.type, Buffer.from(f.payload).toString('hex')]));
      }),
      { numRuns: 300 },
    );
  });

  it('one byte at a time', () => {
    const d = new PlainDecoder();
    const got = [...stream].flatMap((b) => d.push(Buffer.from([b])));
    expect(got.map((f) => f.type)).toEqual(frames.map((f) => f.type));
  });

  it('decodes what it encodes, through api.proto', () => {
    const [f] = new PlainDecoder().push(
      encodePlain(proto.idOf('VoiceAssistantRequest'), proto.encode('VoiceAssistantRequest', { start: true, wakeWordPhrase: 'computer' })),
    );
    expect(proto.decode(f!.type, f!.payload)).toMatchObject({ name: 'VoiceAssistantRequest', msg: { start: true, wakeWordPhrase: 'computer' } });
  });

  it.each([
    ['an oversized length', Buffer.from([0, ...varint(5_000_000), 7]), /5000000 bytes is over the 1048576-byte limit/],
    ['a bad indicator', Buffer.from('GET / HTTP/1.1\r\n'), /bad indicator byte 0x47/],
    ['an encrypted client on a plaintext device', Buffer.from([1, 0, 0]), /no encryption key/],
    ['a runaway varint', Buffer.from([0, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]), /varint longer than 5 bytes/],
  ])('refuses %s, naming it', (_what, bytes, message) => {
    expect(() => new PlainDecoder().push(bytes)).toThrow(FrameError);
    expect(() => new PlainDecoder().push(bytes)).toThrow(message);
  });
});

describe('noise framing', () => {
  it('gives the same frames for any split', () => {
    const payloads = [Buffer.alloc(0), Buffer.from('hello'), Buffer.alloc(300, 1)];
    const stream = Buffer.concat(payloads.map((p) => encodeNoiseFrame(p)));
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 20 }), (points) => {
        const d = new NoiseDecoder();
        d.ready();
        expect(
          cut(stream, points)
            .flatMap((c) => d.push(c))
            .map((b) => b.toString('hex')),
        ).toEqual(payloads.map((p) => p.toString('hex')));
      }),
      { numRuns: 200 },
    );
  });

  it('bounds frames at 128 bytes until the handshake is done, on the header alone, with the rejection ESPHome sends', () => {
    const d = new NoiseDecoder();
    expect(d.push(encodeNoiseFrame(Buffer.alloc(128, 2)))).toHaveLength(1);
    let err: unknown;
    try {
      new NoiseDecoder().push(Buffer.from([1, 0xff, 0xff]));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(FrameError);
    expect((err as FrameError).reject).toBe('Bad handshake packet len');
    expect(handshakeRejection('Bad indicator byte')).toEqual(Buffer.from([1, 0, 19, 1, ...Buffer.from('Bad indicator byte')]));
  });

  it('raises the bound between two frames of one chunk when the handshake ends between them', () => {
    const d = new NoiseDecoder();
    d.feed(Buffer.concat([encodeNoiseFrame(Buffer.alloc(49, 0)), encodeNoiseFrame(Buffer.alloc(500, 3))]));
    expect(d.next()).toHaveLength(49);
    d.ready();
    expect(d.next()).toHaveLength(500);
    expect(d.next()).toBeNull();
  });

  it('refuses a plaintext client on an encrypted device, and a short inner message', () => {
    expect(() => new NoiseDecoder().push(Buffer.from([0, 1, 7]))).toThrow(/requires encryption/);
    expect(() => splitNoisePayload(Buffer.from([0, 7, 0]))).toThrow(/shorter than its 4-byte header/);
    expect(() => splitNoisePayload(Buffer.from([0, 7, 0, 9, 1]))).toThrow(/says 9 bytes but carries 1/);
    expect(splitNoisePayload(joinNoisePayload(300, Buffer.from('ab')))).toEqual({ type: 300, payload: Buffer.from('ab') });
  });
});
