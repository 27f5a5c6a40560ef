import { describe, expect, it } from 'vitest';
import { parseConfigText } from '../../src/config/load.js';
import { Bus } from '../../src/core/bus.js';
import { SystemClock } from '../../src/core/clock.js';
import { createSpeech } from '../../src/speech/create.js';
import type { EspeakTts } from '../../src/speech/espeak.js';

/** The real chain: the queue, espeak-ng, the earcon bank and aplay, playing to ALSA's null device. */
function realSpeech(extra = '') {
  const config = parseConfigText(`speech:\n  device: "null"\n${extra}`, 'hark.yaml');
  const bus = new Bus();
  const events: { type: string; p: Record<string, unknown> }[] = [];
  bus.onAny((type, p) => events.push({ type, p: p as Record<string, unknown> }));
  const speech = createSpeech(config, { bus, clock: new SystemClock() });
  return { speech, events, bus };
}

describe('speaking through espeak-ng and aplay', () => {
  it('says a phrase: speak.start with its length, then speak.end', async () => {
    const { speech, events } = realSpeech();
    const spoken = speech.queue.say('Two onions added.');
    expect(await spoken.done).toBe('ended');
    const start = events.find((e) => e.type === 'speak.start')!;
    expect(start.p).toMatchObject({ kind: 'speech', text: 'Two onions added.', priority: 'normal' });
    expect(start.p.durationMs as number).toBeGreaterThan(800);
    expect(start.p.durationMs as number).toBeLessThan(3000);
    expect(events.map((e) => e.type)).toEqual(['speak.start', 'speak.end']);
  });

  it('stop() while it speaks: silent at once, the echo gate drops after its tail', async () => {
    const { speech, events, bus } = realSpeech('echo:\n  tailMs: 100\n');
    const started = new Promise((r) => bus.on('speak.start', r));
    const spoken = speech.queue.say('This is a long read back of everything on the inventory list so far, item by item.', { priority: 'readback' });
    await started;
    expect(speech.gate.active).toBe(true);
    await new Promise((r) => setTimeout(r, 200));
    speech.queue.stop('button');
    expect(speech.queue.isSpeaking).toBe(false);
    expect(await spoken.done).toBe('stopped');
    expect(events.at(-1)).toMatchObject({ type: 'speak.stopped', p: { reason: 'button', dropped: 0 } });
    expect(speech.gate.active).toBe(true);
    await new Promise((r) => setTimeout(r, 150));
    expect(speech.gate.active).toBe(false);
  });

  it('plays earcons, and reports one it has no sound for', async () => {
    const { speech, events } = realSpeech();
    expect(await speech.queue.earcon('listening').done).toBe('ended');
    expect(await speech.queue.earcon('fanfare').done).toBe('error');
    expect(events.at(-1)).toMatchObject({ type: 'speak.error', p: { error: 'no earcon named "fanfare"' } });
  });

  it("a reply in another language is spoken with that language's voice: the pack's, or speech.voices' for it", async () => {
    const { speech, events } = realSpeech('  voices: {de: xx-nowhere}\n');
    const text = 'Temporizador de arroz puesto para diez minutos.';
    expect(await speech.queue.say(text, { lang: 'es' }).done).toBe('ended');
    // What aplay was given is espeak-ng's Spanish voice (packs/es voice: es), not the device's en-us.
    const tts = speech.tts as EspeakTts;
    const ms = (pcm: Int16Array) => Math.round((pcm.length / 16_000) * 1000);
    const [es, en] = [await tts.render(text, { voice: 'es' }), await tts.render(text, { voice: 'en-us' })];
    expect(ms(es)).not.toBe(ms(en));
    expect(events[0]!.p.durationMs).toBe(ms(es));
    // speech.voices overrides the pack's: German here is a voice espeak-ng lacks, and says so.
    expect(await speech.queue.say('Reis-Timer ist abgelaufen.', { lang: 'de' }).done).toBe('error');
    expect(String(events.at(-1)!.p.error)).toMatch(/speech.voice is "xx-nowhere"/);
  });

  it("the cascade's answer asked for in a language is rendered in that language's voice, found by the tts itself", async () => {
    const { speech } = realSpeech();
    const text = 'Lista de la compra: leche.';
    const tts = speech.tts!;
    // What the answer cascade asks for: the language only (turn-steps), never a voice name.
    const asked = await tts.render(text, { lang: 'es' });
    expect(asked).toEqual(await (tts as EspeakTts).render(text, { voice: 'es' }));
    expect(asked).not.toEqual(await tts.render(text));
  });

  it('a missing voice fails that item with the reason, and the next one still plays', async () => {
    const { speech, events } = realSpeech('  voice: xx-nowhere\n');
    const bad = speech.queue.say('hello');
    const good = speech.queue.earcon('confirmed');
    expect(await bad.done).toBe('error');
    expect(await good.done).toBe('ended');
    expect(String(events[0]!.p.error)).toMatch(/espeak-ng could not say "hello"/);
  });
});

describe('speech config', () => {
  it('has defaults and names bad values', () => {
    const c = parseConfigText('', 'hark.yaml');
    expect(c.speech).toMatchObject({ device: 'default', voice: 'en-us', speed: 160, volume: 100 });
    expect(c.echo).toMatchObject({ mode: 'cancel', fallback: 'raise', raiseThreshold: 0.9, tailMs: 300 });
    expect(() => parseConfigText('speech:\n  speed: 2000\n', 'hark.yaml')).toThrow(/speech\.speed: must be a whole number between 80 and 450/);
    expect(() => parseConfigText('echo:\n  mode: mute\n', 'hark.yaml')).toThrow(/echo\.mode: must be one of: cancel, raise, gate, off/);
    // The echo canceller's and gate's keys moved to the echo: section: the old ones name the new.
    expect(() => parseConfigText('speech:\n  echoMode: gate\n', 'hark.yaml')).toThrow(/speech\.echoMode: has moved: write echo\.mode/);
    expect(() => parseConfigText('speech:\n  echoThreshold: 0.8\n  denoise: true\n', 'hark.yaml')).toThrow(
      /speech\.denoise: has moved: write echo\.denoise\n  speech\.echoThreshold: has moved: write echo\.raiseThreshold/,
    );
  });
});
