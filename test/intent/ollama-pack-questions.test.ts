import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { simulate as runSimulate } from '../conversation/sim.js';
import { startOllamaDouble, type OllamaDouble } from '../support/ollama-server.js';
import { intentHarness } from './ollama-harness.js';
import { closedUrl } from '../support/http-double.js';

/**
 * The built-in intents asked in the language the request was said in, through `hark simulate`
 * with the Ollama double: the model's object is read with that language's pack (its durations,
 * its timer words), the yes/no question is the pack's (proposals.yaml), and after "sí" / "ja" the
 * timer is set and answered in that language. English is as it always was.
 */
let ollama: OllamaDouble;
beforeEach(async () => {
  ollama = await startOllamaDouble();
  ollama.on('pasta al dente', { verb: 'set_timer', object: 'pasta para 10 minutos' });
  ollama.on('pasta bissfest', { verb: 'set_timer', object: 'Pasta für 10 Minuten' });
  ollama.on('pasta to be al dente', { verb: 'set_timer', object: 'pasta for 10 minutes' });
  ollama.on('guantes', { verb: 'inventory_count', object: '12 cajas de guantes' });
  ollama.on('cámara', { verb: 'report_issue', object: 'la cámara está a 10 grados' });
  ollama.on('Schichtleiter', { verb: 'call_manager', object: null });
});
afterEach(() => ollama.close());

const simulate = (lines: string[], languages: string[]) =>
  runSimulate(`${lines.join('\n')}\n`, {
    args: ['--ollama', ollama.url],
    yaml: `language:\n  languages: [${languages.join(', ')}]\nintent:\n  enabled: true\n`,
    drainMs: 0,
    timeoutMs: 20_000,
  });
const said = (r: Awaited<ReturnType<typeof simulate>>) => r.of('speak').map((l) => (l.lang ? `[${String(l.lang)}] ${String(l.text)}` : String(l.text)));
const timerSet = (r: Awaited<ReturnType<typeof simulate>>) =>
  r
    .of('action')
    .filter((a) => a.name === 'timer.set')
    .map((a) => (a as unknown as { args: { seconds: number; label?: string } }).args);

describe("the built-in intents in the request's language", () => {
  it('Spanish: asked in Spanish, set on "sí", answered in Spanish', async () => {
    const r = await simulate(['oye computadora quiero la pasta al dente', 'envía', 'sí'], ['en', 'es']);
    expect(r.status).toBe(0);
    expect(said(r)).toEqual(['[es] ¿Pongo un temporizador de pasta de 10 minutos? Di sí o no.', '[es] Temporizador de pasta puesto para 10 minutos.']);
    expect(timerSet(r)).toEqual([expect.objectContaining({ seconds: 600, label: 'pasta' })]);
  }, 60_000);

  it('German: asked in German, set on "ja", answered in German', async () => {
    const r = await simulate(['hallo computer ich will die pasta bissfest', 'senden', 'ja'], ['en', 'de']);
    expect(r.status).toBe(0);
    expect(said(r)).toEqual(['[de] Soll ich einen Pasta-Timer auf 10 Minuten stellen? Sag ja oder nein.', '[de] Pasta-Timer auf 10 Minuten gestellt.']);
    expect(timerSet(r)).toEqual([expect.objectContaining({ seconds: 600, label: 'pasta' })]);
  }, 60_000);

  it('English on the same device is as before', async () => {
    const r = await simulate(['computer i want the pasta to be al dente', 'go', 'yes'], ['en', 'es']);
    expect(said(r)).toEqual(['Set a pasta timer for 10 minutes? Say yes or no.', 'Pasta timer set for 10 minutes.']);
    expect(timerSet(r)).toEqual([expect.objectContaining({ seconds: 600, label: 'pasta' })]);
  }, 60_000);

  it("what the cascade prepares ahead is worded in the open request's language, and is what the confirm frame then says", async () => {
    const h = intentHarness({ host: ollama.url, config: { language: { languages: ['en', 'es'] } } });
    const question = '¿Pongo un temporizador de pasta de 10 minutos? Di sí o no.';
    expect(await h.pass.prepare('quiero la pasta al dente', new AbortController().signal, 'es')).toEqual({ spoken: question, lang: 'es' });
    await h.script('oye computadora quiero la pasta al dente', 'envía');
    expect(h.spoken()).toEqual([question]);
    expect(ollama.chats).toHaveLength(1);
  });

  it("the intents' own actions answer in the request's language too", async () => {
    const es = await simulate(
      ['oye computadora contamos doce cajas de guantes', 'envía', 'sí', 'oye computadora la cámara está a diez grados', 'envía', 'sí'],
      ['en', 'es'],
    );
    expect(said(es)).toEqual([
      '[es] ¿Anoto un recuento de doce cajas de guantes? Di sí o no.',
      '[es] Anotado el recuento: doce cajas de guantes.',
      '[es] ¿Aviso de esto: la cámara está a diez grados? Di sí o no.',
      '[es] Avisado: la cámara está a diez grados.',
    ]);
    const de = await simulate(['hallo computer ich brauche den Schichtleiter', 'senden', 'ja'], ['en', 'de']);
    expect(said(de)).toEqual([
      '[de] Soll ich den Schichtleiter rufen? Sag ja oder nein.',
      '[de] Ich habe notiert, dass du den Schichtleiter brauchst, aber es ist kein Pager eingerichtet.',
    ]);
  }, 60_000);

  it('Ollama down: a Spanish request is told so in Spanish (in full once, then briefly), an English one in English; a line the config writes is said as written', async () => {
    const down = await closedUrl();
    const run = (lines: string[], yaml = '') =>
      runSimulate(`${lines.join('\n')}\n`, {
        args: ['--ollama', down],
        yaml: `language:\n  languages: [en, es]\nintent:\n  enabled: true\n${yaml}`,
        drainMs: 0,
        timeoutMs: 20_000,
      });
    const r = await run([
      'oye computadora quiero la pasta al dente',
      'envía',
      'oye computadora quiero la pasta al dente',
      'envía',
      'computer i want the pasta to be al dente',
      'go',
    ]);
    expect(said(r)).toEqual([
      '[es] No puedo contactar con el modelo de intenciones.',
      '[es] El modelo de intenciones sigue sin responder.',
      'The intent model is still away.',
    ]);
    const own = await run(['oye computadora quiero la pasta al dente', 'envía'], '  unavailable: "Ollama is down, sorry."\n');
    expect(said(own)).toEqual(['Ollama is down, sorry.']);
  }, 60_000);
});
