// Bundles the hook's tool-event path (dist/src/hooks/fast.js and the scrubber it uses) into one
// CommonJS file, dist/hook-fast.cjs, that bin/credence.cjs loads with require(): a hook runs on
// every tool call, and one file without the ES module loader starts in about the time of `node -e 0`.
import { buildSync } from 'esbuild';

buildSync({
  entryPoints: [new URL('../dist/src/hooks/fast.js', import.meta.url).pathname],
  outfile: new URL('../dist/hook-fast.cjs', import.meta.url).pathname,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
  legalComments: 'none',
});
