import { describe, expect, it } from 'vitest';
import { buildPrompt, MIN_SAMPLES, planCall } from '../../src/stt/whisper/params.js';

const o = { scaleAudioCtx: true, audioCtxPad: 128, maxTokensPerSecond: 8, deadlineBaseMs: 2000, deadlinePerSecondMs: 1000 };

describe('whisper call plan', () => {
  it('scales audio_ctx to the segment: 50 positions a second plus the pad', () => {
    expect(planCall(32_000, o).audioCtx).toBe(100 + 128);
    expect(planCall(16_000 * 12, o).audioCtx).toBe(600 + 128);
  });

  it("never asks for more than the model's 1500 positions, and 0 (full 30 s) when switched off", () => {
    expect(planCall(16_000 * 40, o).audioCtx).toBe(1500);
    expect(planCall(32_000, { ...o, scaleAudioCtx: false }).audioCtx).toBe(0);
  });

  it("pads a clip shorter than whisper.cpp's 1 s minimum instead of losing it", () => {
    const p = planCall(8000, o);
    expect(p.padSamples).toBe(MIN_SAMPLES - 8000);
    expect(MIN_SAMPLES).toBeGreaterThan(16_000);
    expect(planCall(32_000, o).padSamples).toBe(0);
  });

  it('caps decoded tokens by length (a repetition loop cannot hold the CPU) and scales the deadline', () => {
    expect(planCall(32_000, o)).toMatchObject({ maxTokens: 16 + 16, deadlineMs: 4000 });
    expect(planCall(32_000, { ...o, maxTokensPerSecond: 0 }).maxTokens).toBe(0);
  });

  it("builds the initial prompt from fixed text and the router's distinct words, common ones left out, bounded", () => {
    expect(buildPrompt('Kitchen commands.', ['lights on', 'Lights On', 'timer', ' ', 'stop', 'say that again'])).toBe('Kitchen commands. lights, timer, stop.');
    expect(buildPrompt('', [])).toBe('');
    const many = Array.from({ length: 400 }, (_, i) => `word${i}`);
    // Every prompt token is decoded before the segment's own: a short prompt keeps Whisper fast.
    expect(buildPrompt('', many).split(',').length).toBe(32);
    expect(buildPrompt('', many, 150).split(',').length).toBe(150);
  });
});
