import { describe, expect, it } from 'vitest';
import type { Speech } from '../../src/speech/create.js';
import { turnSteps } from '../../src/path/turn-steps.js';

/**
 * The cascade's look-ahead for a request said in another of the device's languages: the pass is
 * asked about the open frame (so it words the question in that frame's language), and the question
 * is rendered ahead with that language's voice, as the confirm frame will say it.
 */
function rig(prepared: { spoken: string | null; lang?: string }) {
  const renders: [string, unknown][] = [];
  const asked: string[] = [];
  const speech = {
    tts: {
      render: async (text: string, opts?: unknown) => {
        renders.push([text, opts]);
        return new Int16Array(4);
      },
    },
    queue: {},
  } as unknown as Speech;
  const steps = turnSteps({
    speech,
    prepare: () => async (_text, _signal, frame) => {
      asked.push(frame);
      return prepared;
    },
    submitHeld: async () => {},
  });
  return { steps, renders, asked };
}

describe('the prepared question in the request language', () => {
  it('is rendered with the voice of the language the pass worded it in', async () => {
    const { steps, renders, asked } = rig({ spoken: '¿Pongo un temporizador de 10 minutos? Di sí o no.', lang: 'es' });
    const signal = new AbortController().signal;
    const w = await steps.model({ kind: 'proposal', frame: 'query', text: 'la pasta diez minutos' }, signal);
    expect(asked).toEqual(['query']);
    await steps.render(w, signal);
    expect(renders).toEqual([['¿Pongo un temporizador de 10 minutos? Di sí o no.', { lang: 'es' }]]);
  });

  it("in the device's first language, with its own voice (no language named)", async () => {
    const { steps, renders } = rig({ spoken: 'Set a timer for 10 minutes? Say yes or no.' });
    const signal = new AbortController().signal;
    await steps.render(await steps.model({ kind: 'proposal', frame: 'query', text: 'ten minutes' }, signal), signal);
    expect(renders).toEqual([['Set a timer for 10 minutes? Say yes or no.', undefined]]);
  });

  it('an answer is rendered in its language too', async () => {
    const { steps, renders } = rig({ spoken: null });
    const signal = new AbortController().signal;
    await steps.render(await steps.model({ kind: 'answer', text: 'La lista de compra: leche.', lang: 'es' }, signal), signal);
    expect(renders).toEqual([['La lista de compra: leche.', { lang: 'es' }]]);
  });
});
