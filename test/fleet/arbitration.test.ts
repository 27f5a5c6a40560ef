import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import { parseRoomMessage, peersHeardIt, score, settle, speechLevelDb, winner, type Claim, type Seen } from '../../src/fleet/arbitration.js';
import { RoomArbiter, type ArbitrationOutcome, type ClaimChannel } from '../../src/fleet/arbiter.js';
import type { Segment } from '../../src/vad/segment.js';
import type { Utterance } from '../../src/core/utterance.js';

const flush = () => new Promise<void>((r) => setImmediate(r));
const claim = (device: string, levelDb: number, prob: number): Claim => ({ device, levelDb, prob, utteranceId: `u-${device}`, text: 'computer stop' });

function tone(amplitude: number, samples: number, silenceBefore = 0): Int16Array {
  const pcm = new Int16Array(silenceBefore + samples);
  for (let i = 0; i < samples; i++) pcm[silenceBefore + i] = Math.round(amplitude * Math.sin((2 * Math.PI * 440 * i) / 16000));
  return pcm;
}

describe('speech level', () => {
  it('a full-scale sine is about -3 dBFS; half the amplitude is 6 dB lower', () => {
    const full = speechLevelDb(tone(32767, 16000));
    expect(full).toBeCloseTo(-3.01, 1);
    expect(speechLevelDb(tone(16384, 16000))).toBeCloseTo(full - 6.02, 1);
  });
  it('measures the voiced part: the pre-roll and the hangover’s silence do not dilute it', () => {
    const voiced = speechLevelDb(tone(8000, 8000));
    const padded = new Int16Array(8000 + 8000 + 9600);
    padded.set(tone(8000, 8000), 8000);
    expect(speechLevelDb(padded, 4000)).toBeCloseTo(voiced, 0);
  });
  it('silence and an empty segment are the floor', () => {
    expect(speechLevelDb(new Int16Array(4096))).toBe(-120);
    expect(speechLevelDb(new Int16Array(0))).toBe(-120);
  });
});

describe('who acts', () => {
  it.each([
    ['the louder device', [claim('a', -20, 0.9), claim('b', -30, 0.95)], 'a'],
    ['VAD confidence breaks a near-tie in level', [claim('a', -20, 0.6), claim('b', -20.5, 0.99)], 'b'],
    ['an exact tie goes to the lowest id', [claim('b', -20, 0.9), claim('a', -20, 0.9)], 'a'],
    ['one claim wins alone', [claim('z', -60, 0.1)], 'z'],
  ])('%s', (_n, claims, want) => expect(winner(claims)?.device).toBe(want));

  it('every device picks the same winner whatever order the claims arrived in', () => {
    const cs = [claim('a', -25, 0.9), claim('b', -24, 0.7), claim('c', -25.5, 0.99)];
    const perms = [cs, [cs[2]!, cs[0]!, cs[1]!], [cs[1]!, cs[2]!, cs[0]!]];
    expect(new Set(perms.map((p) => winner(p)?.device)).size).toBe(1);
    expect(score(claim('x', -20, 1))).toBe(-14);
  });

  it('peers whose segment closed within the window of ours heard the same command', () => {
    const closes: Seen[] = [
      { device: 'b', atMs: 900, value: undefined },
      { device: 'c', atMs: 1150, value: undefined },
      { device: 'd', atMs: 1300, value: undefined },
      { device: 'b', atMs: 950, value: undefined },
    ];
    expect(peersHeardIt(closes, 1000, 200)).toEqual(['b', 'c']);
  });

  it('settle: each expected peer’s claim after its close; complete when all claimed; one from long before acted already', () => {
    const closes: Seen[] = [
      { device: 'b', atMs: 1000, value: undefined },
      { device: 'c', atMs: 1010, value: undefined },
    ];
    const claims: Seen<Claim>[] = [
      { device: 'b', atMs: 500, value: claim('b', -1, 1) },
      { device: 'b', atMs: 1300, value: claim('b', -20, 0.9) },
    ];
    expect(settle(claims, closes, ['b', 'c'], 1000, 200, 1400)).toEqual({ others: [claims[1]!.value], complete: false, actedAlready: null });
    claims.push({ device: 'c', atMs: 1450, value: claim('c', -30, 0.9) });
    expect(settle(claims, closes, ['b', 'c'], 1000, 200, 1400).complete).toBe(true);
    expect(settle(claims, closes, ['b', 'c'], 1000, 200, 1700).actedAlready?.device).toBe('b');
  });

  it.each(['nope', '{}', '{"device":"a","levelDb":"loud","prob":1}', '{"device":"","levelDb":1,"prob":1}', 'null', '{"closed":true}'])(
    'a malformed room message %s is ignored',
    (raw) => expect(parseRoomMessage(raw)).toBeNull(),
  );
  it('room messages: a close and a claim', () => {
    expect(parseRoomMessage('{"closed":true,"device":"b"}')).toEqual({ kind: 'closed', device: 'b' });
    expect(parseRoomMessage('{"device":"b","levelDb":-20,"prob":0.9,"utteranceId":"u","text":"t"}')).toEqual({
      kind: 'claim',
      claim: { device: 'b', levelDb: -20, prob: 0.9, utteranceId: 'u', text: 't' },
    });
  });
});

describe('RoomArbiter', () => {
  const seg = (amp: number, maxProb = 0.9): Segment => ({
    index: 0,
    pcm: tone(amp, 16000, 1600),
    prerollSamples: 1600,
    startSample: 0,
    vadStartSample: 1600,
    endSample: 17600,
    closeReason: 'hangover',
    maxProb,
    openedBy: 'vad',
  });
  const utt: Utterance = { id: 'u1', text: 'computer stop', rawText: 'computer stop', engine: 'whisper', atMs: 0 } as Utterance;

  function setup(connected = true) {
    const clock = new VirtualClock(10_000);
    const sent: Claim[] = [];
    const outcomes: ArbitrationOutcome[] = [];
    const channel: ClaimChannel = { connected: () => connected, publishClaim: (c) => sent.push(c) };
    const arbiter = new RoomArbiter({ device: 'me', windowMs: 200, clock, channel, onOutcome: (o) => outcomes.push(o) });
    return { clock, sent, outcomes, arbiter };
  }

  it('with no broker it acts at once, without waiting or publishing', async () => {
    const { arbiter, sent, outcomes } = setup(false);
    await expect(arbiter.decide(seg(8000), utt)).resolves.toEqual({ act: true });
    expect(sent).toHaveLength(0);
    expect(outcomes[0]).toMatchObject({ act: true, waitedMs: 0, alone: 'broker not connected' });
  });

  it('a device no one else heard acts at once when its transcript came a window after the close (Whisper on a Pi)', async () => {
    const { arbiter, sent, outcomes, clock } = setup();
    arbiter.ownSegmentClosed(0);
    clock.advanceTo(10_350);
    await expect(arbiter.decide(seg(8000), utt)).resolves.toEqual({ act: true });
    expect(sent).toHaveLength(1);
    expect(outcomes[0]).toMatchObject({ act: true, waitedMs: 0, expected: [] });
  });

  it('with a fast transcript it waits until a window after its close, for peers that closed just after it', async () => {
    const { arbiter, clock, outcomes } = setup();
    arbiter.ownSegmentClosed(0);
    clock.advanceTo(10_020);
    const verdict = arbiter.decide(seg(8000), utt);
    await flush();
    clock.advanceTo(10_060);
    arbiter.peerSegmentClosed('late');
    await flush();
    clock.advanceTo(10_100);
    arbiter.claimArrived({ device: 'late', levelDb: -3, prob: 0.99, utteranceId: 'x', text: '' });
    await flush();
    clock.advanceTo(10_200);
    await expect(verdict).resolves.toEqual({ act: false, to: 'late' });
    expect(outcomes[0]).toMatchObject({ waitedMs: 180, expected: ['late'] });
  });

  it('waits for the peer that heard it too only until its claim arrives, and yields to it when it is louder', async () => {
    const { arbiter, clock, outcomes } = setup();
    arbiter.ownSegmentClosed(0);
    arbiter.peerSegmentClosed('near');
    clock.advanceTo(10_300);
    const verdict = arbiter.decide(seg(4000), utt);
    await flush();
    clock.advanceTo(10_350);
    arbiter.claimArrived({ device: 'near', levelDb: -6, prob: 0.95, utteranceId: 'x', text: 'computer stop' });
    await expect(verdict).resolves.toEqual({ act: false, to: 'near' });
    expect(outcomes[0]).toMatchObject({ act: false, to: 'near', waitedMs: 50, expected: ['near'] });
  });

  it('acts when it heard best; a peer that never claims (nothing heard) costs the window, no more', async () => {
    const { arbiter, clock, outcomes } = setup();
    arbiter.peerSegmentClosed('far');
    arbiter.peerSegmentClosed('mute');
    arbiter.ownSegmentClosed(0);
    arbiter.claimArrived({ device: 'far', levelDb: -50, prob: 0.6, utteranceId: 'x', text: '' });
    const verdict = arbiter.decide(seg(20000), utt);
    clock.advanceTo(10_199);
    expect(outcomes).toHaveLength(0);
    clock.advanceTo(10_200);
    await expect(verdict).resolves.toEqual({ act: true });
    expect(outcomes[0]).toMatchObject({ act: true, waitedMs: 200, expected: ['far', 'mute'] });
  });

  it('a peer that claimed more than a window before us has acted already: we yield, not act twice', async () => {
    const { arbiter, clock } = setup();
    arbiter.peerSegmentClosed('fast');
    arbiter.ownSegmentClosed(0);
    clock.advanceTo(10_050);
    arbiter.claimArrived({ device: 'fast', levelDb: -50, prob: 0.5, utteranceId: 'x', text: '' });
    clock.advanceTo(10_400);
    await expect(arbiter.decide(seg(20000), utt)).resolves.toEqual({ act: false, to: 'fast' });
  });

  it('a segment another device closed long before is another command; its own echo is ignored', async () => {
    const { arbiter, clock } = setup();
    arbiter.peerSegmentClosed('near');
    arbiter.claimArrived({ device: 'near', levelDb: -1, prob: 1, utteranceId: 'x', text: '' });
    clock.advanceTo(11_000);
    arbiter.peerSegmentClosed('me');
    arbiter.ownSegmentClosed(0);
    arbiter.claimArrived({ device: 'me', levelDb: 0, prob: 1, utteranceId: 'u1', text: '' });
    clock.advanceTo(11_300);
    await expect(arbiter.decide(seg(2000), utt)).resolves.toEqual({ act: true });
  });
});
