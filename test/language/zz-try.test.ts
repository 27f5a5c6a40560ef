import { it } from 'vitest';
import { KitchenLanguage } from '../../src/language/kitchen.js';
import { readRequest, readImperatives } from '../../src/language/understand.js';
import { said } from '../../src/language/text.js';
const lang = new KitchenLanguage();
const sit = { timers: [{ label: 'rice', seconds: 600, state: 'running' as const }, { label: 'brisket', seconds: 1200, state: 'running' as const }], lists: [{ name: 'shopping', items: ['eggs', 'lemons'] }], ringing: false, area: 'kitchen' };
it('try', () => {
  const lines = (process.env.TRY ?? '').split('|');
  const t0 = performance.now();
  for (const l of lines) {
    const s = said(l);
    const r = readRequest(lang, s, sit);
    const i = readImperatives(lang, s, sit);
    console.log(JSON.stringify(l), '→', JSON.stringify(r), i ? JSON.stringify(i) : '');
  }
  console.log('ms per line', (performance.now() - t0) / lines.length);
});
