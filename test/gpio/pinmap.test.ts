import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { findHeaderChip, mapPin, resolvePin } from '../../src/gpio/pinmap.js';
import { BOARDS, fakeSysfs } from './fake-sysfs.js';

describe('BCM pin to sysfs number, by the chip found by label', () => {
  it.each([
    ['Pi 3 (kernel < 6.6)', BOARDS.pi3Old, 'pinctrl-bcm2835', 17, 27],
    ['Pi 3 (kernel 6.6+)', BOARDS.pi3, 'pinctrl-bcm2835', 529, 539],
    ['Pi 4', BOARDS.pi4, 'pinctrl-bcm2711', 529, 539],
    ['Pi 5', BOARDS.pi5, 'pinctrl-rp1', 588, 598],
  ])('%s: button BCM 17 and LED BCM 27', (board, chips, label, button, led) => {
    const root = fakeSysfs(board.replace(/\W+/g, '-'), chips);
    expect(findHeaderChip(root).label).toBe(label);
    expect(resolvePin(17, root).sysfs).toBe(button);
    expect(resolvePin(27, root).sysfs).toBe(led);
  });

  it('reads the base from the chip, whatever it is', () => {
    const root = fakeSysfs('odd-base', [{ name: 'gpiochip600', label: 'pinctrl-bcm2711', base: 600, ngpio: 58 }]);
    expect(resolvePin(4, root).sysfs).toBe(604);
  });

  it('a tree without a Raspberry Pi chip says what it found', () => {
    const root = fakeSysfs('no-pi-chip', [{ name: 'gpiochip0', label: 'gpio-mockup-A', base: 0, ngpio: 8 }]);
    expect(() => findHeaderChip(root)).toThrow(
      `no Raspberry Pi GPIO chip under ${root} (looked for labels pinctrl-rp1, pinctrl-bcm2711, pinctrl-bcm2835; found: gpiochip0 "gpio-mockup-A")`,
    );
    const empty = fakeSysfs('no-chips', []);
    expect(() => findHeaderChip(empty)).toThrow(/no gpiochip entries found/);
  });

  it('a machine without sysfs GPIO says so', () => {
    const missing = join(fakeSysfs('parent', []), 'nope');
    expect(() => findHeaderChip(missing)).toThrow(
      `${missing} does not exist: this machine has no sysfs GPIO (not a Raspberry Pi, or a kernel built without CONFIG_GPIO_SYSFS)`,
    );
  });

  it("a pin the chip does not have is refused with the chip's range", () => {
    const root = fakeSysfs('pi4-range', BOARDS.pi4);
    const chip = findHeaderChip(root);
    expect(() => mapPin(58, chip)).toThrow('BCM 58 is out of range for pinctrl-bcm2711 (gpiochip512 has lines 0 to 57)');
    expect(() => mapPin(-1, chip)).toThrow(/BCM -1 is out of range/);
    expect(mapPin(57, chip).sysfs).toBe(569);
  });

  it('skips a chip whose files cannot be read', () => {
    const root = fakeSysfs('broken-chip', [{ name: 'gpiochip0', label: 'pinctrl-bcm2711', base: Number.NaN, ngpio: 58 }, ...BOARDS.pi5]);
    expect(findHeaderChip(root).label).toBe('pinctrl-rp1');
  });
});
