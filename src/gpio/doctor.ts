import { accessSync, constants, existsSync } from 'node:fs';
import { join } from 'node:path';
import { findHeaderChip, mapPin, PinMapError, type GpioChip } from './pinmap.js';

export interface PinReport {
  role: 'button' | 'led';
  bcm: number;
  /** The number hark will open through sysfs, or null with `error` saying why it cannot. */
  sysfs: number | null;
  chipLabel: string | null;
  error?: string;
  /** gpio<N> already exists: exported by a running hark or another program. */
  exported?: boolean;
}

export interface GpioReport {
  ok: boolean;
  sysfsRoot: string;
  chip: GpioChip | null;
  pins: PinReport[];
  /** Things that stop hark from using the pins. */
  problems: string[];
  /** Things a technician should know (the pull-up). */
  notes: string[];
}

/** What `hark doctor gpio` finds: for the button and the LED, the BCM pin, the chip and the sysfs number, or why not. */
export function gpioReport(opts: { sysfsRoot: string; buttonPin: number; ledPin: number; buttonActiveLow?: boolean }): GpioReport {
  const { sysfsRoot } = opts;
  const problems: string[] = [];
  const notes: string[] = [];
  let chip: GpioChip | null = null;
  try {
    chip = findHeaderChip(sysfsRoot);
  } catch (err) {
    if (!(err instanceof PinMapError)) throw err;
    problems.push(err.message);
  }
  const pin = (role: 'button' | 'led', bcm: number): PinReport => {
    if (!chip) return { role, bcm, sysfs: null, chipLabel: null, error: 'no GPIO chip to map it on' };
    try {
      const m = mapPin(bcm, chip);
      return { role, bcm, sysfs: m.sysfs, chipLabel: chip.label, exported: existsSync(join(sysfsRoot, `gpio${m.sysfs}`)) };
    } catch (err) {
      if (!(err instanceof PinMapError)) throw err;
      problems.push(`${role}: ${err.message}`);
      return { role, bcm, sysfs: null, chipLabel: chip.label, error: err.message };
    }
  };
  const pins = [pin('button', opts.buttonPin), pin('led', opts.ledPin)];
  if (chip) {
    const exp = join(sysfsRoot, 'export');
    if (!existsSync(exp)) problems.push(`${exp} is missing: the kernel's sysfs GPIO interface is not there`);
    else {
      try {
        accessSync(exp, constants.W_OK);
      } catch {
        problems.push(`cannot write ${exp}: run hark as a user in the gpio group (sudo usermod -aG gpio <user>)`);
      }
    }
  }
  if (opts.buttonActiveLow ?? true) {
    notes.push(
      `the button is active low: wire it from BCM ${opts.buttonPin} to ground and enable the pull-up at boot with gpio=${opts.buttonPin}=ip,pu in /boot/firmware/config.txt (sysfs cannot set pulls; BCM 9-27 default to pull-down)`,
    );
  }
  return { ok: problems.length === 0, sysfsRoot, chip, pins, problems, notes };
}

export function formatGpioReport(r: GpioReport): string[] {
  const lines: string[] = [`sysfs root: ${r.sysfsRoot}`];
  lines.push(r.chip ? `chip: ${r.chip.name} "${r.chip.label}" (base ${r.chip.base}, ${r.chip.ngpio} lines)` : 'chip: none found');
  for (const p of r.pins) {
    const name = p.role === 'button' ? 'button' : 'LED   ';
    if (p.sysfs !== null) lines.push(`${name}: BCM ${p.bcm} -> sysfs ${p.sysfs} on ${p.chipLabel}${p.exported ? ' (already exported)' : ''}`);
    else lines.push(`${name}: BCM ${p.bcm}: cannot use: ${p.error}`);
  }
  for (const p of r.problems) lines.push(`problem: ${p}`);
  for (const n of r.notes) lines.push(`note: ${n}`);
  return lines;
}
