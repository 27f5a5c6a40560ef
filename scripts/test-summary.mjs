// Prints vitest's JSON results as one plain closing line, "tests: N passed, N failed, N skipped",
// the form CI reads to count tests (vitest's own summary is not one it knows).
import { readFileSync } from 'node:fs';

const file = process.argv[2];
let r;
try {
  r = JSON.parse(readFileSync(file, 'utf8'));
} catch (err) {
  console.error(`test-summary: cannot read ${file}: ${err.message}`);
  process.exit(1);
}
const skipped = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
console.log(`tests: ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${skipped} skipped`);
