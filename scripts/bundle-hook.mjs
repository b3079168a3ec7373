// Bundles what a process of the `credence` executable runs into CommonJS files that
// bin/credence.cjs loads like require() (with V8's code cache beside each), without the ES module
// loader: dist/hook-fast.cjs (tool events and stops: the scrubber, the spool, the hand-off of the
// learning), dist/hook-prompt.cjs (prompts: the store, recall over BM25 hits, the context block),
// dist/hook-start.cjs (session starts: the store, the skills and instincts to print, the hand-off)
// and the command line's: dist/cli.cjs and the bundles it loads when a command needs them
// (dist/cli-engine.cjs, cli-schemas.cjs, cli-serve.cjs, cli-team.cjs: scripts/cli-chunks.mjs).
// The bundles that read the store carry better-sqlite3's JavaScript too, and load its native addon
// from the installed package when that is the bundled version (scripts/hook-sqlite.cjs); the fast
// bundle needs no database. dist/src stays as tsc wrote it, for the library's users.
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, relative } from 'node:path';
import { build } from 'esbuild';
import { createRequire } from 'node:module';
import {
  checkChunks,
  chunkEntry,
  chunkLoaderBanner,
  chunkPlan,
  chunkStubs,
  exportNames,
  lazyBuiltins,
} from './cli-chunks.mjs';

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
 * What a module under dist/src says that a CommonJS bundle must say otherwise. `import.meta.url` →
 * the file URL of that module as tsc wrote it, worked out from the bundle's folder at run time: the
 * modules that find the package's files (the word vectors, the dashboard's assets, the demo's data,
 * the executable) find them from a bundle too. `import('node:x')` → require('node:x') in a promise:
 * a bundle runs as a script, where import() has no module loader to call (and starting one costs).
 */
const distSources = {
  name: 'credence-dist-sources',
  setup(b) {
    const dist = at('../dist');
    b.onLoad({ filter: /[\\/]dist[\\/]src[\\/].*\.js$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      const builtin = /\bimport\((['"])(node:[a-z_/]+)\1\)/g;
      if (!text.includes('import.meta.url') && !builtin.test(text)) return undefined;
      const path = JSON.stringify(relative(dist, args.path).split('\\').join('/'));
      const contents = text
        .replaceAll('import.meta.url', `__credenceModuleUrl(${path})`)
        .replace(builtin, (_, quote, name) => `Promise.resolve().then(() => require(${quote}${name}${quote}))`);
      return { contents, loader: 'js' };
    });
  },
};
const moduleUrlBanner =
  'const __credenceModuleUrl = (p) => require("node:url").pathToFileURL(require("node:path").join(__dirname, p)).href;';

/**
 * commander loads node:child_process (and with it node:net: about 6 ms, a third of starting Node)
 * for the one thing Credence never asks of it, running a subcommand as a program of its own: it
 * is loaded when that happens instead. Left as it is if commander's source reads otherwise.
 */
const lazyChildProcess = {
  name: 'credence-lazy-child-process',
  setup(b) {
    const eager = "const childProcess = require('node:child_process');";
    b.onLoad({ filter: /[\\/]commander[\\/]lib[\\/]command\.js$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes(eager)) return undefined;
      const lazy = "const childProcess = { spawn: (...a) => require('node:child_process').spawn(...a) };";
      return { contents: text.replace(eager, lazy), loader: 'js' };
    });
  },
};

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

/**
 * Dumps stay out of the prompt and start bundles: a hook never writes or restores one, and their row checks
 * (store/sqlite/sqlite-dump.js, which the store imports when a dump is made) hold zod: ~450 kB more to load.
 */
const noDumps = {
  name: 'credence-no-dumps',
  setup(b) {
    b.onResolve({ filter: /\/sqlite-dump\.js$/ }, (args) => ({ path: args.path, external: true }));
  },
};
/**
 * esbuild writes strings as ASCII but leaves regular expressions and String.raw templates as they are: one `—` in a
 * pattern and V8 holds the whole bundle as two bytes a character, decoded on the slower UTF-8 path (the engine's
 * bundle: 1.2 MB of young heap instead of 0.6 MB, a scavenge more for `status`). Each such character is written as
 * its \u escape instead, which is the same character in a string, a pattern, and a String.raw text that becomes a
 * RegExp source (the use of each String.raw with one in src/); a String.raw kept as text would show the escape.
 */
function asciiOnly(path) {
  const text = readFileSync(path, 'utf8');
  const escaped = text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (escaped !== text) writeFileSync(path, escaped);
}

/** The plugins of the hook bundles that read the store. */
const storeHook = [bundledSqlite, noTeamStore, noDumps];

const distSrc = at('../dist/src');
const plan = chunkPlan(distSrc);
const names = await exportNames(build, plan, at('..'));
const cli = plan.map((chunk) => ({
  entry: { contents: chunkEntry(chunk), resolveDir: distSrc, sourcefile: `${chunk.file}-entry.js`, loader: 'js' },
  out: `../dist/${chunk.file}`,
  plugins: [
    chunkStubs(chunk, plan, names, distSrc),
    lazyBuiltins(createRequire(import.meta.url)),
    bundledSqlite,
    lazyChildProcess,
  ],
  banner: chunkLoaderBanner(plan),
  chunk: chunk.name,
}));
const metafiles = new Map();
for (const { entry, out, plugins, banner, chunk } of [
  { entry: '../dist/src/hooks/fast.js', out: '../dist/hook-fast.cjs', plugins: [] },
  { entry: '../dist/src/hooks/prompt.js', out: '../dist/hook-prompt.cjs', plugins: storeHook },
  { entry: '../dist/src/hooks/session-start.js', out: '../dist/hook-start.cjs', plugins: storeHook },
  ...cli,
]) {
  const sqlite = plugins.includes(bundledSqlite);
  const result = await build({
    ...(typeof entry === 'string' ? { entryPoints: [at(entry)] } : { stdin: entry }),
    outfile: at(out),
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    banner: { js: banner === undefined ? moduleUrlBanner : `${moduleUrlBanner}\n${banner}` },
    metafile: chunk !== undefined,
    plugins: [...plugins, distSources],
    // The PostgreSQL driver is loaded from the installed package, only when a team store is used.
    external: sqlite ? ['pg', 'pg-native'] : ['better-sqlite3', 'pg', 'pg-native'],
    ...(sqlite ? { define: { BUNDLED_SQLITE_VERSION: JSON.stringify(sqliteVersion) } } : {}),
    logLevel: 'warning',
    legalComments: 'none',
    minify: true,
  });
  if (chunk !== undefined) metafiles.set(chunk, result.metafile);
  asciiOnly(at(out));
  // bin/credence.cjs keeps V8's code cache beside a bundle (the CLI's, one a command: `cli.cjs.<command>.cache`); a new
  // bundle starts without one.
  const name = basename(at(out));
  for (const file of readdirSync(at('../dist')))
    if (file.startsWith(`${name}.`) && /\.cache(-keys)?$/.test(file)) rmSync(at(`../dist/${file}`), { force: true });
}
// A root copied into a bundle that does not own it fails the build; modules copied into several are listed with
// CREDENCE_BUNDLE_VERBOSE=1.
const shared = checkChunks(plan, metafiles);
if (process.env.CREDENCE_BUNDLE_VERBOSE === '1') console.log(`in more than one CLI bundle: ${shared.join(', ')}`);
