// Bundles the hooks that run on every tool call or prompt into CommonJS files that
// bin/credence.cjs loads with require(), without the ES module loader: dist/hook-fast.cjs (tool
// events: the scrubber and the spool) and dist/hook-prompt.cjs (prompts: the store, recall over
// BM25 hits, the context block). The prompt bundle carries better-sqlite3's JavaScript too, and
// loads its native addon from the installed package when that is the bundled version
// (scripts/hook-sqlite.cjs); the fast bundle needs no database.
import { readFileSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

const at = (path) => new URL(path, import.meta.url).pathname;
const sqliteVersion = JSON.parse(readFileSync(at('../node_modules/better-sqlite3/package.json'), 'utf8')).version;

/**
 * better-sqlite3 → scripts/hook-sqlite.cjs (which falls back to the package itself); its `bindings` → the addon that
 * file loaded.
 */
const bundledSqlite = {
  name: 'credence-bundled-sqlite',
  setup(b) {
    const shim = at('./hook-sqlite.cjs');
    // The team store's driver stays out of the bundle: bin/credence.cjs runs prompts unbundled when
    // CREDENCE_DATABASE_URL is set, so the bundle never reaches this import.
    b.onResolve({ filter: /\/postgres\/pg-store\.js$/ }, (args) => ({ path: args.path, external: true }));
    b.onResolve({ filter: /^better-sqlite3$/ }, (args) =>
      args.importer === shim ? { path: 'better-sqlite3', external: true } : { path: shim },
    );
    b.onResolve({ filter: /^credence-sqlite-addon$/ }, () => ({ path: 'addon', namespace: 'credence-sqlite-addon' }));
    b.onLoad({ filter: /.*/, namespace: 'credence-sqlite-addon' }, () => ({
      contents: 'module.exports = {};',
      loader: 'js',
    }));
    b.onResolve({ filter: /^bindings$/ }, () => ({ path: 'bindings', namespace: 'credence-sqlite-bindings' }));
    b.onLoad({ filter: /.*/, namespace: 'credence-sqlite-bindings' }, () => ({
      contents: 'const slot = require("credence-sqlite-addon"); module.exports = () => slot.addon;',
      resolveDir: at('.'),
      loader: 'js',
    }));
  },
};

for (const [entry, out, sqlite] of [
  ['../dist/src/hooks/fast.js', '../dist/hook-fast.cjs', false],
  ['../dist/src/hooks/prompt.js', '../dist/hook-prompt.cjs', true],
]) {
  await build({
    entryPoints: [at(entry)],
    outfile: at(out),
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    ...(sqlite
      ? { plugins: [bundledSqlite], define: { BUNDLED_SQLITE_VERSION: JSON.stringify(sqliteVersion) } }
      : { external: ['better-sqlite3'] }),
    logLevel: 'warning',
    legalComments: 'none',
    minify: true,
  });
  // bin/credence.cjs keeps V8's code cache beside a bundle; a new bundle starts without one.
  rmSync(at(`${out}.cache`), { force: true });
}
