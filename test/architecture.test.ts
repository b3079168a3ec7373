/**
 * The dependency rules of the house (issue 18, item 6), checked over the import graph of src/:
 * the core imports nothing outside itself (dynamic `import()` included; Node built-ins from a short
 * list); the surfaces import no store driver, no store module (types aside) and no other surface;
 * no import cycle between files or between folders. Each rule is a function over an import graph,
 * tried first on a small planted graph (so a violation is seen to fail), then on the real tree.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

/** One import of one file: `to` is a repository path (`src/core/errors.ts`) or a bare specifier. */
export interface ImportEdge {
  readonly from: string;
  readonly to: string;
  readonly typeOnly: boolean;
  readonly dynamic: boolean;
}
export type ImportGraph = ReadonlyMap<string, readonly ImportEdge[]>;

// ---- building the graph ------------------------------------------------------------------------

interface RawImport {
  readonly spec: string;
  readonly typeOnly: boolean;
  readonly dynamic: boolean;
}

/**
 * The code of a TypeScript source with its comments and the contents of its strings blanked
 * (module specifiers aside), so that an import named in a comment or a string is not counted. Regular-expression
 * literals are kept
 * whole (a quote inside one opens no string). Offsets are unchanged.
 */
export function codeOnly(text: string): string {
  const out = text.split('');
  let i = 0;
  let last = '';
  const blank = (from: number, to: number): void => {
    for (let k = from; k < to; k += 1) if (out[k] !== '\n') out[k] = ' ';
  };
  while (i < text.length) {
    const c = text[i] ?? '';
    const d = text[i + 1] ?? '';
    if (c === '/' && d === '/') {
      const end = text.indexOf('\n', i);
      const stop = end === -1 ? text.length : end;
      blank(i, stop);
      i = stop;
    } else if (c === '/' && d === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end === -1 ? text.length : end + 2;
      blank(i, stop);
      i = stop;
    } else if (c === "'" || c === '"' || c === '`') {
      let k = i + 1;
      while (k < text.length && text[k] !== c) k += text[k] === '\\' ? 2 : 1;
      // A string is kept only where a module specifier stands: after from, import, import( or require(.
      if (!/(?:\bfrom|\bimport|\bimport\s*\(|\brequire\s*\()\s*$/.test(text.slice(Math.max(0, i - 12), i)))
        blank(i + 1, k);
      i = k + 1;
      last = c;
    } else if (
      c === '/' &&
      (last === '' ||
        '(,=:[!&|?{};+-*%<>~^'.includes(last) ||
        /\b(?:return|typeof|case|in|of)$/.test(text.slice(Math.max(0, i - 8), i).trimEnd()))
    ) {
      let k = i + 1;
      let inClass = false;
      while (k < text.length && text[k] !== '\n' && (inClass || text[k] !== '/')) {
        if (text[k] === '\\') k += 1;
        else if (text[k] === '[') inClass = true;
        else if (text[k] === ']') inClass = false;
        k += 1;
      }
      i = k + 1;
      last = '/';
    } else {
      if (!/\s/.test(c)) last = c;
      i += 1;
    }
  }
  return out.join('');
}

const STATIC_IMPORT = /(?<![\w$.])import\s+(type\s+)?([\w$*{][^;'"`]*?)\s+from\s*(['"])([^'"]+)\3/g;
const BARE_IMPORT = /(?<![\w$.])import\s*(['"])([^'"]+)\1/g;
const RE_EXPORT = /(?<![\w$.])export\s+(type\s+)?(\*(?:\s+as\s+[\w$]+)?|\{[^}]*\})\s*from\s*(['"])([^'"]+)\3/g;
const CALL_IMPORT = /(typeof\s+)?(?<![\w$.])import\s*\(\s*(['"`])([^'"`]+)\2\s*\)(\s*\.\s*[\w$]+)?/g;
const REQUIRE = /(?<![\w$.])require\s*\(\s*(['"])([^'"]+)\1\s*\)/g;

/** Every module specifier a TypeScript source names: import/export … from, import(), import('x').T, require(). */
export function importsIn(text: string): RawImport[] {
  const code = codeOnly(text);
  const found: { at: number; raw: RawImport }[] = [];
  const allTypes = (clause: string): boolean => {
    const braces = /^\{([^}]*)\}$/.exec(clause.trim());
    const names =
      braces?.[1]
        ?.split(',')
        .map((n) => n.trim())
        .filter((n) => n !== '') ?? [];
    return names.length > 0 && names.every((n) => n.startsWith('type '));
  };
  for (const m of code.matchAll(STATIC_IMPORT)) {
    found.push({
      at: m.index,
      raw: { spec: m[4] ?? '', typeOnly: m[1] !== undefined || allTypes(m[2] ?? ''), dynamic: false },
    });
  }
  for (const m of code.matchAll(BARE_IMPORT))
    found.push({ at: m.index, raw: { spec: m[2] ?? '', typeOnly: false, dynamic: false } });
  for (const m of code.matchAll(RE_EXPORT)) {
    found.push({
      at: m.index,
      raw: { spec: m[4] ?? '', typeOnly: m[1] !== undefined || allTypes(m[2] ?? ''), dynamic: false },
    });
  }
  for (const m of code.matchAll(CALL_IMPORT)) {
    // `import('x').Name` and `typeof import('x')` name a type; `import('x')` alone loads a module.
    const member = m[4]?.replace(/[\s.]/g, '');
    const typeOnly = m[1] !== undefined || (member !== undefined && !['then', 'catch', 'finally'].includes(member));
    found.push({ at: m.index + (m[1]?.length ?? 0), raw: { spec: m[3] ?? '', typeOnly, dynamic: !typeOnly } });
  }
  for (const m of code.matchAll(REQUIRE))
    found.push({ at: m.index, raw: { spec: m[2] ?? '', typeOnly: false, dynamic: false } });
  return found.sort((a, b) => a.at - b.at).map((f) => f.raw);
}

/** A relative specifier as the repository path of its TypeScript source; a bare one as itself. */
function resolveSpec(from: string, spec: string): string {
  if (!spec.startsWith('.')) return spec;
  const target = resolve(root, dirname(from), spec);
  for (const candidate of [target.replace(/\.js$/, '.ts'), target, join(target, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return relative(root, candidate).split('\\').join('/');
  }
  return relative(root, target).split('\\').join('/');
}

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts')
      ? [path]
      : [];
  });
}

/** The import graph of every non-test module under src/. */
export function importGraphOf(dir = 'src'): ImportGraph {
  const graph = new Map<string, ImportEdge[]>();
  for (const file of sourceFiles(dir)) {
    const raw = importsIn(readFileSync(join(root, file), 'utf8'));
    graph.set(
      file,
      raw.map((r) => ({ from: file, to: resolveSpec(file, r.spec), typeOnly: r.typeOnly, dynamic: r.dynamic })),
    );
  }
  return graph;
}

// ---- the rules ---------------------------------------------------------------------------------

const isBare = (to: string): boolean =>
  !to.startsWith('src/') && !to.startsWith('test/') && !to.startsWith('..') && !to.includes('/src/');
const edgesOf = (graph: ImportGraph): ImportEdge[] => [...graph.values()].flat();
const show = (e: ImportEdge): string =>
  `${e.from} -> ${e.to}${e.dynamic ? ' (dynamic)' : ''}${e.typeOnly ? ' (type)' : ''}`;

/** The Node built-ins the pure core may use: hashing only (no files, no clock, no processes). */
export const CORE_BUILTINS: ReadonlySet<string> = new Set(['node:crypto']);

/** Rule 1: a core module imports only core modules and the allowed built-ins. */
export function coreViolations(graph: ImportGraph): string[] {
  return edgesOf(graph)
    .filter((e) => e.from.startsWith('src/core/'))
    .filter((e) => (isBare(e.to) ? !CORE_BUILTINS.has(e.to) : !e.to.startsWith('src/core/')))
    .map(show);
}

/** The surfaces: each a top folder of src/ that talks to a user or an agent. */
export const SURFACES: readonly string[] = ['cli', 'mcp', 'web', 'hooks', 'adapters', 'http'];
/** Store drivers, reached only through src/store. */
export const DRIVERS: readonly string[] = [
  'better-sqlite3',
  'pg',
  'pg-copy-streams',
  'pgvector',
  '@electric-sql/pglite',
];

export const topFolder = (file: string): string =>
  file.startsWith('src/') ? (file.slice(4).split('/').length > 1 ? (file.slice(4).split('/')[0] ?? '') : 'src') : file;

/** An explicit exception: one import (from → to, both repository paths) and why it stays. */
export interface Allowed {
  readonly from: string;
  readonly to: string;
  readonly why: string;
}

/**
 * Rule 2: a surface imports no driver, no value from src/store (its types are allowed: they carry no
 * driver) and no other surface, except the folder pairs and imports allowed by name.
 */
export function surfaceViolations(
  graph: ImportGraph,
  allowed: readonly Allowed[] = [],
  surfaceEdges: readonly Allowed[] = [],
): string[] {
  const isAllowed = (e: ImportEdge): boolean => allowed.some((a) => a.from === e.from && a.to === e.to);
  const folderAllowed = (from: string, to: string): boolean => surfaceEdges.some((a) => a.from === from && a.to === to);
  return edgesOf(graph)
    .filter((e) => SURFACES.includes(topFolder(e.from)))
    .filter((e) => {
      if (isBare(e.to)) return DRIVERS.some((d) => e.to === d || e.to.startsWith(`${d}/`));
      const to = topFolder(e.to);
      if (to === 'store') return !e.typeOnly && !isAllowed(e);
      return (
        SURFACES.includes(to) && to !== topFolder(e.from) && !folderAllowed(topFolder(e.from), to) && !isAllowed(e)
      );
    })
    .map(show);
}

/** Rule 3 (layers): nothing below the surfaces imports a surface. */
export function layerViolations(graph: ImportGraph): string[] {
  return edgesOf(graph)
    .filter((e) => !SURFACES.includes(topFolder(e.from)) && topFolder(e.from) !== 'src')
    .filter((e) => !isBare(e.to) && SURFACES.includes(topFolder(e.to)))
    .map(show);
}

/** The strongly connected components with more than one node (or a self-loop): Tarjan's algorithm. */
export function cyclesOf(nodes: Iterable<string>, next: (node: string) => Iterable<string>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  let counter = 0;
  const connect = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter);
    counter += 1;
    stack.push(v);
    onStack.add(v);
    let selfLoop = false;
    for (const w of next(v)) {
      if (w === v) selfLoop = true;
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v) ?? 0, index.get(w) ?? 0));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string | undefined;
      do {
        w = stack.pop();
        if (w === undefined) break;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || selfLoop) cycles.push(component.sort());
    }
  };
  for (const v of nodes) if (!index.has(v)) connect(v);
  return cycles.sort((a, b) => (a[0] ?? '').localeCompare(b[0] ?? ''));
}

/** Rule 4a: no cycle between files (type-only imports count). */
export function fileCycles(graph: ImportGraph): string[][] {
  return cyclesOf(graph.keys(), (file) => (graph.get(file) ?? []).map((e) => e.to).filter((to) => graph.has(to)));
}

/**
 * A file's folder: its directory under src/ (`core/graph`, `engine`, `store/sqlite`). A folder's
 * `index.ts` (its public face, which re-exports its sub-folders) is a node of its own, `core#index`:
 * sub-folders may use their parent's base modules (core/errors) while the parent's index re-exports them.
 */
export const folderOf = (file: string): string => {
  const folder = dirname(file).replace(/^src\/?/, '') || 'src';
  return file.endsWith('/index.ts') ? `${folder}#index` : folder;
};

/** Rule 4b: no cycle between folders, at the given folder granularity. */
export function folderCycles(graph: ImportGraph, folder: (file: string) => string = folderOf): string[][] {
  const next = new Map<string, Set<string>>();
  for (const e of edgesOf(graph)) {
    if (!graph.has(e.to)) continue;
    const [a, b] = [folder(e.from), folder(e.to)];
    if (a === b) continue;
    if (!next.has(a)) next.set(a, new Set());
    next.get(a)?.add(b);
  }
  const folders = new Set([...graph.keys()].map(folder));
  return cyclesOf(folders, (f) => next.get(f) ?? []);
}

// ---- the exceptions of the real tree, each with why --------------------------------------------

/** Surface folders that may import another surface, by design. */
const SURFACE_EDGES: readonly Allowed[] = [
  // The command line is the launcher: `credence serve` starts the MCP server, `credence hook` runs the
  // Claude Code hooks, `credence init claude-code` installs them.
  { from: 'cli', to: 'mcp', why: 'credence serve / mcp start the MCP server' },
  { from: 'cli', to: 'hooks', why: 'credence hook runs the hooks; credence init installs them' },
  { from: 'cli', to: 'web', why: 'credence serve --dashboard starts the dashboard' },
  // `credence serve` runs the MCP server and the dashboard on one HTTP server: mcp/serve composes them.
  { from: 'mcp', to: 'web', why: 'mcp/serve mounts the dashboard beside /mcp' },
  { from: 'cli', to: 'http', why: 'shared HTTP plumbing' },
  { from: 'mcp', to: 'http', why: 'shared HTTP plumbing' },
  { from: 'web', to: 'http', why: 'shared HTTP plumbing' },
];

/** Value imports of src/store from a surface, by name. Everything else goes through the engine. */
const STORE_ALLOWED: readonly Allowed[] = [
  // Issue 18 item 2: every hook opens its store through this one fast opener, without the engine,
  // because a hook runs on every tool call.
  { from: 'src/hooks/open-store.ts', to: 'src/store/open/open-store.ts', why: 'the hooks’ one fast opener' },
  { from: 'src/hooks/open-store.ts', to: 'src/store/sqlite/sqlite-store.ts', why: 'the hooks’ one fast opener' },
  {
    from: 'src/hooks/open-store.ts',
    to: 'src/store/sqlite/damaged.ts',
    why: 'the hooks’ one fast opener asks whether the store it would learn into is marked damaged (walk 20, item 9)',
  },
];

/** Folder cycles of the real tree left for a later change, each with why (reported). */
const FOLDER_CYCLES_ALLOWED: readonly (readonly string[])[] = [];
/** File cycles of the real tree left for a later change, each with why (reported). */
const FILE_CYCLES_ALLOWED: readonly (readonly string[])[] = [];

// ---- the rules on a planted graph: each one fails on a violation ---------------------------------

function planted(edges: readonly (readonly [string, string, Partial<ImportEdge>?])[]): ImportGraph {
  const graph = new Map<string, ImportEdge[]>();
  for (const [from, to, extra] of edges) {
    if (!graph.has(from)) graph.set(from, []);
    if (to.startsWith('src/') && !graph.has(to)) graph.set(to, []);
    graph.get(from)?.push({ from, to, typeOnly: false, dynamic: false, ...extra });
  }
  return graph;
}

describe('the architecture rules on a planted graph', () => {
  it('finds static, type-only, re-exported and dynamic imports in source text', () => {
    const text = [
      "import { a } from './a.js';",
      "import type { B } from '../store/types.js';",
      "import { type C } from './c.js';",
      "export * from './d.js';",
      "const later = async () => import('../cli/main.js');",
      "type E = import('./e.js').E;",
      "// import { f } from './f.js' (a comment is not an import)",
      'const g = /[\'"]/.test(x) ? \'import("./g.js")\' : `text`;',
      "const h = require('node:fs');",
    ].join('\n');
    expect(importsIn(text)).toEqual([
      { spec: './a.js', typeOnly: false, dynamic: false },
      { spec: '../store/types.js', typeOnly: true, dynamic: false },
      { spec: './c.js', typeOnly: true, dynamic: false },
      { spec: './d.js', typeOnly: false, dynamic: false },
      { spec: '../cli/main.js', typeOnly: false, dynamic: true },
      { spec: './e.js', typeOnly: true, dynamic: false },
      { spec: 'node:fs', typeOnly: false, dynamic: false },
    ]);
  });

  it('a core file that imports the store, a surface dynamically, or a file built-in breaks the core rule', () => {
    const graph = planted([
      ['src/core/graph/a.ts', 'src/core/errors.ts'],
      ['src/core/graph/a.ts', 'node:crypto'],
      ['src/core/bad.ts', 'src/store/types.ts', { typeOnly: true }],
      ['src/core/bad.ts', 'src/cli/main.ts', { dynamic: true }],
      ['src/core/bad.ts', 'node:fs'],
      ['src/core/bad.ts', 'zod'],
    ]);
    expect(coreViolations(graph)).toEqual([
      'src/core/bad.ts -> src/store/types.ts (type)',
      'src/core/bad.ts -> src/cli/main.ts (dynamic)',
      'src/core/bad.ts -> node:fs',
      'src/core/bad.ts -> zod',
    ]);
  });

  it('a surface that imports a driver, a store module or another surface breaks the surface rule', () => {
    const graph = planted([
      ['src/hooks/a.ts', 'better-sqlite3'],
      ['src/web/a.ts', 'pg'],
      ['src/cli/a.ts', 'src/store/sqlite/sqlite-store.ts'],
      ['src/cli/a.ts', 'src/store/types.ts', { typeOnly: true }],
      ['src/web/a.ts', 'src/mcp/http.ts'],
      ['src/hooks/a.ts', 'src/cli/main.ts'],
      ['src/cli/b.ts', 'src/hooks/install.ts'],
      ['src/mcp/a.ts', 'src/engine/engine.ts'],
      ['src/hooks/open.ts', 'src/store/open.ts'],
    ]);
    expect(
      surfaceViolations(
        graph,
        [{ from: 'src/hooks/open.ts', to: 'src/store/open.ts', why: 'planted' }],
        [{ from: 'cli', to: 'hooks', why: 'planted' }],
      ),
    ).toEqual([
      'src/hooks/a.ts -> better-sqlite3',
      'src/hooks/a.ts -> src/cli/main.ts',
      'src/web/a.ts -> pg',
      'src/web/a.ts -> src/mcp/http.ts',
      'src/cli/a.ts -> src/store/sqlite/sqlite-store.ts',
    ]);
  });

  it('an engine or store module that imports a surface breaks the layer rule', () => {
    const graph = planted([
      ['src/engine/a.ts', 'src/web/api.ts'],
      ['src/store/a.ts', 'src/core/errors.ts'],
      ['src/index.ts', 'src/mcp/index.ts'],
    ]);
    expect(layerViolations(graph)).toEqual(['src/engine/a.ts -> src/web/api.ts']);
  });

  it('a cycle between files, type-only included, is reported by its files', () => {
    const graph = planted([
      ['src/engine/a.ts', 'src/engine/b.ts'],
      ['src/engine/b.ts', 'src/engine/c.ts'],
      ['src/engine/c.ts', 'src/engine/a.ts', { typeOnly: true }],
      ['src/engine/d.ts', 'src/engine/a.ts'],
    ]);
    expect(fileCycles(graph)).toEqual([['src/engine/a.ts', 'src/engine/b.ts', 'src/engine/c.ts']]);
  });

  it('a cycle between folders is reported by its folders, though no file cycle makes it', () => {
    const graph = planted([
      ['src/mcp/serve.ts', 'src/web/server.ts'],
      ['src/web/server.ts', 'src/mcp/http.ts'],
      ['src/core/a.ts', 'src/core/graph/b.ts'],
    ]);
    expect(fileCycles(graph)).toEqual([]);
    expect(folderCycles(graph)).toEqual([['mcp', 'web']]);
    expect(folderCycles(graph, topFolder)).toEqual([['mcp', 'web']]);
  });

  it('a folder index that re-exports its sub-folders makes no folder cycle with them', () => {
    const graph = planted([
      ['src/core/index.ts', 'src/core/graph/a.ts'],
      ['src/core/graph/a.ts', 'src/core/errors.ts'],
    ]);
    expect(folderCycles(graph)).toEqual([]);
    expect(
      folderCycles(
        planted([
          ...([['src/core/scope.ts', 'src/core/text/b.ts']] as const),
          ['src/core/text/b.ts', 'src/core/errors.ts'],
        ]),
      ),
    ).toEqual([['core', 'core/text']]);
  });
});

// ---- the rules on the real tree ------------------------------------------------------------------

describe('the architecture of src/', () => {
  const graph = importGraphOf();

  it('has modules to check, in the layers ls src shows', () => {
    expect(graph.size).toBeGreaterThan(150);
    expect(
      readdirSync(join(root, 'src'))
        .filter((f) => !f.includes('.'))
        .sort(),
    ).toEqual(
      [
        'adapters',
        'cli',
        'core',
        'datasets',
        'embed',
        'engine',
        'hooks',
        'http',
        'mcp',
        'platform',
        'schemas',
        'store',
        'web',
      ].sort(),
    );
  });

  it('the core imports nothing outside itself (dynamic imports included) and only allowed built-ins', () => {
    expect(coreViolations(graph)).toEqual([]);
  });

  it('surfaces import no driver, no store module but its types (save named exceptions) and no other surface', () => {
    expect(surfaceViolations(graph, STORE_ALLOWED, SURFACE_EDGES)).toEqual([]);
  });

  it('every named exception is still used (a stale one is removed)', () => {
    const edges = edgesOf(graph);
    const unused = STORE_ALLOWED.filter((a) => !edges.some((e) => e.from === a.from && e.to === a.to && !e.typeOnly));
    expect(unused).toEqual([]);
  });

  it('the engine reaches a store backend only through the factory (store/open) and the contract', () => {
    // Before: engine.ts imported store/sqlite/migrations for the SQLite schema version a dump is checked against.
    const backend = /^src\/store\/(?:sqlite|postgres)\//;
    const edges = edgesOf(graph).filter((e) => e.from.startsWith('src/engine/') && backend.test(e.to));
    expect(edges.map(show)).toEqual([]);
  });

  it('nothing below the surfaces imports a surface', () => {
    expect(layerViolations(graph)).toEqual([]);
  });

  it('no import cycle between files', () => {
    expect(fileCycles(graph).filter((c) => !FILE_CYCLES_ALLOWED.some((a) => a.join() === c.join()))).toEqual([]);
  });

  it('no import cycle between folders, top folders or sub-folders', () => {
    expect(
      folderCycles(graph, topFolder).filter((c) => !FOLDER_CYCLES_ALLOWED.some((a) => a.join() === c.join())),
    ).toEqual([]);
    expect(folderCycles(graph).filter((c) => !FOLDER_CYCLES_ALLOWED.some((a) => a.join() === c.join()))).toEqual([]);
  });

  const coreFiles = [...graph.keys()].filter((f) => f.startsWith('src/core/'));
  it.each(coreFiles)('%s reads no clock and draws no random numbers', (file) => {
    const code = readFileSync(join(root, file), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
    expect(code).not.toMatch(/\bDate\.now\(|\bnew Date\(\)|\bMath\.random\(|\bperformance\.now\(|\bprocess\./);
  });
});
