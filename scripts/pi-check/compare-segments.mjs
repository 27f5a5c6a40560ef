// pi-check's segment step: the segments arm64 found against x86's, for one recording. Every field
// must be equal (start, end, samples, pre-roll, close reason: the same segments to the sample) and
// the segment audio files byte for byte; maxProb (Silero's highest speech probability, a float from
// onnxruntime's arm64 vs x86 kernels) may differ in its last digits and is reported.
//   node compare-segments.mjs x86.jsonl arm64.jsonl x86-wav-dir arm64-wav-dir
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const [a, b, da, db] = process.argv.slice(2);
const lines = (f) =>
  readFileSync(f, 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
const x = lines(a),
  y = lines(b);
const bad = [];
if (x.length !== y.length) bad.push(`${x.length} segments on x86, ${y.length} on arm64`);
let maxDelta = 0;
for (let i = 0; i < Math.min(x.length, y.length); i++) {
  for (const k of new Set([...Object.keys(x[i]), ...Object.keys(y[i])])) {
    if (k === 'maxProb') {
      const d = Math.abs(x[i][k] - y[i][k]);
      maxDelta = Math.max(maxDelta, d);
      if (d > 0.01) bad.push(`segment ${i}: maxProb ${x[i][k]} vs ${y[i][k]}`);
    } else if (JSON.stringify(x[i][k]) !== JSON.stringify(y[i][k]))
      bad.push(`segment ${i}: ${k} ${JSON.stringify(x[i][k])} on x86, ${JSON.stringify(y[i][k])} on arm64`);
  }
}
const sums = (d) =>
  Object.fromEntries(
    readdirSync(d)
      .filter((n) => n.endsWith('.wav'))
      .sort()
      .map((n) => [
        n,
        createHash('sha256')
          .update(readFileSync(join(d, n)))
          .digest('hex'),
      ]),
  );
const sa = sums(da),
  sb = sums(db);
if (JSON.stringify(sa) !== JSON.stringify(sb)) bad.push(`segment audio differs: ${JSON.stringify(sa)} vs ${JSON.stringify(sb)}`);
if (bad.length) {
  console.error(bad.join('\n'));
  process.exit(1);
}
console.log(
  `${x.length} segments identical to the sample (${x.map((s) => `${s.startMs}-${s.endMs} ms, ${s.samples} samples`).join('; ')}), audio files identical; maxProb differs by at most ${maxDelta}`,
);
