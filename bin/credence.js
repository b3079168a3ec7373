#!/usr/bin/env node
// The `credence` executable: runs the compiled CLI (built by `npm install` through `prepare`).
// `credence hook claude-code` goes straight to the hook module, without the CLI around it: a hook
// runs on every tool call, so it loads only what it needs.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const [, , first, second] = process.argv;
if (first === 'hook' && second === 'claude-code' && process.argv.length === 4) {
  const hook = new URL('../dist/src/hooks/claude-code.js', import.meta.url);
  if (!existsSync(fileURLToPath(hook))) {
    // Fail open: a hook never stops the agent.
    process.stderr.write('credence hook: the compiled hook is missing (dist/); run `npm run build` in the package folder\n');
    process.exit(0);
  }
  const { main } = await import(hook.href);
  await main();
} else {
  const entry = new URL('../dist/src/cli/main.js', import.meta.url);
  if (!existsSync(fileURLToPath(entry))) {
    process.stderr.write('credence: the compiled CLI is missing (dist/). Run `npm run build` in the package folder.\n');
    process.exit(1);
  }
  const { run } = await import(entry.href);
  process.exitCode = await run();
}
