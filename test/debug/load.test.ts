import { afterEach, describe, expect, it } from 'vitest';
import type { SttLoad } from '../../src/debug/metrics.js';
import { startHarness, type Harness } from './harness.js';

/** Load is visible on /metrics and /healthz (the page's header reads /healthz and the `stt` event). */

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

describe('speech-to-text load on /metrics and /healthz', () => {
  it('gauges the queue, the real-time factor and skipped segments; says "behind" when the bound is reached', async () => {
    let load: SttLoad = { depth: 0, audioSec: 0, oldestWaitMs: 0, behind: false };
    h = await startHarness({ suite: 'debug-load', server: { sttLoad: () => load } });
    // 12 s of audio transcribed in 6 s of engine time: real-time factor 0.5
    h.bus.emit('stt.segment', {
      segmentId: 1,
      attempts: [{ engine: 'whisper', outcome: 'ok', rawText: '', text: '', sttMs: 4000 }],
      hearing: { kind: 'dropped', reason: 'x', rawText: '', engine: 'whisper' },
      sttMs: 9000,
      audioSec: 8,
    });
    h.bus.emit('stt.segment', {
      segmentId: 2,
      attempts: [{ engine: 'whisper', outcome: 'ok', rawText: '', text: '', sttMs: 2000 }],
      hearing: { kind: 'dropped', reason: 'x', rawText: '', engine: 'whisper' },
      sttMs: 2000,
      audioSec: 4,
    });
    h.bus.emit('segment.skipped', { segment: 3, reason: 'no-wake-phrase', waitedMs: 0 });
    h.bus.emit('segment.skipped', { segment: 4, reason: 'no-wake-phrase', waitedMs: 0 });
    h.bus.emit('segment.skipped', { segment: 5, reason: 'backlog-wait', waitedMs: 12_000 });

    const ok = await (await fetch(new URL('/healthz', h.url))).json();
    expect(ok).toMatchObject({ status: 'ok', behind: false, stt: { depth: 0, realTimeFactor: 0.5 } });

    load = { depth: 7, audioSec: 31.5, oldestWaitMs: 12_400, behind: true };
    const res = await fetch(new URL('/healthz', h.url));
    expect(res.status).toBe(200);
    const behind = await res.json();
    expect(behind).toMatchObject({ status: 'behind', behind: true, stt: { depth: 7, audioSec: 31.5 } });
    expect(behind.problems.some((p: string) => p.startsWith('behind: speech-to-text cannot keep up (7 waiting, 31.5 s of audio, the oldest for 12 s)'))).toBe(
      true,
    );

    const m = await (await fetch(new URL('/metrics', h.url))).text();
    expect(m).toContain('hark_stt_queue_depth 7');
    expect(m).toContain('hark_stt_queue_audio_seconds 31.5');
    expect(m).toContain('hark_stt_queue_oldest_wait_seconds 12.4');
    expect(m).toContain('hark_stt_behind 1');
    expect(m).toContain('hark_stt_real_time_factor 0.5');
    expect(m).toContain('hark_segments_skipped_total{reason="no-wake-phrase"} 2');
    expect(m).toContain('hark_segments_skipped_total{reason="backlog-wait"} 1');
  });
});
