// What a smart-whisper addon was compiled with, read from the file by hark's own ELF reader (the one
// `hark doctor whisper` uses), plus a count of the instructions that only a dotprod / fp16 build emits
// in ggml's C code. Prints JSON. Run from hark's directory (it imports dist/).
//   node addon-features.mjs path/to/smart-whisper.node
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const { addonBuildInfo, readElf } = await import(pathToFileURL(resolve('dist/stt/whisper/addon-elf.js')).href);
const file = process.argv[2];
const buf = readFileSync(file);
const info = addonBuildInfo(buf);
// Instructions inside ggml's C functions (not its hand-written assembly kernels): SDOT/UDOT and
// half-precision vector FMLA (fmla v.8h / v.4h).
const elf = readElf(buf);
let sdot = 0,
  fmlaH = 0;
for (const [name, sym] of elf.symbols) {
  if (!name.startsWith('ggml_vec_') || sym.size === 0) continue;
  const off = elf.offsetOf(sym.value);
  if (off === null) continue;
  for (let o = off; o + 4 <= off + sym.size; o += 4) {
    const w = buf.readUInt32LE(o);
    if ((w & 0x9fe0fc00) === 0x0e809400 || (w & 0x9fc0f400) === 0x0f80e000) sdot++;
    if ((w & 0xbfe0fc00) === 0x0e400c00) fmlaH++;
  }
}
console.log(
  JSON.stringify(
    { file, machine: info.machine, ndebug: info.ndebug, systemInfo: info.systemInfo, instructions: { sdotUdotInGgmlVec: sdot, fmlaHalfInGgmlVec: fmlaH } },
    null,
    1,
  ),
);
