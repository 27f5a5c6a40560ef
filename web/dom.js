// DOM and formatting helpers. Everything that shows data goes through el() and append(): text is
// set as text nodes, never parsed as HTML, because transcripts are untrusted input.

/**
 * el('span', { class: 'x', title: 't', data: { id: 3 } }, 'text', child, ...)
 * Children may be strings (become text nodes), nodes, or null/false (skipped).
 */
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === 'class') node.className = value;
    else if (key === 'data') for (const [k, v] of Object.entries(value)) node.dataset[k] = String(v);
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, String(value));
  }
  return append(node, ...children);
}

/**
 * The one way the page adds children: `cond && el(...)` leaves false, null or undefined, which the
 * DOM's own append would print as text ("falsenull" under a card), so those are skipped.
 * Arrays are flattened; strings and numbers become text nodes. Returns the node.
 */
export function append(node, ...children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child);
  }
  return node;
}

const pad = (n, w = 2) => String(n).padStart(w, '0');

/** ISO time, or '' for a date JavaScript cannot represent (a row stored with a bad timestamp). */
export function isoTime(ms) {
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? '' : d.toISOString();
}

export function clockTime(ms) {
  const d = new Date(ms);
  // A bad stored timestamp must cost one label, not the whole page.
  if (Number.isNaN(d.getTime())) return `(bad time ${String(ms)})`;
  const time = `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
  const today = new Date();
  if (d.toDateString() === today.toDateString()) return time;
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${time}`;
}

export function msText(ms) {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '–';
  return ms >= 100 ? `${Math.round(ms).toLocaleString('en-US')} ms` : `${Math.round(ms * 10) / 10} ms`;
}

export function dbfs(level) {
  if (!level || level <= 0) return '−∞ dBFS';
  return `${(20 * Math.log10(level)).toFixed(1).replace('-', '−')} dBFS`;
}

export function count(n) {
  return n === null || n === undefined ? '–' : Number(n).toLocaleString('en-US');
}

export function bytes(n) {
  if (n >= 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1)} MB`;
  if (n >= 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${n} B`;
}

/** Compact JSON for args and slots; never interpreted, only shown. */
export function jsonText(v) {
  if (v === null || v === undefined) return '';
  try {
    return typeof v === 'string' ? v : JSON.stringify(v);
  } catch {
    return String(v);
  }
}
