import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfigText } from '../../src/config/load.js';

/** The headset example in docs/picking.md is config/picking-headset.yaml, and it loads as it stands. */
const ROOT = join(import.meta.dirname, '..', '..');
const file = readFileSync(join(ROOT, 'config', 'picking-headset.yaml'), 'utf8');

describe('the headset example', () => {
  it('loads, with the settings the docs say it sets', () => {
    const c = parseConfigText(file, 'config/picking-headset.yaml');
    expect(c.echo.mode).toBe('off');
    expect(c.speech.alarmMaxDb).toBe(4);
    expect(c.echo.denoise).toBe(true);
    expect(c.vad.threshold).toBe(0.6);
    expect(c.picking.enabled).toBe(true);
  });

  it('is the one docs/picking.md shows, word for word', () => {
    const doc = readFileSync(join(ROOT, 'docs', 'picking.md'), 'utf8');
    const block = /```yaml\n(# A picker's device with a USB headset[\s\S]*?)```/.exec(doc);
    expect(block?.[1]).toBe(file);
  });
});
