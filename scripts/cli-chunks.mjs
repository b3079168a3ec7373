// The command line's bundles (scripts/bundle-hook.mjs builds them): dist/cli.cjs, the entry, holds the
// commands and commander, and what only some commands use is in other bundles, read and compiled only
// when a command first uses it: dist/cli-engine.cjs (the engine, the SQLite store, the hooks' learning),
// dist/cli-schemas.cjs (zod and every module that builds a schema with it), dist/cli-serve.cjs (the MCP
// server, the gateway, the dashboard) and dist/cli-team.cjs (the PostgreSQL store). `--help` parses
// the entry alone, `status` and `recall` (the word-vector default) the entry and the engine, without zod.
//
// A module listed as a root of one bundle is that bundle's everywhere: another bundle importing it
// gets a stub whose exports are getters that load the owner's bundle (once a process, through
// `__credenceChunk`) and evaluate the module on first use. So each root exists once a process
// (`instanceof CredenceError` holds whichever bundle threw it; one zod), and a module is evaluated only
// when one of its exports is read: the engine opens without evaluating a zod schema. A module that is
// no root may be copied into several bundles: those are stateless helpers (`checkChunks` lists them).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';

/** What a root resolves from: a module under dist/src (path relative to it), or a package specifier. */
const ZOD_SPECIFIER = /^zod(\/[a-z0-9-/]+)?$/;

/**
 * The bundles and their roots. The engine's roots are what the entry's commands import() (each
 * evaluated only when a command uses it); the schemas' roots are zod's entry points and, found by
 * `chunkPlan`, every module outside mcp/ that imports zod (mcp/'s go with the server, whose
 * zod imports are stubs too).
 */
const CHUNKS = [
  { name: 'cli', file: 'cli.cjs', main: 'cli/main.js', roots: ['core/errors.js'] },
  {
    name: 'engine',
    file: 'cli-engine.cjs',
    roots: [
      'engine/engine.js',
      'engine/demo/demo.js',
      'engine/learning/evolve.js',
      'engine/observations.js',
      'engine/tool-graph/tool-graph.js',
      'core/security/scrub.js',
      'hooks/claude-code.js',
      'hooks/install.js',
      'hooks/import-transcripts.js',
      // What the engine uses for some of its methods only: evaluated when one of them first runs.
      'engine/search/search.js',
      'engine/search/search-index.js',
      'engine/search/experience.js',
      'engine/recall/recall.js',
      'engine/index/scope-indexes.js',
      'engine/feedback-service.js',
      'engine/forget.js',
      'engine/workflows/workflows.js',
      'engine/learning/learning-view.js',
      'core/workflow/workflow.js',
      // Held once a process (the team store and the server use them too).
      'store/sqlite/sqlite-store.js',
      'embed/word-vectors.js',
    ],
  },
  { name: 'schemas', file: 'cli-schemas.cjs', roots: ['zod', 'zod/v4', 'zod/v3', 'zod/v4-mini', 'zod/v4/core'] },
  { name: 'serve', file: 'cli-serve.cjs', roots: ['mcp/serve.js'] },
  { name: 'team', file: 'cli-team.cjs', roots: ['store/postgres/pg-store.js'] },
];

function modulesUnder(dir, base = dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return modulesUnder(path, base);
    return entry.name.endsWith('.js') ? [relative(base, path).split(sep).join('/')] : [];
  });
}

/** The bundles with their roots: CHUNKS, the modules that import zod added to the schemas bundle. */
export function chunkPlan(distSrc) {
  const importsZod = /\bfrom\s*(['"])zod(\/[a-z0-9-/]+)?\1/;
  const zodUsers = modulesUnder(distSrc).filter(
    (rel) => !rel.startsWith('mcp/') && importsZod.test(readFileSync(join(distSrc, rel), 'utf8')),
  );
  return CHUNKS.map((c) => (c.name === 'schemas' ? { ...c, roots: [...c.roots, ...zodUsers] } : c));
}

const idOf = (distSrc, resolveDir, path) => {
  if (ZOD_SPECIFIER.test(path)) return path;
  if (!path.startsWith('.')) return undefined;
  const rel = relative(distSrc, resolve(resolveDir, path)).split(sep).join('/');
  return rel.startsWith('..') ? undefined : rel;
};

/** The file an import of zod's entry point `spec` resolves to (package.json "exports", the "import" condition). */
function zodFile(root, spec) {
  const pkg = JSON.parse(readFileSync(join(root, 'node_modules', 'zod', 'package.json'), 'utf8'));
  const target = pkg.exports?.[spec === 'zod' ? '.' : `./${spec.slice('zod/'.length)}`];
  if (typeof target?.import !== 'string') throw new Error(`bundle-hook: zod has no ES entry point ${spec}`);
  return `node_modules/zod/${target.import.replace(/^\.\//, '')}`;
}

/** Each root's export names (esbuild's metafile of each root bundled alone), for its stubs' getters. */
export async function exportNames(build, plan, root) {
  const roots = plan.flatMap((c) => c.roots);
  const fileOf = (r) => (ZOD_SPECIFIER.test(r) ? zodFile(root, r) : `dist/src/${r}`);
  const result = await build({
    absWorkingDir: root,
    entryPoints: roots.map((r) => `./${fileOf(r)}`),
    outdir: join(root, 'dist', '.chunk-names'),
    bundle: true,
    format: 'esm',
    platform: 'node',
    packages: 'external',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const byEntry = new Map();
  for (const output of Object.values(result.metafile.outputs))
    if (output.entryPoint !== undefined) byEntry.set(output.entryPoint, output.exports);
  return new Map(
    roots.map((r) => {
      const list = byEntry.get(fileOf(r));
      if (list === undefined) throw new Error(`bundle-hook: no exports found for ${r}`);
      return [r, list];
    }),
  );
}

/**
 * The entry of one bundle: the entry's main module's exports (the CLI's), and `__credenceRoots`, a
 * function a root that returns its module, evaluating it on the first call (require() of an ES module
 * in a bundle: esbuild runs it then). zod's entry points are imported (the ES build a bundle uses), so
 * they are evaluated with the bundle.
 */
export function chunkEntry(chunk) {
  const lines = [];
  if (chunk.main !== undefined) lines.push(`export * from ${JSON.stringify(`./${chunk.main}`)};`);
  const fields = chunk.roots.map((r, i) => {
    if (ZOD_SPECIFIER.test(r)) {
      lines.push(`import * as root${i} from ${JSON.stringify(r)};`);
      return `${JSON.stringify(r)}: () => root${i}`;
    }
    return `${JSON.stringify(r)}: () => require(${JSON.stringify(`./${r}`)})`;
  });
  lines.push(`export const __credenceRoots = { ${fields.join(', ')} };`);
  return lines.join('\n');
}

/**
 * Defines `__credenceChunk(name)`: the exports of the bundle `name` of this folder, through the
 * loader bin/credence.cjs sets (one load a process, V8's code cache beside it), else require().
 */
export const chunkLoaderBanner = (plan) =>
  `const __credenceChunkFiles = ${JSON.stringify(Object.fromEntries(plan.map((c) => [c.name, c.file])))};` +
  'const __credenceChunk = (n) => { const f = require("node:path").join(__dirname, __credenceChunkFiles[n]);' +
  ' const load = globalThis[Symbol.for("credence.loadChunk")]; return load === undefined ? require(f) : load(f); };';

/** Turns every import of another bundle's root into a stub of getters that load it on first use. */
export function chunkStubs(chunk, plan, names, distSrc) {
  const owner = new Map(plan.flatMap((c) => c.roots.map((r) => [r, c.name])));
  if (chunk.main !== undefined) owner.set(chunk.main, chunk.name);
  return {
    name: 'credence-chunk-stubs',
    setup(b) {
      b.onResolve({ filter: /.*/ }, (args) => {
        if (args.namespace === 'credence-chunk' || args.kind === 'entry-point') return undefined;
        const id = idOf(distSrc, args.resolveDir, args.path);
        const at = id === undefined ? undefined : owner.get(id);
        if (at === undefined || id === chunk.main) return undefined;
        // A root of this bundle: a stub too (evaluated on first use), but for the bundle's entry and zod's own.
        const fromEntry = args.importer === '<stdin>' || args.importer.endsWith('-entry.js');
        if (at === chunk.name && (fromEntry || ZOD_SPECIFIER.test(id))) return undefined;
        return { path: id, namespace: 'credence-chunk', pluginData: at };
      });
      b.onLoad({ filter: /.*/, namespace: 'credence-chunk' }, (args) => {
        const exported = names.get(args.path) ?? [];
        const module =
          args.pluginData === chunk.name
            ? `require(${JSON.stringify(`./${args.path}`)})`
            : `__credenceChunk(${JSON.stringify(args.pluginData)}).__credenceRoots[${JSON.stringify(args.path)}]()`;
        const contents =
          `let m; const load = () => (m ??= ${module});\n` +
          'Object.defineProperty(exports, "__esModule", { value: true });\n' +
          `for (const k of ${JSON.stringify(exported)})\n` +
          '  Object.defineProperty(exports, k, { enumerable: true, get: () => load()[k] });\n';
        return { contents, loader: 'js', resolveDir: distSrc };
      });
    },
  };
}

/**
 * The modules of dist/src each bundle holds (from its metafile): fails when a root is held by a bundle
 * that does not own it (a stub was missed), and returns the modules held by more than one bundle.
 */
export function checkChunks(plan, metafiles) {
  const owner = new Map(plan.flatMap((c) => c.roots.map((r) => [r, c.name])));
  const holders = new Map();
  for (const [name, metafile] of metafiles) {
    for (const input of Object.keys(metafile.inputs)) {
      const at = input.indexOf('dist/src/');
      const zod = input.match(/node_modules\/zod\//);
      const id = at >= 0 ? input.slice(at + 'dist/src/'.length) : zod ? 'zod' : undefined;
      if (id === undefined) continue;
      const o = owner.get(id) ?? (id === 'zod' ? 'schemas' : undefined);
      if (o !== undefined && o !== name) throw new Error(`bundle-hook: ${id} is in ${name}, not only in ${o}`);
      if (!holders.has(id)) holders.set(id, new Set());
      holders.get(id).add(name);
    }
  }
  return [...holders].filter(([, set]) => set.size > 1).map(([id, set]) => `${id} (${[...set].join(', ')})`);
}

/** Node's modules that take a millisecond or more to load (node:crypto ~2 ms, node:child_process ~2 ms). */
const LAZY_BUILTINS =
  /^(node:)?(crypto|child_process|stream|stream\/promises|readline|zlib|http|https|net|worker_threads)$/;

/**
 * Those of Node's modules, loaded when one of their exports is first read (a stub of getters, the
 * names read from this Node): `credence status` never loads node:crypto, which only makes ids.
 */
export function lazyBuiltins(requireHere) {
  return {
    name: 'credence-lazy-builtins',
    setup(b) {
      b.onResolve({ filter: LAZY_BUILTINS }, (args) =>
        args.namespace === 'credence-builtin'
          ? { path: args.path, external: true }
          : { path: args.path.startsWith('node:') ? args.path : `node:${args.path}`, namespace: 'credence-builtin' },
      );
      b.onLoad({ filter: /.*/, namespace: 'credence-builtin' }, (args) => ({
        contents:
          `let m; const load = () => (m ??= require(${JSON.stringify(args.path)}));\n` +
          `for (const k of ${JSON.stringify(Object.keys(requireHere(args.path)))})\n` +
          '  Object.defineProperty(exports, k, { enumerable: true, get: () => load()[k] });\n',
        loader: 'js',
      }));
    },
  };
}
