#!/usr/bin/env node
// The `credence` executable: runs the compiled CLI (built by `npm install` through `prepare`).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/src/cli/main.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write('credence: the compiled CLI is missing (dist/). Run `npm run build` in the package folder.\n');
  process.exit(1);
}
const { run } = await import(entry.href);
process.exitCode = await run();
