// Bundles what a process of the `credence` executable runs into CommonJS files that
// bin/credence.cjs loads like require() (with V8's code cache beside each), without the ES module
// loader: dist/hook-fast.cjs (tool events: the scrubber and the spool), dist/hook-prompt.cjs
// (prompts and session starts: the store, recall over BM25 hits, the context blocks) and
// dist/cli.cjs (the command line: one file instead of some 220 modules; what only some commands
// need, behind a dynamic import(), is compiled and run only when such a command runs). The prompt
// and CLI bundles carry better-sqlite3's JavaScript too, and load its native addon from the
// installed package when that is the bundled version (scripts/hook-sqlite.cjs); the fast bundle
// needs no database. dist/src stays as tsc wrote it, for the library's users.
import { readFileSync, rmSync } from 'node:fs';
import { relative } from 'node:path';
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

/**
 * `import.meta.url` of a module under dist/src → the file URL of that module as tsc wrote it, worked
 * out from the bundle's folder at run time: the modules that find the package's files (the word
 * vectors, the dashboard's assets, the demo's data, the executable) find them from a bundle too.
 */
const moduleUrls = {
  name: 'credence-module-urls',
  setup(b) {
    const dist = at('../dist');
    b.onLoad({ filter: /[\\/]dist[\\/]src[\\/].*\.js$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return undefined;
      const path = JSON.stringify(relative(dist, args.path).split('\\').join('/'));
      return { contents: text.replaceAll('import.meta.url', `__credenceModuleUrl(${path})`), loader: 'js' };
    });
  },
};
const moduleUrlBanner =
  'const __credenceModuleUrl = (p) => require("node:url").pathToFileURL(require("node:path").join(__dirname, p)).href;';

/**
 * The team store stays out of the prompt bundle: bin/credence.cjs runs prompts unbundled when
 * CREDENCE_DATABASE_URL is set, so the bundle never reaches this import.
 */
const noTeamStore = {
  name: 'credence-no-team-store',
  setup(b) {
    b.onResolve({ filter: /\/postgres\/pg-store\.js$/ }, (args) => ({ path: args.path, external: true }));
  },
};

for (const [entry, out, plugins] of [
  ['../dist/src/hooks/fast.js', '../dist/hook-fast.cjs', []],
  ['../dist/src/hooks/prompt.js', '../dist/hook-prompt.cjs', [bundledSqlite, noTeamStore]],
  ['../dist/src/cli/main.js', '../dist/cli.cjs', [bundledSqlite]],
]) {
  const sqlite = plugins.includes(bundledSqlite);
  await build({
    entryPoints: [at(entry)],
    outfile: at(out),
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    banner: { js: moduleUrlBanner },
    plugins: [...plugins, moduleUrls],
    // The PostgreSQL driver is loaded from the installed package, only when a team store is used.
    external: sqlite ? ['pg', 'pg-native'] : ['better-sqlite3', 'pg', 'pg-native'],
    ...(sqlite ? { define: { BUNDLED_SQLITE_VERSION: JSON.stringify(sqliteVersion) } } : {}),
    logLevel: 'warning',
    legalComments: 'none',
    minify: true,
  });
  // bin/credence.cjs keeps V8's code cache beside a bundle; a new bundle starts without one.
  rmSync(at(`${out}.cache`), { force: true });
}
