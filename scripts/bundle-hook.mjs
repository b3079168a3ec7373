// Bundles the hooks that run on every tool call or prompt into CommonJS files that
// bin/credence.cjs loads with require(), without the ES module loader: dist/hook-fast.cjs (tool
// events: the scrubber and the spool) and dist/hook-prompt.cjs (prompts: the store, recall over
// BM25 hits, the context block). better-sqlite3 stays a package of its own (a native addon).
import { rmSync } from 'node:fs';
import { buildSync } from 'esbuild';

for (const [entry, out] of [
  ['../dist/src/hooks/fast.js', '../dist/hook-fast.cjs'],
  ['../dist/src/hooks/prompt.js', '../dist/hook-prompt.cjs'],
]) {
  buildSync({
    entryPoints: [new URL(entry, import.meta.url).pathname],
    outfile: new URL(out, import.meta.url).pathname,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    external: ['better-sqlite3'],
    logLevel: 'warning',
    legalComments: 'none',
    minify: true,
  });
  // bin/credence.cjs keeps V8's code cache beside a bundle; a new bundle starts without one.
  rmSync(new URL(`${out}.cache`, import.meta.url).pathname, { force: true });
}
