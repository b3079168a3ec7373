/**
 * @module bench/hooks
 * The hook process from spawn to exit (issue 9; SPEC §11): `credence hook claude-code` for a
 * PostToolUse, a PreToolUse and a UserPromptSubmit against a store of 10,000 memories, each beside
 * `node -e 0` measured in the same rounds (interleaved, so machine noise falls on all alike).
 * Targets: median ≤ 1.5× `node -e 0` for PostToolUse, ≤ 2× for UserPromptSubmit.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { engineStore, openCredence } from '../src/engine/engine.js';
import { benchMemories, loadData } from './recall.js';
import { median, type BenchRow } from './table.js';

const bin = fileURLToPath(new URL('../../bin/credence.cjs', import.meta.url));

function timeProcess(args: string[], input: string, env: NodeJS.ProcessEnv, cwd: string): number {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, args, { input, env, cwd, encoding: 'utf8' });
  const ms = performance.now() - t0;
  if (r.status !== 0 || (r.stderr ?? '') !== '') throw new Error(`${args.join(' ')} failed: ${r.stderr}`);
  return ms;
}

export async function benchHooks(options: { rounds?: number; memories?: number } = {}): Promise<BenchRow[]> {
  const rounds = options.rounds ?? 40;
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
    const env = { PATH: process.env.PATH ?? '', HOME: dir, CREDENCE_DB: db };
    const base = {
      session_id: 'bench-session',
      transcript_path: join(dir, 't.jsonl'),
      cwd: project,
      permission_mode: 'default',
    };
    const post = JSON.stringify({
      ...base,
      hook_event_name: 'PostToolUse',
      tool_name: 'Read',
      tool_input: { file_path: join(project, 'src/app.ts') },
      tool_response: { type: 'text', file: { content: 'x'.repeat(4000) } },
      tool_use_id: 'toolu_1',
    });
    const pre = JSON.stringify({
      ...base,
      hook_event_name: 'PreToolUse',
      tool_name: 'Read',
      tool_input: { file_path: join(project, 'src/app.ts') },
      tool_use_id: 'toolu_1',
    });
    const queries = data.queries.slice(0, rounds);
    const times = { node: [] as number[], post: [] as number[], pre: [] as number[], prompt: [] as number[] };
    // One of each first (the OS file cache, the first migration), not measured.
    timeProcess([bin, 'hook', 'claude-code'], post, env, project);
    for (let i = 0; i < rounds; i += 1) {
      times.node.push(timeProcess(['-e', '0'], '', env, project));
      times.post.push(timeProcess([bin, 'hook', 'claude-code'], post, env, project));
      times.pre.push(timeProcess([bin, 'hook', 'claude-code'], pre, env, project));
      const prompt = JSON.stringify({
        ...base,
        hook_event_name: 'UserPromptSubmit',
        prompt: queries[i % queries.length] ?? 'search',
      });
      times.prompt.push(timeProcess([bin, 'hook', 'claude-code'], prompt, env, project));
    }
    const n = median(times.node);
    const row = (what: string, values: number[], target: number | undefined): BenchRow => {
      const ratio = median(values) / n;
      return {
        benchmark: `hook process, ${what}`,
        measure: `median of ${rounds}, spawn to exit`,
        value: `${median(values).toFixed(1)} ms`,
        reference: `node -e 0: ${n.toFixed(1)} ms`,
        ratio: `${ratio.toFixed(2)}×`,
        target: target === undefined ? '—' : `≤ ${target}×: ${ratio <= target ? 'met' : 'not met'}`,
      };
    };
    return [
      row('PostToolUse', times.post, 1.5),
      row('PreToolUse', times.pre, undefined),
      row(`UserPromptSubmit, ${size.toLocaleString('en-US')} memories (${data.source})`, times.prompt, 2),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
