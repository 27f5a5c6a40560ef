import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { outputDir } from '../support/paths.js';

export interface FakeChip {
  name: string;
  label: string;
  base: number;
  ngpio: number;
}

/** A sysfs GPIO tree as the kernel lays it out (real files): export, unexport, gpiochipN/{label,base,ngpio}. */
export function fakeSysfs(name: string, chips: FakeChip[], opts: { exported?: number[] } = {}): string {
  const root = join(outputDir('gpio-sysfs'), name);
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, 'export'), '');
  writeFileSync(join(root, 'unexport'), '');
  for (const c of chips) {
    const dir = join(root, c.name);
    mkdirSync(dir);
    writeFileSync(join(dir, 'label'), `${c.label}\n`);
    writeFileSync(join(dir, 'base'), `${c.base}\n`);
    writeFileSync(join(dir, 'ngpio'), `${c.ngpio}\n`);
  }
  for (const n of opts.exported ?? []) mkdirSync(join(root, `gpio${n}`));
  return root;
}

/** The boards as their kernels show them (labels, bases and sizes from real Pis). */
export const BOARDS = {
  /** Pi 3, kernel before 6.6: numbering from 0. */
  pi3Old: [
    { name: 'gpiochip0', label: 'pinctrl-bcm2835', base: 0, ngpio: 54 },
    { name: 'gpiochip504', label: 'raspberrypi-exp-gpio', base: 504, ngpio: 8 },
  ],
  /** Pi 3, kernel 6.6+: the same chip at 512. */
  pi3: [
    { name: 'gpiochip512', label: 'pinctrl-bcm2835', base: 512, ngpio: 54 },
    { name: 'gpiochip566', label: 'raspberrypi-exp-gpio', base: 566, ngpio: 8 },
  ],
  pi4: [
    { name: 'gpiochip512', label: 'pinctrl-bcm2711', base: 512, ngpio: 58 },
    { name: 'gpiochip570', label: 'raspberrypi-exp-gpio', base: 570, ngpio: 8 },
  ],
  /** Pi 5: the SoC's own GPIO chips come first and are not the header; the RP1 is. */
  pi5: [
    { name: 'gpiochip512', label: 'pinctrl-bcm2712', base: 512, ngpio: 32 },
    { name: 'gpiochip544', label: 'pinctrl-bcm2712', base: 544, ngpio: 15 },
    { name: 'gpiochip559', label: 'raspberrypi-exp-gpio', base: 559, ngpio: 8 },
    { name: 'gpiochip571', label: 'pinctrl-rp1', base: 571, ngpio: 54 },
  ],
} satisfies Record<string, FakeChip[]>;
