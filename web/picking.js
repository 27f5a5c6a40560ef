// The operator's day (voice picking), for a supervisor: the counts, and each recent pick beside the
// segment that confirmed it (its card below has the waveform, the pre-roll splice and the raw
// tokens), so a failed check digit can be heard. Text only: nothing from the API is markup.
import { el } from './dom.js';

const n = (v, unit) => (v === null || v === undefined ? '–' : `${v}${unit}`);

export function showPicking(box, p) {
  box.replaceChildren();
  if (!p) return (box.hidden = true);
  box.hidden = false;
  const t = p.today ?? {};
  const o = p.outbox ?? {};
  box.append(
    el(
      'div',
      { class: 'row small', id: 'picking-day' },
      el('span', { class: 'k' }, 'picking'),
      ' ',
      `operator ${p.operator ?? 'none'} · ${t.picks ?? 0} picks · ${n(t.picksPerHour, ' an hour')} · ${n(t.secondsPerPick, ' s a pick')} · `,
      `${t.shorts ?? 0} short · ${t.skips ?? 0} skipped · ${t.wrongCheckDigits ?? 0} wrong check digits · `,
      el('span', { class: o.pending > (o.queueMax ?? Infinity) ? 'bad' : '' }, `outbox ${o.pending ?? 0} waiting`),
    ),
  );
  const rows = (t.recent ?? [])
    .slice()
    .reverse()
    .map((r) =>
      el(
        'li',
        { data: { pick: r.id } },
        `${r.id}: ${r.picked} of ${r.quantity}${r.short ? ' (short)' : ''}${r.sent ? '' : ' · not sent'} · `,
        r.segmentId !== null && r.segmentId !== undefined
          ? el('a', { href: `#seg-${r.segmentId}`, class: 'seg-link' }, `segment ${r.segmentId}`)
          : el('span', { class: 'muted' }, 'no segment'),
        (r.wrongCheckSegments ?? []).length ? ' · wrong check digits: ' : null,
        (r.wrongCheckSegments ?? []).map((id, i) => [i ? ', ' : null, el('a', { href: `#seg-${id}`, class: 'seg-link wrong' }, `segment ${id}`)]),
      ),
    );
  if (rows.length) box.append(el('ol', { class: 'picks small', id: 'picking-recent' }, rows));
}
