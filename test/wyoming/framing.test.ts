import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { encodeEvent, WyomingFrameError, WyomingParser, type WyomingEvent } from '../../src/wyoming/framing.js';

const line = (o: unknown) => Buffer.from(JSON.stringify(o) + '\n');
const parseAll = (bytes: Buffer, limits = {}) => new WyomingParser(limits).feed(bytes);
const simple = (events: WyomingEvent[]) => events.map((e) => ({ type: e.type, data: e.data, payload: e.payload ? [...e.payload] : null }));

describe('Wyoming framing: what parses', () => {
  const cases: { name: string; bytes: Buffer; want: { type: string; data: Record<string, unknown>; payload: number[] | null }[] }[] = [
    { name: 'a bare event', bytes: line({ type: 'describe' }), want: [{ type: 'describe', data: {}, payload: null }] },
    { name: 'data inline', bytes: line({ type: 'transcript', data: { text: 'hi' } }), want: [{ type: 'transcript', data: { text: 'hi' }, payload: null }] },
    {
      name: 'data as separate bytes',
      bytes: Buffer.concat([line({ type: 'transcript', data_length: 14 }), Buffer.from('{"text":"hi"}\n'.slice(0, 14))]),
      want: [{ type: 'transcript', data: { text: 'hi' }, payload: null }],
    },
    {
      name: 'separate data merged over inline data (separate wins)',
      bytes: Buffer.concat([line({ type: 'transcript', data: { text: 'old', language: 'en' }, data_length: 13 }), Buffer.from('{"text":"hi"}')]),
      want: [{ type: 'transcript', data: { text: 'hi', language: 'en' }, payload: null }],
    },
    {
      name: 'a payload after separate data',
      bytes: Buffer.concat([line({ type: 'audio-chunk', data_length: 10, payload_length: 4 }), Buffer.from('{"rate":1}'), Buffer.from([1, 2, 3, 4])]),
      want: [{ type: 'audio-chunk', data: { rate: 1 }, payload: [1, 2, 3, 4] }],
    },
    {
      name: 'a payload with inline data, then another event',
      bytes: Buffer.concat([line({ type: 'audio-chunk', data: { rate: 16000 }, payload_length: 2 }), Buffer.from([0, 10]), line({ type: 'audio-stop' })]),
      want: [
        { type: 'audio-chunk', data: { rate: 16000 }, payload: [0, 10] },
        { type: 'audio-stop', data: {}, payload: null },
      ],
    },
    {
      name: 'a payload holding newlines',
      bytes: Buffer.concat([line({ type: 'audio-chunk', payload_length: 3 }), Buffer.from('\n\n\n')]),
      want: [{ type: 'audio-chunk', data: {}, payload: [10, 10, 10] }],
    },
    {
      name: 'zero lengths and null data',
      bytes: line({ type: 'audio-stop', data: null, data_length: 0, payload_length: 0 }),
      want: [{ type: 'audio-stop', data: {}, payload: null }],
    },
    {
      name: 'unknown header fields (version) ignored',
      bytes: line({ type: 'ping', version: '1.5.2', extra: 1 }),
      want: [{ type: 'ping', data: {}, payload: null }],
    },
  ];
  it.each(cases)('$name', ({ bytes, want }) => {
    expect(simple(parseAll(bytes))).toEqual(want);
  });

  it('an incomplete event waits for the rest and holds only what came', () => {
    const p = new WyomingParser();
    const bytes = encodeEvent('audio-chunk', { rate: 16000 }, new Uint8Array(100));
    expect(p.feed(bytes.subarray(0, 50))).toEqual([]);
    expect(p.atBoundary).toBe(false);
    expect(p.pending).toBe(50);
    expect(p.feed(bytes.subarray(50))).toHaveLength(1);
    expect(p.atBoundary).toBe(true);
  });
});

describe('Wyoming framing: what is refused, with a reason and bounded memory', () => {
  const cases: { name: string; bytes: Buffer; limits?: Record<string, number>; error: RegExp }[] = [
    { name: 'non-JSON header', bytes: Buffer.from('HTTP/1.1 400 Bad Request\r\n'), error: /header line is not JSON: "HTTP\/1.1 400/ },
    { name: 'a JSON array', bytes: Buffer.from('[1,2]\n'), error: /not a JSON object/ },
    { name: 'no type', bytes: line({ data: {} }), error: /without an event type/ },
    { name: 'an unknown event type', bytes: line({ type: 'made-up-event' }), error: /unknown event type "made-up-event"/ },
    { name: 'data that is not an object', bytes: line({ type: 'info', data: [1] }), error: /data that is not an object/ },
    {
      name: 'oversized payload_length',
      bytes: line({ type: 'audio-chunk', payload_length: 2 ** 32 }),
      error: /announces payload_length 4294967296, over the 4194304-byte limit/,
    },
    { name: 'oversized data_length', bytes: line({ type: 'info', data_length: 10_000_000 }), error: /announces data_length 10000000, over the/ },
    { name: 'negative length', bytes: line({ type: 'audio-chunk', payload_length: -1 }), error: /payload_length -1, not a byte count/ },
    { name: 'fractional length', bytes: line({ type: 'audio-chunk', payload_length: 1.5 }), error: /not a byte count/ },
    { name: 'string length', bytes: line({ type: 'audio-chunk', payload_length: '12' }), error: /payload_length "12", not a byte count/ },
    { name: 'separate data not JSON', bytes: Buffer.concat([line({ type: 'info', data_length: 3 }), Buffer.from('abc')]), error: /data of "info" is not JSON/ },
    {
      name: 'a header line without end',
      bytes: Buffer.alloc(2000, 0x61),
      limits: { maxHeaderBytes: 1024 },
      error: /header line longer than 1024 bytes without an end/,
    },
  ];
  it.each(cases)('$name', ({ bytes, limits, error }) => {
    const p = new WyomingParser(limits);
    expect(() => p.feed(bytes)).toThrow(WyomingFrameError);
    expect(() => p.feed(Buffer.from(''))).toThrow(error);
    // Nothing is held after a failure.
    expect(p.pending).toBe(0);
  });

  it('good events before bad bytes in one read are returned; the fault is kept and thrown next', () => {
    const p = new WyomingParser();
    const events = p.feed(Buffer.concat([line({ type: 'transcript-chunk', data: { text: 'heard' } }), line({ type: 'made-up-event' })]));
    expect(simple(events)).toEqual([{ type: 'transcript-chunk', data: { text: 'heard' }, payload: null }]);
    expect(p.error?.message).toMatch(/unknown event type "made-up-event"/);
    expect(() => p.feed(Buffer.alloc(0))).toThrow(/made-up-event/);
  });

  it('a header without end fed byte by byte fails once past the cap, holding at most cap + one read', () => {
    const p = new WyomingParser({ maxHeaderBytes: 256 });
    let fedBytes = 0;
    let err: unknown = null;
    for (let i = 0; i < 10_000 && !err; i++) {
      try {
        p.feed(Buffer.from('aaaaaaaaaaaaaaaa'));
        fedBytes += 16;
        expect(p.pending).toBeLessThanOrEqual(256 + 16);
      } catch (e) {
        err = e;
      }
    }
    expect(String(err)).toMatch(/without an end/);
    expect(fedBytes).toBeLessThanOrEqual(256);
  });
});

describe('Wyoming framing: properties', () => {
  const jsonValue = fc.oneof(fc.string({ maxLength: 20 }), fc.integer(), fc.boolean(), fc.constant(null));
  const event = fc.record({
    type: fc.constantFrom('audio-chunk', 'transcript', 'info', 'synthesize', 'audio-start', 'transcript-chunk'),
    data: fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), jsonValue, { maxKeys: 4 }),
    payload: fc.option(fc.uint8Array({ minLength: 1, maxLength: 300 }), { nil: null }),
    separate: fc.boolean(),
  });

  it('any split of the byte stream parses to the same events, in both data forms', () => {
    fc.assert(
      fc.property(
        fc.array(event, { minLength: 1, maxLength: 6 }),
        fc.array(fc.integer({ min: 1, max: 64 }), { minLength: 1, maxLength: 50 }),
        (events, cuts) => {
          const bytes = Buffer.concat(events.map((e) => encodeEvent(e.type, e.data, e.payload, { separateData: e.separate })));
          const whole = simple(new WyomingParser().feed(bytes));
          const p = new WyomingParser();
          const pieces: WyomingEvent[] = [];
          let at = 0;
          let i = 0;
          while (at < bytes.length) {
            const n = cuts[i++ % cuts.length]!;
            pieces.push(...p.feed(bytes.subarray(at, at + n)));
            at += n;
          }
          expect(simple(pieces)).toEqual(whole);
          expect(whole).toEqual(
            events.map((e) => ({
              type: e.type,
              data: JSON.parse(JSON.stringify(e.data)) as Record<string, unknown>,
              payload: e.payload ? [...e.payload] : null,
            })),
          );
          expect(p.atBoundary).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('random bytes never make the parser hold more than its caps, and failures are WyomingFrameErrors', () => {
    const limits = { maxHeaderBytes: 512, maxDataBytes: 512, maxPayloadBytes: 512 };
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 200 }), { maxLength: 20 }), (reads) => {
        const p = new WyomingParser(limits);
        for (const r of reads) {
          try {
            p.feed(r);
          } catch (e) {
            expect(e).toBeInstanceOf(WyomingFrameError);
            return;
          }
          expect(p.pending).toBeLessThanOrEqual(512 + 512 + 200);
        }
      }),
      { numRuns: 300 },
    );
  });
});
