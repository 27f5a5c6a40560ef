// Checks addon-features.mjs's JSON against NAME=0|1 expectations; exits 1 naming each mismatch.
//   node expect-features.mjs addon.json NEON=1 DOTPROD=1 FP16_VA=1
import { readFileSync } from 'node:fs';

const [file, ...want] = process.argv.slice(2);
const j = JSON.parse(readFileSync(file, 'utf8'));
const bad = [];
if (j.machine !== 'aarch64') bad.push(`machine ${j.machine}, expected aarch64`);
if (!j.ndebug) bad.push('built without NDEBUG');
for (const w of want) {
  const [name, v] = w.split('=');
  const got = j.systemInfo[name];
  if (got !== (v === '1')) bad.push(`${name} is ${got}, expected ${v === '1'}`);
}
// The code itself: a dotprod build has SDOT/UDOT in ggml's vector functions, an fp16 build FMLA .8h.
const dot = want.find((w) => w.startsWith('DOTPROD='));
if (dot === 'DOTPROD=1' && j.instructions.sdotUdotInGgmlVec === 0) bad.push('no SDOT/UDOT in ggml_vec_* although DOTPROD');
if (dot === 'DOTPROD=0' && j.instructions.sdotUdotInGgmlVec > 0) bad.push(`${j.instructions.sdotUdotInGgmlVec} SDOT/UDOT in ggml_vec_* although no DOTPROD`);
const fp16 = want.find((w) => w.startsWith('FP16_VA='));
if (fp16 === 'FP16_VA=1' && j.instructions.fmlaHalfInGgmlVec === 0) bad.push('no half-precision FMLA in ggml_vec_* although FP16_VA');
if (fp16 === 'FP16_VA=0' && j.instructions.fmlaHalfInGgmlVec > 0)
  bad.push(`${j.instructions.fmlaHalfInGgmlVec} half-precision FMLA in ggml_vec_* although no FP16_VA`);
if (bad.length) {
  console.error(`${j.file}:\n  ${bad.join('\n  ')}`);
  process.exit(1);
}
console.log(
  `${j.file}: ${want.join(' ')}, NDEBUG; SDOT/UDOT ${j.instructions.sdotUdotInGgmlVec}, FMLA .h ${j.instructions.fmlaHalfInGgmlVec} in ggml_vec_*: as expected`,
);
