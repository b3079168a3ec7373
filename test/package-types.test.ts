/**
 * The types a library user writes (walk 7, item 8): a consumer in a scratch folder imports `credence` the way an
 * installed package is imported (through the `exports` map, which blocks `credence/dist/…`) and names, with
 * `import type`, every type the Credence class's methods and `openCredence`'s options take or return, read from the
 * built engine.d.ts; each must be the very type of the signature. Every TypeScript example of docs/library.md
 * compiles there too (strict, `skipLibCheck: false`, nodenext). One `tsc` run on `dist/` as `npm run build` left it.
 */
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../', import.meta.url));
const tsc = join(repo, 'node_modules', 'typescript', 'bin', 'tsc');
const engineDts = join(repo, 'dist', 'src', 'engine', 'engine.d.ts');
const root = mkdtempSync(join(tmpdir(), 'credence-types-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The public name of a type whose name in engine.ts is taken by another export of the entry. */
const PUBLIC_NAME: Record<string, string> = { ObservationDraft: 'ObserveNowInput' };

/** Where each type the declarations of Credence, CredenceOptions, Status and openCredence name comes from. */
function signatureTypes(dts: string): { name: string; from: string }[] {
  const imported = new Map<string, string>();
  const namespaces = new Map<string, string>();
  for (const [, names, from] of dts.matchAll(/^import (?:type )?\{([^}]*)\} from '([^']+)';$/gm))
    for (const name of (names ?? '').split(',').map((n) => n.replace(/^\s*type\s+/, '').trim()))
      if (name !== '') imported.set(name, from as string);
  for (const [, ns, from] of dts.matchAll(/^import \* as (\w+) from '([^']+)';$/gm))
    namespaces.set(ns as string, from as string);
  const local = new Set([...dts.matchAll(/^export (?:declare )?(?:interface|type|class) (\w+)/gm)].map((m) => m[1]));
  const declarations = ['interface CredenceOptions', 'interface Status', 'class Credence']
    .map((head) => new RegExp(`^export (?:declare )?${head}\\b[\\s\\S]*?^\\}`, 'm').exec(dts)?.[0] ?? '')
    .concat(/^export declare function openCredence.*$/m.exec(dts)?.[0] ?? '')
    .join('\n')
    .replace(/\/\*\*[\s\S]*?\*\//g, '');
  const found = new Map<string, { name: string; from: string }>();
  for (const [, ns = '', name = ''] of declarations.matchAll(/\b(\w+)\.([A-Z]\w*)\b/g)) {
    const from = namespaces.get(ns);
    if (from !== undefined) found.set(name, { name, from });
  }
  for (const [name] of declarations.matchAll(/\b[A-Z]\w*\b/g)) {
    if (imported.has(name)) found.set(name, { name, from: imported.get(name) as string });
    else if (local.has(name)) found.set(name, { name, from: './engine.js' });
  }
  return [...found.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** A consumer naming each of them from `credence`, checked equal to the declaration's own type. */
function consumer(types: readonly { name: string; from: string }[]): string {
  // The very files `credence` resolves to (not through the link, which would load them a second time).
  const engine = relative(root, join(realpathSync(repo), 'dist', 'src', 'engine'))
    .split(sep)
    .join('/');
  const internal = (from: string) => posix.join(engine, from);
  const lines = [
    "import { openCredence, openAiProvider, ollamaProvider, transformersProvider } from 'credence';",
    "import { wordVectorProvider } from 'credence';",
    "import { createEmbeddingProvider, resolveEmbeddingConfig } from 'credence';",
    `import type { ${types.map((t) => PUBLIC_NAME[t.name] ?? t.name).join(', ')} } from 'credence';`,
    ...types.map((t, i) => `import type { ${t.name} as Internal${i} } from '${internal(t.from)}';`),
    'type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;',
    ...types.map((t, i) => `export const same${t.name}: Same<${PUBLIC_NAME[t.name] ?? t.name}, Internal${i}> = true;`),
    'const embedder: EmbeddingProvider = wordVectorProvider();',
    "const credence: Credence = await openCredence({ db: ':memory:', scope: 'p', embedder });",
    "const hits: RecallResult[] = await credence.recall('redis');",
    'export const fromEnv: EmbeddingProvider = createEmbeddingProvider(resolveEmbeddingConfig(process.env));',
    'export const providers = [openAiProvider, ollamaProvider, transformersProvider, hits];',
    '',
  ];
  return lines.join('\n');
}

/** The ```ts blocks of a guide. */
function typeScriptExamples(markdown: string): string[] {
  return [...markdown.matchAll(/^```ts\n([\s\S]*?)^```/gm)].map((m) => m[1] as string);
}

let output = '';
const examples = typeScriptExamples(readFileSync(join(repo, 'docs', 'library.md'), 'utf8'));

beforeAll(() => {
  if (!existsSync(engineDts)) throw new Error('dist/ is not built: run `npm run build` (npm test does) first');
  mkdirSync(join(root, 'node_modules', '@types'), { recursive: true });
  // The package as an install links it: its `exports` map applies, as in a user's project.
  symlinkSync(repo, join(root, 'node_modules', 'credence'), 'dir');
  for (const dep of ['pocketflow', '@types/node'])
    symlinkSync(join(repo, 'node_modules', dep), join(root, 'node_modules', dep), 'dir');
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  writeFileSync(join(root, 'public-types.ts'), consumer(signatureTypes(readFileSync(engineDts, 'utf8'))));
  writeFileSync(join(root, 'blocked.ts'), "import type { Credence } from 'credence/dist/src/engine/engine.js';\n");
  examples.forEach((code, i) => writeFileSync(join(root, `library-${i + 1}.ts`), code));
  const compilerOptions = {
    strict: true,
    skipLibCheck: false,
    noEmit: true,
    module: 'nodenext',
    moduleResolution: 'nodenext',
    target: 'es2022',
    types: ['node'],
  };
  writeFileSync(join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['*.ts'] }));
  const r = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.json', '--pretty', 'false'], {
    cwd: root,
    encoding: 'utf8',
    timeout: 120_000,
  });
  output = `${r.stdout}${r.stderr}`;
}, 150_000);

/** The compiler's errors in the files a pattern matches, each with the line of code it points at. */
function errorsOf(file: RegExp): string[] {
  return output
    .split('\n')
    .filter((line) => file.test(line))
    .map((line) => {
      const [, name = '', at = '1'] = /^([^(]+)\((\d+),/.exec(line) ?? [];
      const code = existsSync(join(root, name))
        ? readFileSync(join(root, name), 'utf8').split('\n')[Number(at) - 1]
        : '';
      return `${line}\n    at: ${code?.trim()}`;
    });
}

describe('the types of the library API, from the package entry (walk 7, item 8)', () => {
  it('names every type the Credence methods and openCredence options take or return', () => {
    const names = signatureTypes(readFileSync(engineDts, 'utf8')).map((t) => t.name);
    // The ones a newcomer missed, found from the signatures.
    const missed = ['MemoryInput', 'ToolInput', 'ObservationInput', 'EmbeddingProvider', 'RecallRequest', 'AppendHead'];
    missed.push('ToolSearchRequest', 'RecallResult', 'LearnedToolResult', 'NextSuggestion', 'DagSuggestion');
    missed.push('EdgeView', 'RecordResult', 'EvolveReport', 'CalibrationReport', 'FeedbackResult', 'Metrics');
    missed.push('GraphStats', 'WorkflowView', 'Shown', 'ProbabilityInfo');
    expect(names).toEqual(expect.arrayContaining(missed));
    expect(errorsOf(/^public-types\.ts\(/)).toEqual([]);
  });

  it('the package keeps its inside closed: credence/dist/… does not resolve', () => {
    expect(errorsOf(/^blocked\.ts\(/).join('\n')).toMatch(/error TS2307/);
  });

  it('every TypeScript example of docs/library.md compiles', () => {
    expect(examples.length).toBeGreaterThanOrEqual(2);
    expect(errorsOf(/^library-\d+\.ts\(/)).toEqual([]);
  });

  it('the compiler found nothing else', () => {
    expect(
      errorsOf(/error TS/).filter((line) => !line.startsWith('blocked.ts(')),
      output,
    ).toEqual([]);
  });
});
