import { describe, expect, it } from 'vitest';
import { parseSimLine } from '../../src/command/simulate-input.js';

describe('simulate input lines', () => {
  it.each([
    ['computer', 0, { kind: 'event', atMs: 1000, text: 'computer' }],
    ['  set a timer  ', 5000, { kind: 'event', atMs: 6000, text: 'set a timer' }],
    ['', 0, { kind: 'blank' }],
    ['   ', 0, { kind: 'blank' }],
    ['{"text": "go", "atMs": 2500}', 1000, { kind: 'event', atMs: 2500, text: 'go' }],
    ['{"text": "go"}', 1000, { kind: 'event', atMs: 2000, text: 'go' }],
    ['{"atMs": 60000}', 1000, { kind: 'event', atMs: 60_000 }],
    ['{"text": "", "atMs": 10}', 0, { kind: 'event', atMs: 10, text: '' }],
    ['[tap]', 2000, { kind: 'event', atMs: 3000, button: 'tap' }],
    ['  [tap] ', 0, { kind: 'event', atMs: 1000, button: 'tap' }],
    ['{"button": "tap", "atMs": 4500}', 1000, { kind: 'event', atMs: 4500, button: 'tap' }],
    ['{"button": "tap"}', 1000, { kind: 'event', atMs: 2000, button: 'tap' }],
    // Upper-case brackets are what an engine wrote (Whisper's special tokens): text, not a gesture.
    ['[BLANK_AUDIO]', 0, { kind: 'event', atMs: 1000, text: '[BLANK_AUDIO]' }],
    // A pack code before the words names their language.
    ['[es] pausa el arroz', 0, { kind: 'event', atMs: 1000, text: 'pausa el arroz', language: 'es' }],
    ['[pt-br] pausa', 0, { kind: 'event', atMs: 1000, text: 'pausa', language: 'pt-br' }],
    ['{"text": "pausa", "language": "es", "atMs": 10}', 0, { kind: 'event', atMs: 10, text: 'pausa', language: 'es' }],
  ] as const)('%j after %i ms', (line, prev, expected) => {
    expect(parseSimLine(line, prev)).toEqual(expected);
  });

  it.each([
    [
      '{oops',
      /^not valid JSON \(.+\); expected plain text, \[tap\], \[es\] text, \{"text": "\.\.\.", "atMs": N, "language": "es"\}, \{"button": "tap", "atMs": N\} or \{"atMs": N\}$/,
    ],
    ['{"text": "pausa", "language": "ES"}', /^"language" must be a language pack's code \("es", "pt-br"\), got "ES"$/],
    ['{"language": "es"}', /^"language" names the language of a "text"; this line has none$/],
    ['{}', /^needs "text", "button" or "atMs"/],
    ['[hold]', /^unknown button gesture \[hold\] \(known: \[tap\]\)$/],
    ['{"button": "hold"}', /^"button" must be one of: tap; got "hold"$/],
    ['{"button": "tap", "text": "go"}', /^a line is an utterance \("text"\) or a button press \("button"\), not both$/],
    ['{"txt": "go"}', /^unknown field "txt"/],
    ['{"text": 5}', /^"text" must be a string, got 5$/],
    ['{"atMs": "soon"}', /^"atMs" must be a number of milliseconds \(0 or more\), got "soon"$/],
    ['{"atMs": -1}', /^"atMs" must be a number/],
    ['{"atMs": 10}', /^"atMs" 10 is before the previous line's 2000; time only moves forward$/],
  ])('%s is rejected with a reason', (line, message) => {
    const r = parseSimLine(line, 2000);
    expect(r.kind).toBe('error');
    expect(r.kind === 'error' && r.message).toMatch(message);
  });
});
