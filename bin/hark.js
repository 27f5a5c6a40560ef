#!/usr/bin/env node
// The installed entry point. The TypeScript is compiled to dist/ by `npm ci` (the `prepare` script),
// so the appliance starts plain JavaScript: no loader in memory, no compile at boot.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
if (!existsSync(cli)) {
  process.stderr.write(`hark: ${cli} is missing; run \`npm ci\` (or \`npm run build\`) in the hark directory first\n`);
  process.exit(2);
}
await import(cli);
