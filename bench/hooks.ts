/**
 * @module bench/hooks
 * Cold starts as processes, spawn to exit (issues 9 and 20; SPEC §11): `credence hook claude-code`
 * for each Claude Code event (a PostToolUse, a PreToolUse, a Stop, a SessionStart, a
 * UserPromptSubmit with V8's code cache and without it, as in a read-only install) and `credence
 * --help` / `credence status`, each beside `node -e 0` measured in the same rounds (interleaved, so
 * machine noise falls on all alike). Targets: ≤ 1.5× `node -e 0` for every hook but the prompt,
 * ≤ 2× for UserPromptSubmit and the two commands. `measureHooks` runs them on any store (the scale
 * section's 100,000 memories); `benchHooks` on a store of 10,000 memories of its own.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { engineStore, openCredence } from '../src/engine/engine.js';
import { benchMemories, loadData } from './recall.js';
import { median, type BenchRow } from './table.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
/** How long the round waits after a hook that hands its learning to a process of its own. */
const SETTLE_MS = 500;

function timeProcess(args: string[], input: string, env: NodeJS.ProcessEnv, cwd: string): number {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, args, { input, env, cwd, encoding: 'utf8' });
  const ms = performance.now() - t0;
  if (r.status !== 0 || (r.stderr ?? '') !== '') throw new Error(`${args.join(' ')} failed: ${r.stderr}`);
  return ms;
}

/**
 * A copy of the package's executable and bundles (node_modules linked) where no code cache can be
 * kept: each `<bundle>.cache` is a folder, which can be neither read nor replaced.
 */
function packageWithoutCache(dir: string): string {
  const pkg = join(dir, 'pkg-no-cache');
  mkdirSync(join(pkg, 'dist'), { recursive: true });
  cpSync(join(root, 'bin'), join(pkg, 'bin'), { recursive: true });
  copyFileSync(join(root, 'package.json'), join(pkg, 'package.json'));
  symlinkSync(join(root, 'node_modules'), join(pkg, 'node_modules'));
  for (const name of readdirSync(join(root, 'dist')).filter((n) => n.endsWith('.cjs'))) {
    copyFileSync(join(root, 'dist', name), join(pkg, 'dist', name));
    mkdirSync(join(pkg, 'dist', `${name}.cache`));
  }
  return pkg;
}

export interface HookMeasureOptions {
  /** The SQLite file the hooks read and learn into. */
  db: string;
  /** A git project the events come from (a `.git` folder is enough). */
  project: string;
  /** The prompts, used in turn. */
  queries: readonly string[];
  /** The scope the store's memories are in, when it is not the project's (CREDENCE_SCOPE). */
  scope?: string;
  /** Rounds of every process (default 20). */
  rounds?: number;
  /** Named in the prompt rows, e.g. "10,000 memories". */
  label?: string;
}

/**
 * Every hook event and `--help` / `status` as processes against `db`, each round `node -e 0` first;
 * one row each: the median, beside `node -e 0`'s median, the ratio and its target.
 */
export function measureHooks(options: HookMeasureOptions): BenchRow[] {
  const rounds = options.rounds ?? 20;
  const dir = mkdtempSync(join(tmpdir(), 'credence-bench-cold-'));
  try {
    const bin = join(root, 'bin', 'credence.cjs');
    const uncached = join(packageWithoutCache(dir), 'bin', 'credence.cjs');
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: dir,
      CREDENCE_DB: options.db,
      ...(options.scope === undefined ? {} : { CREDENCE_SCOPE: options.scope }),
    };
    const base = {
      session_id: 'bench-session',
      transcript_path: join(dir, 't.jsonl'),
      cwd: options.project,
      permission_mode: 'default',
    };
    const tool = { tool_name: 'Read', tool_input: { file_path: join(options.project, 'src/app.ts') } };
    const event = (name: string, fields: object = {}) => JSON.stringify({ ...base, hook_event_name: name, ...fields });
    const prompt = (i: number) => event('UserPromptSubmit', { prompt: options.queries[i % options.queries.length] });
    const hook = (b: string, input: (i: number) => string) => (i: number) =>
      timeProcess([b, 'hook', 'claude-code'], input(i), env, options.project);
    const command = (args: string[]) => () => timeProcess([bin, ...args], '', env, options.project);
    const label = options.label === undefined ? '' : `, ${options.label}`;
    // A stop or a session start leaves a learning process behind: the next process waits until it is likely done, so
    // that it is not timed against it (Claude Code runs no hook right after a stop).
    const settle = (run: (i: number) => number) => (i: number) => {
      const ms = run(i);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, SETTLE_MS);
      return ms;
    };
    const measures: { what: string; target: number; run: (i: number) => number }[] = [
      {
        what: 'hook PostToolUse',
        target: 1.5,
        run: hook(bin, () =>
          event('PostToolUse', { ...tool, tool_response: { file: { content: 'x'.repeat(4000) } }, tool_use_id: 't1' }),
        ),
      },
      { what: 'hook PreToolUse', target: 1.5, run: hook(bin, () => event('PreToolUse', { ...tool })) },
      { what: 'hook Stop', target: 1.5, run: settle(hook(bin, () => event('Stop', { stop_hook_active: false }))) },
      {
        what: 'hook SessionStart',
        target: 1.5,
        run: settle(hook(bin, () => event('SessionStart', { source: 'startup' }))),
      },
      { what: `hook UserPromptSubmit${label}, code cache`, target: 2, run: hook(bin, prompt) },
      { what: `hook UserPromptSubmit${label}, no code cache`, target: 2, run: hook(uncached, prompt) },
      { what: 'credence --help', target: 2, run: command(['--help']) },
      { what: `credence status${label}`, target: 2, run: command(['status']) },
    ];
    // One of each first (the OS file cache, a first migration, the code caches), not measured.
    for (const m of measures) m.run(0);
    const node: number[] = [];
    const times = measures.map(() => [] as number[]);
    for (let i = 0; i < rounds; i += 1) {
      node.push(timeProcess(['-e', '0'], '', env, options.project));
      measures.forEach((m, k) => times[k]?.push(m.run(i)));
    }
    const n = median(node);
    return measures.map((m, k) => {
      const value = median(times[k] ?? []);
      const ratio = value / n;
      return {
        benchmark: `process, ${m.what}`,
        measure: `median of ${rounds}, spawn to exit`,
        value: `${value.toFixed(1)} ms`,
        reference: `node -e 0: ${n.toFixed(1)} ms`,
        ratio: `${ratio.toFixed(2)}×`,
        target: `≤ ${m.target}×: ${ratio <= m.target ? 'met' : 'not met'}`,
      };
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `measureHooks` on a store of `memories` memories (10,000 by default) made for the purpose. */
export async function benchHooks(options: { rounds?: number; memories?: number } = {}): Promise<BenchRow[]> {
  const size = options.memories ?? 10_000;
  const dir = mkdtempSync(join(tmpdir(), 'credence-bench-hooks-'));
  try {
    const project = join(dir, 'project');
    mkdirSync(join(project, '.git'), { recursive: true });
    writeFileSync(join(project, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    const db = join(dir, 'bench.db');
    const data = loadData();
    const credence = await openCredence({ db, cwd: project, now: '2026-03-01T09:00:00Z' });
    await engineStore(credence).upsertMemories(credence.scope, benchMemories(data.tools, size));
    // Embeddings are computed once and stored, as the first recall in a real store does.
    await credence.recall(data.queries[0] ?? 'search', { track: false });
    await credence.close();
    return measureHooks({
      db,
      project,
      queries: data.queries.slice(0, 40),
      rounds: options.rounds ?? 20,
      label: `${size.toLocaleString('en-US')} memories (${data.source})`,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
