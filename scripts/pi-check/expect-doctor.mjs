// `hark doctor --json` in the arm64 root: every check that needs no hardware must not fail, and the
// whisper build check must pass and name the target the addon was built for.
//   node expect-doctor.mjs doctor.json [target]
import { readFileSync } from 'node:fs';

const [file, target = 'cortex-a76'] = process.argv.slice(2);
const j = JSON.parse(readFileSync(file, 'utf8'));
// Need the Pi's hardware: the USB microphone, the GPIO pins (a chroot has no /sys/class/gpio).
const HARDWARE = new Set(['microphone', 'gpio']);
const bad = [];
for (const c of j.checks) {
  console.log(`${c.status.padEnd(4)} ${c.id}: ${c.detail}`);
  if (c.status === 'fail' && !HARDWARE.has(c.id)) bad.push(`${c.id} failed: ${c.detail}`);
}
const wb = j.checks.find((c) => c.id === 'whisper-build');
if (!wb) bad.push('no whisper-build check');
else {
  if (wb.status !== 'ok') bad.push(`whisper-build is ${wb.status}, expected ok`);
  if (!wb.detail.includes(target)) bad.push(`whisper-build does not name the target ${target}: ${wb.detail}`);
}
if (bad.length) {
  console.error(bad.join('\n'));
  process.exit(1);
}
console.log(`doctor: every check that needs no hardware passes; whisper.cpp built for ${target}`);
