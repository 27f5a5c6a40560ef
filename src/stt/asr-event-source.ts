import type { Logger } from '../core/log.js';
import type { AsrEvent, AsrWord } from './types.js';

export type Normalized = { event: AsrEvent } | { skip: string };

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * AsrEventSource: one Deepgram live message in, one canonical event out (or a reason it
 * was skipped). Pure; the receive time is passed in.
 *
 *   Results is_final:false → partial      Results is_final:true → final
 *   UtteranceEnd → utterance-end           SpeechStarted → speech-started     Metadata → metadata
 */
export function normalizeDeepgram(msg: unknown, receivedAt: number): Normalized {
  if (typeof msg === 'string') return { skip: `not JSON: ${JSON.stringify(msg.slice(0, 80))}` };
  if (!isObj(msg)) return { skip: `not a JSON object: ${typeof msg}` };
  const type = msg.type;
  switch (type) {
    case 'Results':
      return results(msg, receivedAt);
    case 'UtteranceEnd':
      if (!num(msg.last_word_end)) return { skip: 'UtteranceEnd without a numeric last_word_end' };
      return { event: { kind: 'utterance-end', lastWordEnd: msg.last_word_end, receivedAt } };
    case 'SpeechStarted':
      if (!num(msg.timestamp)) return { skip: 'SpeechStarted without a numeric timestamp' };
      return { event: { kind: 'speech-started', timestamp: msg.timestamp, receivedAt } };
    case 'Metadata':
      return { event: { kind: 'metadata', requestId: typeof msg.request_id === 'string' ? msg.request_id : '', receivedAt } };
    default:
      return { skip: `unknown message type ${JSON.stringify(type ?? null)}` };
  }
}

function results(msg: Record<string, unknown>, receivedAt: number): Normalized {
  const channel = msg.channel;
  if (!isObj(channel) || !Array.isArray(channel.alternatives)) return { skip: 'Results without channel.alternatives' };
  const alt: unknown = channel.alternatives[0];
  // No alternative at all: Deepgram's way of saying "nothing here"; an empty transcript says the same.
  const best = alt === undefined ? { transcript: '', confidence: 0, words: [] } : alt;
  if (!isObj(best) || typeof best.transcript !== 'string') return { skip: 'Results whose first alternative has no transcript string' };
  if (!num(msg.start) || !num(msg.duration) || msg.start < 0 || msg.duration < 0) return { skip: 'Results without numeric start/duration' };
  const words: AsrWord[] = [];
  if (best.words !== undefined) {
    if (!Array.isArray(best.words)) return { skip: 'Results whose words is not a list' };
    for (const w of best.words) {
      if (!isObj(w) || typeof w.word !== 'string' || !num(w.start) || !num(w.end)) return { skip: 'Results with a malformed word' };
      const word: AsrWord = { word: w.word, start: w.start, end: w.end, confidence: num(w.confidence) ? w.confidence : 0 };
      if (typeof w.punctuated_word === 'string') word.punctuated = w.punctuated_word;
      words.push(word);
    }
  }
  // language=multi: the alternative's languages, most words' first; a word's own language when the
  // alternative names none (Deepgram leaves either out on audio that switches).
  const wordLanguages = Array.isArray(best.words) ? best.words.flatMap((w) => (isObj(w) && typeof w.language === 'string' ? [w.language] : [])) : [];
  const language = Array.isArray(best.languages) && typeof best.languages[0] === 'string' ? best.languages[0] : mostOf(wordLanguages);
  return {
    event: {
      ...(language ? { language: language.toLowerCase() } : {}),
      kind: msg.is_final === true ? 'final' : 'partial',
      text: best.transcript.trim(),
      words,
      confidence: num(best.confidence) ? best.confidence : 0,
      start: msg.start,
      duration: msg.duration,
      speechFinal: msg.speech_final === true,
      fromFinalize: msg.from_finalize === true,
      receivedAt,
    },
  };
}

function mostOf(xs: readonly string[]): string | undefined {
  const n = new Map<string, number>();
  for (const x of xs) n.set(x, (n.get(x) ?? 0) + 1);
  return [...n].sort((a, b) => b[1] - a[1])[0]?.[0];
}

/**
 * The stateful edge around normalizeDeepgram: stamps each message with its receive time, passes
 * events on, and logs what it skips (rate-limited: a server gone wrong must not flood the journal).
 * A bad message never throws: the daemon keeps running.
 */
export class AsrEventSource {
  skipped = 0;
  constructor(
    private readonly now: () => number,
    private readonly log: Logger,
    private readonly onEvent: (e: AsrEvent) => void,
  ) {}

  handle(msg: unknown): void {
    const n = normalizeDeepgram(msg, this.now());
    if ('skip' in n) {
      this.skipped++;
      if (this.skipped <= 10 || this.skipped % 100 === 0) this.log.warn('deepgram message skipped', { reason: n.skip, skipped: this.skipped });
      return;
    }
    this.onEvent(n.event);
  }
}
