// One segment as a card: header with badges, waveform with its tools, transcripts, what hark did
// about it, and the metadata. Built with el() and append() only: no data ever passes through innerHTML.

import { append, bytes, clockTime, count, isoTime, dbfs, el, jsonText, msText } from './dom.js';
import { parseWav } from './wav.js';
import { Waveform } from './waveform.js';

export function renderCard(seg) {
  const card = el('article', { class: 'seg', id: `seg-${seg.id}`, data: { id: seg.id } });
  append(card, head(seg), wavePanel(seg), body(seg));
  return card;
}

/** New rows arrived for a segment: redraw its text, keep its waveform (and zoom) as it is. */
export function updateCard(card, seg) {
  card.querySelector('.seg-head').replaceWith(head(seg));
  card.querySelector('.seg-body').replaceWith(body(seg));
}

/** The waveform is fetched only when its card scrolls near the screen (or a wave button is used). */
export function loadWave(card, seg) {
  const box = card.querySelector('.wave');
  if (box) void ensureWave(box, seg);
}

/** Resolves with the box's Waveform, or null when there is no audio to draw. Loads once. */
function ensureWave(box, seg) {
  box.loading ??= fetchWave(box, seg);
  return box.loading;
}

async function fetchWave(box, seg) {
  const canvas = box.querySelector('canvas[data-track="cleaned"]');
  const note = box.querySelector('.wave-note');
  if (!seg.audioUrl) {
    note.textContent =
      seg.audio === 'disk-full'
        ? 'no audio stored: the disk was full when this was logged'
        : seg.audio === 'reclaimed'
          ? 'audio deleted to make room for text when the disk was full (oldest first)'
          : 'no audio stored (store.audio is off)';
    box.classList.add('no-audio');
    return null;
  }
  try {
    const r = await fetch(seg.audioUrl);
    if (!r.ok) throw new Error(`HTTP ${r.status}`);
    const { pcm, sampleRate } = parseWav(await r.arrayBuffer());
    const zoomLabel = box.querySelector('.zoom-label');
    const playback = seg.echo?.playback ?? [];
    const raw = await fetchRaw(box, seg, pcm.length);
    const wave = new Waveform(canvas, {
      pcm,
      sampleRate,
      prerollSamples: seg.prerollSamples,
      spliceWarning: seg.splice?.warning,
      playback,
      scalePeak: raw?.peak,
      onChange: (text) => (zoomLabel.textContent = text),
    });
    zoomLabel.textContent = wave.describe();
    box.wave = wave;
    if (raw) {
      const rawCanvas = box.querySelector('canvas[data-track="raw"]');
      box.rawWave = new Waveform(rawCanvas, {
        pcm: raw.pcm,
        sampleRate,
        prerollSamples: seg.prerollSamples,
        spliceWarning: seg.splice?.warning,
        playback,
        scalePeak: raw.peak,
        liveColor: '--wave-raw',
      });
      wave.link(box.rawWave);
      rawCanvas.dataset.drawn = '1';
    }
    box.classList.add('ready');
    canvas.dataset.drawn = '1';
    return wave;
  } catch (err) {
    note.textContent = `could not load audio: ${err.message}`;
    return null;
  }
}

/**
 * The raw microphone of a segment heard over hark's playback, or null. A missing, damaged
 * or mismatched track says why under the waveform; the cleaned one is drawn all the same.
 */
async function fetchRaw(box, seg, samples) {
  const note = box.querySelector('.wave-note');
  const rawBox = box.querySelector('.raw-track');
  if (seg.echo?.problem) note.textContent = `hark's playback marks: ${seg.echo.problem}`;
  if (!seg.rawAudioUrl || !rawBox) return null;
  try {
    const r = await fetch(seg.rawAudioUrl);
    if (!r.ok) throw new Error(await errorOf(r));
    const { pcm } = parseWav(await r.arrayBuffer());
    if (pcm.length !== samples) throw new Error(`it has ${pcm.length} samples, the segment ${samples}`);
    let peak = 0;
    for (let i = 0; i < pcm.length; i++) peak = Math.max(peak, Math.abs(pcm[i]));
    return { pcm, peak };
  } catch (err) {
    rawBox.remove();
    note.textContent = `could not load the raw microphone track: ${err.message}`;
    return null;
  }
}

async function errorOf(r) {
  try {
    const body = await r.json();
    if (typeof body?.error === 'string') return body.error;
  } catch {}
  return `HTTP ${r.status}`;
}

/** Headline badge colour per fate: acted on, heard but let be, or nothing usable heard. */
const FATE_TONE = { dispatched: 'good', filtered: 'warn', yielded: 'warn', dropped: 'bad' };

function head(seg) {
  // The engine whose words stood: an `engine: none` row is hark's own note of the fate, not an engine.
  const t = seg.transcripts.findLast((x) => x.engine !== 'none');
  // One headline for what became of the segment (server-side, src/debug/segment-fate.ts); each
  // engine's attempt, a drop the next engine made good included, is listed below.
  const fate = seg.fate;
  // Which of the device's languages it was heard in: the stored utterances' (none named: no badge).
  const languages = [...new Set(seg.utterances.map((u) => u.language).filter(Boolean))];
  return el(
    'header',
    { class: 'seg-head' },
    el('a', { class: 'seg-id', href: `#seg-${seg.id}`, title: 'link to this segment' }, `#${seg.id}`),
    el('time', { datetime: isoTime(seg.startedAt), title: 'first sample (pre-roll included)' }, clockTime(seg.startedAt)),
    el('span', { class: 'dur' }, msText(seg.durationMs)),
    seg.closeReason && el('span', { class: 'muted' }, seg.closeReason),
    seg.source !== 'mic' && el('span', { class: 'badge' }, seg.source),
    fate && el('span', { class: `badge ${FATE_TONE[fate.kind] ?? ''}`, title: "what became of this segment; each engine's attempt is below" }, fate.text),
    seg.splice?.warning && el('span', { class: 'badge bad', title: 'the level jumps across the pre-roll / live splice' }, `splice jump (${seg.splice.reason})`),
    seg.audio === 'disk-full' && el('span', { class: 'badge warn' }, 'no audio: disk full'),
    seg.audio === 'reclaimed' && el('span', { class: 'badge warn' }, 'audio reclaimed: disk full'),
    seg.echo && el('span', { class: 'badge', title: "heard while hark was playing: the echo canceller took hark's sound out" }, 'over playback'),
    el('span', { class: 'spacer' }),
    languages.length > 0 &&
      el('span', { class: 'badge lang', title: 'the language it was heard in (speech-to-text named it, or the text line did)' }, languages.join(' ')),
    t && el('span', { class: 'engine' }, `${t.engine} · ${msText(t.sttMs)}`),
  );
}

function wavePanel(seg) {
  const data = { prerollSamples: seg.prerollSamples, sampleCount: seg.sampleCount };
  const canvas = el('canvas', { class: 'wave-canvas', role: 'img', 'aria-label': `waveform of segment ${seg.id}`, data: { ...data, track: 'cleaned' } });
  // Heard over hark's playback, the raw microphone goes above, on the same timeline.
  const two = Boolean(seg.rawAudioUrl);
  const rawTrack =
    two &&
    el(
      'div',
      { class: 'raw-track' },
      el('div', { class: 'track-label muted' }, el('span', { class: 'swatch' }), "raw microphone — hark's playback shaded"),
      el('canvas', { class: 'wave-canvas', role: 'img', 'aria-label': `raw microphone of segment ${seg.id}`, data: { ...data, track: 'raw' } }),
    );
  const cleanedLabel = seg.echo && el('div', { class: 'track-label muted' }, 'cleaned — what the VAD and speech-to-text got');
  const box = el('div', { class: 'wave' });
  const withWave = (fn) => () => void ensureWave(box, seg).then((w) => w && fn(w));
  const play = el('button', { type: 'button', class: 'play', title: 'play what is in view' }, '▶ play');
  play.addEventListener(
    'click',
    withWave((w) => {
      const on = w.toggle(() => (play.textContent = '▶ play'));
      play.textContent = on ? '■ stop' : '▶ play';
    }),
  );
  const playRaw = two ? el('button', { type: 'button', class: 'play', title: 'play the raw microphone (before the echo canceller) in view' }, '▶ raw') : null;
  playRaw?.addEventListener(
    'click',
    withWave(() => {
      if (!box.rawWave) return;
      const on = box.rawWave.toggle(() => (playRaw.textContent = '▶ raw'));
      playRaw.textContent = on ? '■ stop' : '▶ raw';
    }),
  );
  append(
    box,
    el(
      'div',
      { class: 'wave-tools' },
      play,
      playRaw,
      el('button', { type: 'button', title: 'zoom out', onclick: withWave((w) => w.zoomBy(1 / 2)) }, '−'),
      el('button', { type: 'button', title: 'zoom in', onclick: withWave((w) => w.zoomBy(2)) }, '+'),
      el('button', { type: 'button', title: 'show everything (or double-click the waveform)', onclick: withWave((w) => w.fit()) }, 'fit'),
      seg.prerollSamples > 0 &&
        el('button', { type: 'button', title: '150 ms either side of the pre-roll / live splice', onclick: withWave((w) => w.focusSplice()) }, 'splice'),
      el('span', { class: 'zoom-label muted' }),
      el('span', { class: 'spacer' }),
      el('span', { class: 'hint muted' }, 'drag to zoom · ctrl+wheel · dbl-click fits'),
      seg.audioUrl && el('a', { href: seg.audioUrl, download: `hark-segment-${seg.id}.wav` }, 'wav'),
      two && el('a', { href: seg.rawAudioUrl, download: `hark-segment-${seg.id}-raw.wav`, title: 'the raw microphone, before the echo canceller' }, 'raw wav'),
    ),
    rawTrack,
    cleanedLabel,
    canvas,
    el('div', { class: 'wave-note muted' }),
  );
  return box;
}

function body(seg) {
  return el('div', { class: 'seg-body' }, transcripts(seg), outcome(seg), meta(seg));
}

function transcripts(seg) {
  const box = el('section', { class: 'tx' });
  if (seg.transcripts.length === 0) append(box, el('p', { class: 'muted' }, 'no transcript (yet)'));
  for (const t of seg.transcripts) {
    append(
      box,
      el(
        'div',
        { class: 'tx-one' },
        el('div', { class: 'row' }, el('span', { class: 'k' }, 'raw'), el('span', { class: 'raw' }, spans(t.rawSpans))),
        el(
          'div',
          { class: 'row' },
          el('span', { class: 'k' }, 'clean'),
          t.text ? el('span', { class: 'clean' }, t.text) : el('span', { class: 'empty' }, '(empty)'),
        ),
        t.droppedReason && el('div', { class: 'row' }, el('span', { class: 'k' }, 'dropped'), el('span', { class: 'bad-text' }, t.droppedReason)),
        t.fallbackReason && el('div', { class: 'row' }, el('span', { class: 'k' }, 'fallback'), el('span', {}, t.fallbackReason)),
        el('div', { class: 'row small' }, el('span', { class: 'k' }, 'engine'), el('span', {}, `${t.engine} · STT ${msText(t.sttMs)}`), tokenCount(t.tokens)),
      ),
    );
  }
  for (const u of seg.utterances) {
    append(
      box,
      el(
        'div',
        { class: 'row small' },
        el('span', { class: 'k' }, 'utterance'),
        el('span', { class: 'clean' }, u.text || '(empty)'),
        u.language && el('span', { class: 'muted' }, ` [${u.language}]`),
        el('span', { class: 'muted' }, ` ${u.id}`),
      ),
    );
  }
  return box;
}

function spans(list) {
  if (!list || list.length === 0) return [el('span', { class: 'empty' }, '(nothing)')];
  return list.map((s) => (s.special ? el('mark', { class: s.special === 'blank' ? 'tok blank' : 'tok' }, s.text) : el('span', {}, s.text)));
}

function tokenCount(tokens) {
  if (!Array.isArray(tokens) || tokens.length === 0) return null;
  return el('details', { class: 'tokens' }, el('summary', {}, `${tokens.length} token${tokens.length === 1 ? '' : 's'}`), el('pre', {}, jsonText(tokens)));
}

function outcome(seg) {
  const box = el('section', { class: 'flow' });
  if (seg.intents.length) {
    append(
      box,
      table(
        ['intent', 'kind', 'target', 'slots', 'conf', 'model', 'time', 'reason'],
        seg.intents.map((i) => [
          i.intent ?? '–',
          el('span', { class: `kind ${i.kind}` }, i.kind),
          i.target ?? '',
          jsonText(i.slots),
          i.confidence === null ? '' : i.confidence.toFixed(2),
          i.model ?? '',
          msText(i.latencyMs),
          i.reason ?? '',
        ]),
        ['intent', 'target', 'slots', 'reason'],
      ),
    );
  }
  if (seg.actions.length) {
    append(
      box,
      table(
        ['action', 'args', 'outcome', 'time'],
        seg.actions.map((a) => [
          a.name,
          jsonText(a.args),
          el('span', { class: a.outcome === 'ok' ? 'good-text' : 'bad-text', title: a.error ?? '' }, a.error ? `${a.outcome}: ${a.error}` : a.outcome),
          msText(a.latencyMs),
        ]),
        ['args', 'outcome'],
      ),
    );
  }
  if (seg.listItems.length) {
    append(
      box,
      table(
        ['list', 'op', 'item', 'qty'],
        seg.listItems.map((l) => [l.list, l.op, l.item, l.quantity === null ? '' : `${l.quantity}${l.unit ? ' ' + l.unit : ''}`]),
        ['item'],
      ),
    );
  }
  if (!box.childElementCount) append(box, el('p', { class: 'muted' }, 'no intent or action'));
  return box;
}

/** Columns named in `wide` (free text, JSON) wrap; the short ones stay on one line. */
function table(headers, rows, wide = []) {
  const cls = (i) => (wide.includes(headers[i]) ? 'wrap' : null);
  return el(
    'table',
    {},
    el(
      'thead',
      {},
      el(
        'tr',
        {},
        headers.map((h, i) => el('th', { class: cls(i) }, h)),
      ),
    ),
    el(
      'tbody',
      {},
      rows.map((r) =>
        el(
          'tr',
          {},
          r.map((c, i) => el('td', { class: cls(i) }, c)),
        ),
      ),
    ),
  );
}

function meta(seg) {
  const items = [
    ['samples', count(seg.sampleCount)],
    ['duration', msText(seg.durationMs)],
    ['rate', `${seg.sampleRate} Hz`],
    ['pre-roll', `${count(seg.prerollSamples)} (${msText(seg.prerollMs)})`],
    ['VAD trigger', `${clockTime(seg.vadAt)} (+${msText(seg.prerollMs)})`],
    ['opened by', seg.openedBy ?? '–'],
    ['closed by', seg.closeReason ?? '–'],
    ['max prob', seg.maxProb === null ? '–' : seg.maxProb.toFixed(2)],
    ['RMS', dbfs(seg.rms)],
    ['peak', dbfs(seg.peak)],
    seg.splice && ['splice step', `${seg.splice.step} (typ. ${Math.round(seg.splice.typicalStep)})`],
    seg.splice && ['splice level', `${dbfs(seg.splice.levelBefore)} → ${dbfs(seg.splice.levelAfter)}`],
    seg.startSample !== null && ['stream samples', `${count(seg.startSample)}–${count(seg.endSample)}`],
    ['audio', seg.audio === 'stored' ? bytes(seg.audioBytes) : seg.audio],
    seg.echo && ['hark playing', playbackText(seg)],
  ].filter(Boolean);
  return el(
    'dl',
    { class: 'meta' },
    items.map(([k, v]) => [el('dt', {}, k), el('dd', {}, v)]),
  );
}

/** How much of the segment hark's playback covered, and whether the raw track is kept. */
function playbackText(seg) {
  const e = seg.echo;
  if (e.problem) return e.problem;
  const ms = e.playback.reduce((n, p) => n + (p.endMs - p.startMs), 0);
  return `${msText(ms)} in ${count(e.playback.length)} span${e.playback.length === 1 ? '' : 's'} · raw track ${e.raw ? bytes(e.rawBytes) : 'not stored'}`;
}
