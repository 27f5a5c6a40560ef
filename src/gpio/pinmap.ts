import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Which gpiochip carries the 40-pin header, by label, best first: the RP1 on a Pi 5, the BCM2711 on
 * a Pi 4, the BCM2835 on earlier boards (the Pi 3's BCM2837 keeps that label).
 */
export const HEADER_CHIP_LABELS = ['pinctrl-rp1', 'pinctrl-bcm2711', 'pinctrl-bcm2835'] as const;

export interface GpioChip {
  /** e.g. gpiochip512 */
  name: string;
  label: string;
  /** First sysfs GPIO number of this chip (0 on old kernels; 512, 571, ... since 6.6). */
  base: number;
  ngpio: number;
}

/** A BCM number made into the number sysfs (and onoff) wants. */
export interface MappedPin {
  bcm: number;
  chip: GpioChip;
  sysfs: number;
}

/** Why a pin cannot be used, in words for a person. */
export class PinMapError extends Error {
  override readonly name = 'PinMapError';
}

/** Every gpiochip under the sysfs root, with its label, base and size. Unreadable entries are skipped. */
export function listChips(sysfsRoot: string): GpioChip[] {
  let entries: string[];
  try {
    entries = readdirSync(sysfsRoot);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new PinMapError(
      code === 'ENOENT'
        ? `${sysfsRoot} does not exist: this machine has no sysfs GPIO (not a Raspberry Pi, or a kernel built without CONFIG_GPIO_SYSFS)`
        : `cannot read ${sysfsRoot}: ${(err as Error).message}`,
    );
  }
  const chips: GpioChip[] = [];
  for (const name of entries.filter((e) => /^gpiochip\d+$/.test(e)).sort()) {
    const dir = join(sysfsRoot, name);
    try {
      const label = readFileSync(join(dir, 'label'), 'utf8').trim();
      const base = Number(readFileSync(join(dir, 'base'), 'utf8').trim());
      const ngpio = Number(readFileSync(join(dir, 'ngpio'), 'utf8').trim());
      if (!Number.isInteger(base) || !Number.isInteger(ngpio)) continue;
      chips.push({ name, label, base, ngpio });
    } catch {
      // a chip we cannot read is not one we can use
    }
  }
  return chips;
}

/** The chip that carries the header pins. Never assumes a base: it is read from the chip. */
export function findHeaderChip(sysfsRoot: string): GpioChip {
  const chips = listChips(sysfsRoot);
  for (const label of HEADER_CHIP_LABELS) {
    const chip = chips.find((c) => c.label === label);
    if (chip) return chip;
  }
  const seen = chips.length ? `found: ${chips.map((c) => `${c.name} "${c.label}"`).join(', ')}` : 'no gpiochip entries found';
  throw new PinMapError(`no Raspberry Pi GPIO chip under ${sysfsRoot} (looked for labels ${HEADER_CHIP_LABELS.join(', ')}; ${seen})`);
}

/** The sysfs number for a BCM pin on a chip: base + BCM, if the chip has that line. */
export function mapPin(bcm: number, chip: GpioChip): MappedPin {
  if (!Number.isInteger(bcm) || bcm < 0 || bcm >= chip.ngpio) {
    throw new PinMapError(`BCM ${bcm} is out of range for ${chip.label} (${chip.name} has lines 0 to ${chip.ngpio - 1})`);
  }
  return { bcm, chip, sysfs: chip.base + bcm };
}

export function resolvePin(bcm: number, sysfsRoot: string): MappedPin {
  return mapPin(bcm, findHeaderChip(sysfsRoot));
}
