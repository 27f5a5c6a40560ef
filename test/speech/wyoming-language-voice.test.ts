import { afterEach, describe, expect, it } from 'vitest';
import { Bus } from '../../src/core/bus.js';
import { SystemClock } from '../../src/core/clock.js';
import { memoryLogger } from '../../src/core/log.js';
import { AplayPlayer } from '../../src/speech/aplay.js';
import { DeviceOutput } from '../../src/speech/device-output.js';
import { EarconBank } from '../../src/speech/earcons.js';
import { EspeakTts } from '../../src/speech/espeak.js';
import type { SpeechItem, SpeechOutput } from '../../src/speech/item.js';
import { SpeechQueue } from '../../src/speech/queue.js';
import { createWyomingSpeech } from '../../src/speech/wyoming-speech.js';
import { wyomingVoiceSection } from '../../src/wyoming/config.js';
import { PiperPeer } from '../support/wyoming-piper.js';

/**
 * A Wyoming voice per language (speech.wyoming.voices): a reply in Spanish is asked of the
 * server's Spanish voice, against a server that behaves as wyoming-piper does
 * (test/support/wyoming-piper.ts: a voice it has not got is a VoiceNotFoundError and a closed
 * connection). A language with no server voice, or one the server has not got, is said by
 * espeak-ng in that language's voice (speech.voices), never in the English server voice and never lost.
 */
let peer: PiperPeer | null = null;
const players: AplayPlayer[] = [];
afterEach(async () => {
  for (const p of players.splice(0)) p.close();
  await peer?.close();
  peer = null;
});

const espeak = new EspeakTts({ voice: 'en-us', speed: 160, volume: 100, voiceFor: (l) => ({ es: 'es', de: 'de' })[l] });

async function speaker(voices: Record<string, string>) {
  peer = await PiperPeer.start({ voices: ['en_US-lessac-medium', 'es_ES-davefx-medium'] });
  const clock = new SystemClock();
  const player = new AplayPlayer({ device: 'null', clock });
  players.push(player);
  // espeak-ng behind the server, with each language's espeak-ng voice; what it was given is kept.
  const device = new DeviceOutput({ player, tts: espeak, earcons: new EarconBank({ volume: 0.5 }) });
  const espoken: SpeechItem[] = [];
  const fallback: SpeechOutput = { play: (item, cb) => (espoken.push(item), device.play(item, cb)) };
  const logger = memoryLogger();
  const cfg = wyomingVoiceSection.parse({ server: peer.url, voice: 'en_US-lessac-medium', voices });
  const made = createWyomingSpeech(cfg, { espeak, player, fallback, logger })!;
  const queue = new SpeechQueue({ output: made.output, clock, bus: new Bus() });
  return { queue, tts: made.tts, espoken, logger, asked: () => peer!.requests.map((r) => [r.text, r.voice]) };
}

describe('a Wyoming voice per language', () => {
  it("a Spanish reply is synthesized with the Spanish voice, an English one with the device's, a German one (no server voice) by espeak-ng", async () => {
    const s = await speaker({ es: 'es_ES-davefx-medium' });
    expect(await s.queue.say('Temporizador de arroz puesto para 10 minutos.', { lang: 'es' }).done).toBe('ended');
    expect(await s.queue.say('Rice timer set for 10 minutes.').done).toBe('ended');
    expect(await s.queue.say('Reis-Timer auf 10 Minuten gestellt.', { lang: 'de' }).done).toBe('ended');
    expect(s.asked()).toEqual([
      ['Temporizador de arroz puesto para 10 minutos.', 'es_ES-davefx-medium'],
      ['Rice timer set for 10 minutes.', 'en_US-lessac-medium'],
    ]);
    expect(s.espoken.map((i) => [i.text, i.lang])).toEqual([['Reis-Timer auf 10 Minuten gestellt.', 'de']]);
  });

  it('a voice the server has not got: the server refuses it, and espeak-ng says the whole reply in Spanish', async () => {
    const s = await speaker({ es: 'es_MX-nadie-low' });
    expect(await s.queue.say('Temporizador de arroz puesto para 10 minutos.', { lang: 'es' }).done).toBe('ended');
    expect(s.asked()).toEqual([['Temporizador de arroz puesto para 10 minutos.', 'es_MX-nadie-low']]);
    expect(s.espoken.map((i) => [i.text, i.lang])).toEqual([['Temporizador de arroz puesto para 10 minutos.', 'es']]);
    const warned = s.logger.lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((r) => String(r.msg).includes('could not say it'));
    expect(warned).toMatchObject({ voice: 'es_MX-nadie-low' });
    expect(String(warned?.error)).toContain('es_MX-nadie-low');
  });

  it("the cascade's answer rendered ahead in Spanish asks for the Spanish voice; with none, espeak-ng's Spanish", async () => {
    const s = await speaker({ es: 'es_ES-davefx-medium' });
    const pcm = await s.tts.render('El arroz necesita veinte minutos.', { lang: 'es' });
    expect(pcm.length).toBeGreaterThan(0);
    expect(s.asked()).toEqual([['El arroz necesita veinte minutos.', 'es_ES-davefx-medium']]);
    const de = await s.tts.render('Der Reis braucht zwanzig Minuten.', { lang: 'de' });
    expect(de).toEqual(await espeak.render('Der Reis braucht zwanzig Minuten.', { voice: 'de' }));
    expect(s.asked()).toHaveLength(1);
  });
});
