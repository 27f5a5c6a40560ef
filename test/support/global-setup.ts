import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// CLI tests run the real `bin/hark.js`, which loads dist/. Build once per run so a test never
// exercises a stale compile. tsc emits even with type errors; `npm run typecheck` is the gate for those.
export default function setup(): void {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  try {
    execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'pipe' });
  } catch {
    // type errors still emit JS; the typecheck step reports them
  }
}
