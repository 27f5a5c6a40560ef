import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import { CANCEL_WINDOW_MS } from '../../src/ha/satellite/satellite.js';
import { mediaServer, ttsFile } from '../support/esphome-media.js';
import { HaSatellitePeer, type PeerOptions } from '../support/ha-satellite-peer.js';
import { haSide, satelliteRig, toneSegment, until, type SatelliteRig } from '../support/ha-satellite-rig.js';
import { outputDir } from '../support/paths.js';

/**
 * Home Assistant cancelling a run, as it does (test/support/ha-satellite-peer.ts: entity.py
 * cancels the running pipeline before it announces; core.py async_stop cancels it before the
 * integration disconnects), and what hark then owes it: a VoiceAssistantAnnounceFinished only for
 * what it played (ESPHome's voice_assistant.cpp), and the cook an error sound when no answer comes.
 */
const dir = outputDir('ha-satellite-cancel');
let media: Awaited<ReturnType<typeof mediaServer>>;
beforeAll(async () => {
  media = await mediaServer({ '/api/tts_proxy/answer.mp3': ttsFile(dir, 'Dinner is ready.', 'mp3') });
});
afterAll(async () => media?.close());

const ha = (o: Partial<PeerOptions> = {}): PeerOptions => haSide(() => media.url('/api/tts_proxy/answer.mp3'), o);

describe('when Home Assistant cancels a run (ESPHome sends VoiceAssistantAnnounceFinished only for what it played)', () => {
  let r: SatelliteRig;
  let peer: HaSatellitePeer;
  afterEach(async () => {
    peer?.conn.disconnect();
    await r?.server.close();
  });

  /** A run whose audio Home Assistant has, its speech-to-text still working on it. */
  async function runInFlight(clock: VirtualClock): Promise<void> {
    r = await satelliteRig(null, clock);
    peer = await HaSatellitePeer.connect(r.port, ha({ stt: () => new Promise<string>(() => {}) }));
    await until(() => r.satellite.ready, 3000, 'the subscription');
    r.satellite.startRun(toneSegment(), 'test');
    await peer.until(() => peer.runs[0]?.endedBy === 'end', 5000, 'the audio');
  }

  it('an announcement during a run (Home Assistant cancels the run first): its await ends only when hark has played it, with success', async () => {
    const clock = new VirtualClock();
    await runInFlight(clock);
    r.hold.holding = true;
    let settled = false;
    const announced = peer.announce(media.url('/api/tts_proxy/answer.mp3')).then((res) => ((settled = true), res));
    await until(() => r.played.length === 1, 10_000, 'the announcement playing');
    expect(peer.runs[0]!.events).toEqual(['RUN_START', 'STT_START', 'RUN_END']);
    // The cancelled run brought no "finished"; the announcement is still playing, and Home Assistant still waits.
    expect(peer.announceFinished).toEqual([]);
    expect(settled).toBe(false);
    expect(peer.state).toBe('responding');
    r.hold.release!();
    expect(await announced).toEqual({ success: true });
    expect(peer.announceFinished).toEqual([{ success: true }]);
    expect(peer.state).toBe('idle');
    // The announcement took the cancelled run's place: no error sound for it.
    clock.advanceBy(CANCEL_WINDOW_MS);
    expect(r.earcons).not.toContain('error');
  });

  it('an announcement while the answer still plays: one "finished", after the announcement, not when the answer ends', async () => {
    r = await satelliteRig(null, new VirtualClock());
    peer = await HaSatellitePeer.connect(r.port, ha());
    await until(() => r.satellite.ready, 3000, 'the subscription');
    r.hold.holding = true;
    r.satellite.startRun(toneSegment(), 'test');
    await until(() => r.played.length === 1, 10_000, 'the answer playing');
    await peer.runs[0]!.done;
    let settled = false;
    const announced = peer.announce(media.url('/api/tts_proxy/answer.mp3')).then((res) => ((settled = true), res));
    await until(() => r.played.length === 2, 10_000, 'the announcement playing');
    const ended: string[] = [];
    r.bus.on('ha.satellite.played', (e) => void ended.push(e.what));
    r.hold.releases[0]!();
    await until(() => ended.includes('answer'), 3000, 'the answer to end, as hark sees it');
    // A ping's answer comes after anything hark sent when the answer ended.
    await peer.conn.pingService();
    expect(peer.announceFinished).toEqual([]);
    expect(settled).toBe(false);
    r.hold.releases[1]!();
    expect(await announced).toEqual({ success: true });
    expect(peer.announceFinished).toEqual([{ success: true }]);
    expect(peer.state).toBe('idle');
  });

  it('a clean Home Assistant restart (the run cancelled, then the disconnect): the error sound and the journal line', async () => {
    await runInFlight(new VirtualClock());
    await peer.stop();
    expect(peer.runs[0]!.events).toEqual(['RUN_START', 'STT_START', 'RUN_END']);
    await until(() => !r.satellite.ready && r.earcons.includes('error'), 3000, 'the error sound for the lost run');
    expect(r.log.lines.join('\n')).toMatch(/Home Assistant went away before answering \(restarted or upgraded\?\); the run is lost/);
    expect(peer.announceFinished).toEqual([]);
  });

  it('a run cancelled with nothing after it: once the window has passed, the cook is told no answer comes', async () => {
    const clock = new VirtualClock();
    await runInFlight(clock);
    const heard: string[] = [];
    r.bus.on('ha.satellite.event', (e) => void heard.push(e.event));
    await peer.cancelPipeline();
    await until(() => heard.includes('run-end'), 3000, 'the cancellation, as hark sees it');
    // Not yet: an announcement or a disconnect may still follow.
    expect(r.earcons).toEqual([]);
    clock.advanceBy(CANCEL_WINDOW_MS);
    expect(r.earcons).toEqual(['error']);
    expect(r.log.lines.join('\n')).toMatch(/Home Assistant cancelled the run before answering/);
  });

  it('a plain run with no answer stays quiet, even when Home Assistant stops just after: no error sound, no "finished"', async () => {
    const clock = new VirtualClock();
    r = await satelliteRig(null, clock);
    peer = await HaSatellitePeer.connect(r.port, ha({ agent: () => ({ speech: '' }) }));
    await until(() => r.satellite.ready, 3000, 'the subscription');
    const heard: string[] = [];
    r.bus.on('ha.satellite.event', (e) => void heard.push(e.event));
    r.satellite.startRun(toneSegment(), 'test');
    await until(() => heard.includes('run-end'), 10_000, 'the run, as hark sees it');
    expect(peer.runs[0]!.events).toEqual(['RUN_START', 'STT_START', 'STT_END', 'INTENT_START', 'INTENT_END', 'RUN_END']);
    // A ping's answer comes after anything hark sent on RUN_END.
    await peer.conn.pingService();
    expect(peer.announceFinished).toEqual([]);
    await peer.stop();
    await until(() => !r.satellite.ready, 3000, 'the disconnect');
    clock.advanceBy(CANCEL_WINDOW_MS);
    expect(r.earcons).toEqual([]);
    expect(r.log.lines.join('\n')).not.toMatch(/went away before answering|cancelled the run/);
    expect(peer.announceFinished).toEqual([]);
    expect(peer.states).toEqual(['idle', 'listening', 'processing', 'idle']);
  });
});
