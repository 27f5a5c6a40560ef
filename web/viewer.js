// The page: segments newest first, paged backwards as you scroll, new ones added live from the
// event stream, filters kept in the address bar so a view can be bookmarked or shared.

import { renderCard, updateCard, loadWave } from './card.js';
import { append, bytes, clockTime } from './dom.js';
import { showPicking } from './picking.js';

const PAGE = 30;
const list = document.getElementById('list');
const older = document.getElementById('older');
const status = document.getElementById('status');
const form = document.getElementById('filters');
const fresh = document.getElementById('fresh');
const segments = new Map(); // id -> segment data shown
let nextBefore = null;
let loading = false;
let unseen = 0;

const nearScreen = new IntersectionObserver(
  (entries) => {
    for (const e of entries) {
      if (!e.isIntersecting) continue;
      nearScreen.unobserve(e.target);
      loadWave(e.target, segments.get(Number(e.target.dataset.id)));
    }
  },
  { rootMargin: '400px 0px' },
);

function filters() {
  const f = new FormData(form);
  const p = new URLSearchParams();
  for (const k of ['q', 'engine', 'dropped']) if (f.get(k)) p.set(k, String(f.get(k)));
  return p;
}

function filtered() {
  return [...filters().keys()].length > 0;
}

async function api(path) {
  const r = await fetch(path, { headers: { Accept: 'application/json' } });
  const body = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error(body.error ?? `HTTP ${r.status}`);
  return body;
}

function show(seg, where) {
  const existing = document.getElementById(`seg-${seg.id}`);
  segments.set(seg.id, seg);
  if (existing) {
    updateCard(existing, seg);
    return;
  }
  const card = renderCard(seg);
  if (where === 'top') {
    // keep newest first even when a reconnect delivers several at once
    const after = [...list.children].find((c) => Number(c.dataset.id) < seg.id);
    list.insertBefore(card, after ?? null);
  } else {
    append(list, card);
  }
  nearScreen.observe(card);
}

async function loadPage(reset) {
  if (loading) return;
  loading = true;
  try {
    if (reset) {
      list.replaceChildren();
      segments.clear();
      nextBefore = null;
      unseen = 0;
      fresh.hidden = true;
    }
    const p = filters();
    p.set('limit', String(PAGE));
    if (!reset && nextBefore) p.set('before', String(nextBefore));
    const page = await api(`/api/segments?${p}`);
    for (const seg of page.segments) show(seg, 'bottom');
    nextBefore = page.nextBefore;
    older.hidden = nextBefore === null;
    status.textContent =
      segments.size === 0
        ? filtered()
          ? 'no segments match these filters'
          : 'no segments logged yet'
        : `${segments.size} shown${nextBefore === null ? ' · that is all' : ''}`;
  } catch (err) {
    status.textContent = `could not load segments: ${err.message}`;
  } finally {
    loading = false;
  }
}

/** After a dropped event stream: pick up whatever was logged meanwhile. */
async function catchUp() {
  if (filtered()) return;
  try {
    const page = await api(`/api/segments?limit=${PAGE}`);
    for (const seg of page.segments.reverse()) if (!segments.has(seg.id)) show(seg, 'top');
  } catch {}
}

function pill(id, text, cls) {
  const p = document.getElementById(id);
  p.textContent = text;
  p.className = `pill ${cls ?? ''}`;
}

function showStore(store) {
  const banner = document.getElementById('banner');
  if (store.audioStorage === 'paused-disk-full') {
    pill('pill-store', 'DISK FULL', 'bad');
    banner.hidden = false;
    banner.textContent =
      `Disk full since ${clockTime(store.pausedAt)}: audio is not being stored; segments are logged without it until space is freed. (${store.pausedReason})` +
      (store.reclaimedSegments ? ` The audio of the ${store.reclaimedSegments} oldest segments was deleted to keep the text.` : '') +
      (store.pendingRows ? ` ${store.pendingRows} rows wait in memory for room.` : '') +
      (store.rowsLost ? ` ${store.rowsLost} rows were lost (the waiting queue was full).` : '');
  } else {
    pill('pill-store', `store ${bytes(store.fileBytes)} · ${store.segments} segments`, store.recovered ? 'warn' : 'good');
    banner.hidden = !store.recovered;
    if (store.recovered) banner.textContent = `The database was corrupt at start; it was kept as ${store.recovered.movedTo} and a fresh one started.`;
  }
}

// The open segment as the cloud hears it: the stable text, then the rest of the hypothesis.
// textContent only: what was heard is never markup.
function showHearing(h) {
  const box = document.getElementById('hearing');
  if (h.done) {
    box.hidden = true;
    return;
  }
  const stable = h.stableText || '';
  const raw = h.rawText || '';
  const rest = raw.toLowerCase().startsWith(stable.toLowerCase()) ? raw.slice(stable.length) : raw ? ` (${raw})` : '';
  document.getElementById('hearing-stable').textContent = stable;
  document.getElementById('hearing-rest').textContent = rest;
  document.getElementById('hearing-intent').textContent = h.candidate ? `maybe: ${h.candidate}` : '';
  box.hidden = false;
}

function showCapture(c, mode) {
  if (mode === 'viewer') return pill('pill-capture', 'no microphone (viewer)', 'muted');
  if (c.state === 'up') pill('pill-capture', `mic up · ${c.device ?? ''}`, 'good');
  else if (c.state === 'down') pill('pill-capture', `mic DOWN · ${c.reason ?? ''}`, 'bad');
  else if (c.state === 'starting') pill('pill-capture', 'mic starting: no audio yet', 'warn');
  else pill('pill-capture', 'mic ?', 'muted');
}

// Running timers (with time left) and the lists: text only, what was said is never markup.
const mmss = (s) => `${Math.floor(s / 60)}:${String(Math.round(s % 60)).padStart(2, '0')}`;
function showKitchen(k) {
  const box = document.getElementById('kitchen');
  box.replaceChildren();
  if (!k) return (box.hidden = true);
  for (const t of k.timers ?? []) {
    const line = document.createElement('div');
    line.className = 'row small';
    // Where it rings: for another device ("from back"), or on this device's area or the whole site.
    const where = t.from ? ` from ${t.from}` : t.ringsOn === 'area' ? ' in its area' : t.ringsOn === 'site' ? ' on the whole site' : '';
    const rang = t.state === 'ringing' && typeof t.ringingSeconds === 'number' ? ` ${mmss(t.ringingSeconds)}` : '';
    line.textContent = `timer ${t.label ?? `${mmss(t.seconds)}`} · ${t.state === 'ringing' ? `RINGING${where}${rang}` : `${mmss(t.leftSeconds)} left`}${t.state === 'paused' ? ' (paused)' : ''}`;
    if (t.state === 'ringing') line.classList.add('ringing');
    append(box, line);
  }
  for (const l of k.lists ?? []) {
    if (!l.items.length) continue;
    const line = document.createElement('div');
    line.className = 'row small';
    line.textContent = `${l.name} list · ${l.items.map((i) => (i.quantity ? `${i.quantity}${i.unit ? ` ${i.unit}` : ''} ${i.item}` : i.item)).join(', ')}`;
    append(box, line);
  }
  box.hidden = box.childElementCount === 0;
}

// The fleet's broker connection: hidden when MQTT is off.
function showMqtt(m) {
  const el = document.getElementById('pill-mqtt');
  el.hidden = !m;
  if (!m) return;
  const where = m.room ? ` · room ${m.room}` : '';
  if (m.state === 'connected') pill('pill-mqtt', `mqtt ${m.device}${where}`, 'good');
  else pill('pill-mqtt', `mqtt ${m.state}${m.lastError ? ` · ${m.lastError}` : ''}`, 'warn');
}

/** Speech-to-text load: "behind" when segments wait past stt.queue.maxWaitMs. */
function showStt(l) {
  const el = document.getElementById('pill-stt');
  el.hidden = !l;
  if (!l) return;
  const rtf = l.realTimeFactor === null ? '' : ` · rtf ${l.realTimeFactor}`;
  if (l.behind) pill('pill-stt', `behind · ${l.depth} waiting, ${l.audioSec} s of audio${rtf}`, 'bad');
  else pill('pill-stt', `stt ${l.depth} waiting${rtf}`, l.depth > 0 ? 'warn' : 'good');
}

// The speech services in use: each engine in order, a Wyoming server with the models its
// info listed at start, and a Wyoming voice with its voices. Text only: a server's names are never markup.
function wyomingText(w, names) {
  // Why it did not answer is in the pill's title (it can be long).
  if (!w.answered) return `${w.server} not answering`;
  return `${w.server} ${names.slice(0, 4).join(', ') || 'none listed'}${names.length > 4 ? ` +${names.length - 4}` : ''}`;
}
function showSpeech(s) {
  const el = document.getElementById('pill-speech');
  el.hidden = !s;
  if (!s) return;
  const parts = s.engines.map((e) => (e.missing ? `${e.id} (missing)` : e.wyoming ? `${e.id} ${wyomingText(e.wyoming, e.wyoming.models)}` : e.id));
  // The echo canceller's two clocks: the speaker's skew against the microphone's, as followed.
  const e = s.echo;
  const clocks = e && e.skewPpm !== null ? ` · clocks ${e.skewPpm > 0 ? '+' : ''}${e.skewPpm} ppm${e.followedPpm ? ' followed' : ''}` : '';
  const text = `stt ${parts.join(' → ') || 'none'}${s.voice ? ` · voice ${wyomingText(s.voice, s.voice.voices)}` : ''}${e ? ` · echo ${e.state}${clocks}` : ''}`;
  const away = s.engines.some((e) => e.wyoming && !e.wyoming.answered) || (s.voice && !s.voice.answered) || !!e?.problem;
  pill('pill-speech', text, away ? 'warn' : 'muted');
  // The full lists on hover: the pill shows the first few.
  const detail = (w, names) => `${w.server}: ${w.answered ? names.join(', ') || 'none listed' : `not answering${w.error ? ` (${w.error})` : ''}`}`;
  el.title = [
    ...s.engines.filter((e) => e.wyoming).map((e) => `${e.id} ${detail(e.wyoming, e.wyoming.models)}`),
    ...(s.voice ? [`voice ${detail(s.voice, s.voice.voices)}`] : []),
    ...(e?.problem ? [e.problem] : []),
  ].join('\n');
}

let mode = 'daemon';
async function health() {
  try {
    const r = await fetch('/healthz');
    const h = await r.json();
    mode = h.mode;
    pill('pill-mode', h.mode === 'viewer' ? 'viewer (file)' : 'live daemon', 'muted');
    showStore(h.store);
    showCapture(h.capture, h.mode);
    showMqtt(h.mqtt);
    showStt(h.stt);
    showSpeech(h.speech);
    if (h.mode !== 'viewer') showKitchen(await (await fetch('/api/kitchen')).json());
    // Only where picking is on: the API answers 404 otherwise.
    if (h.picking) showPicking(document.getElementById('picking'), await (await fetch('/api/picking')).json());
  } catch {
    pill('pill-store', 'store ?', 'bad');
  }
}

function connect() {
  const es = new EventSource('/api/events');
  let dropped = false;
  es.onopen = () => {
    pill('pill-live', 'live', 'good');
    if (dropped) void catchUp();
    dropped = false;
  };
  es.onerror = () => {
    dropped = true;
    pill('pill-live', 'reconnecting…', 'warn');
  };
  es.addEventListener('segment', (e) => {
    const seg = JSON.parse(e.data);
    if (!seg) return;
    if (filtered()) {
      unseen++;
      fresh.hidden = false;
      fresh.textContent = `${unseen} new segment${unseen > 1 ? 's' : ''} not shown (filters on) — clear filters to see them`;
      return;
    }
    show(seg, 'top');
  });
  for (const kind of ['transcript', 'utterance', 'intent', 'action', 'list-item']) {
    es.addEventListener(kind, (e) => {
      const d = JSON.parse(e.data);
      if (d.segment && segments.has(d.segment.id)) show(d.segment, 'top');
    });
  }
  es.addEventListener('capture', (e) => showCapture(JSON.parse(e.data), mode));
  es.addEventListener('mqtt', (e) => showMqtt(JSON.parse(e.data)));
  es.addEventListener('stt', (e) => showStt(JSON.parse(e.data)));
  es.addEventListener('kitchen', (e) => showKitchen(JSON.parse(e.data)));
  es.addEventListener('hearing', (e) => showHearing(JSON.parse(e.data)));
  es.addEventListener('store', (e) => showStore(JSON.parse(e.data)));
}

function syncUrl() {
  const p = filters();
  history.replaceState(null, '', `${location.pathname}${[...p.keys()].length ? '?' + p : ''}${location.hash}`);
}

form.addEventListener('submit', (e) => {
  e.preventDefault();
  syncUrl();
  void loadPage(true);
});
form.addEventListener('reset', () => {
  setTimeout(() => {
    syncUrl();
    void loadPage(true);
  });
});
for (const sel of form.querySelectorAll('select')) sel.addEventListener('change', () => form.requestSubmit());
older.addEventListener('click', () => void loadPage(false));
new IntersectionObserver((entries) => {
  if (entries.some((e) => e.isIntersecting) && nextBefore !== null) void loadPage(false);
}).observe(older);
window.addEventListener('resize', () => {
  for (const box of document.querySelectorAll('.wave.ready')) box.wave.draw();
});

// filters from the address bar
const initial = new URLSearchParams(location.search);
for (const k of ['q', 'engine', 'dropped']) if (initial.get(k)) form.elements[k].value = initial.get(k);

await health();
// Time left on running timers moves on its own: refresh the kitchen line now and then.
setInterval(() => {
  if (mode !== 'viewer' && !document.hidden)
    fetch('/api/kitchen')
      .then((r) => r.json())
      .then(showKitchen, () => {});
}, 5000);
await loadPage(true);
connect();
setInterval(health, 30_000);
document.body.dataset.ready = '1';
