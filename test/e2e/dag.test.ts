import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { storeArgs } from '../pg.js';

const bin = fileURLToPath(new URL('../../bin/credence.cjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'credence-dag-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function credence(db: string, args: string[], input?: string) {
  const r = spawnSync(
    process.execPath,
    [bin, ...storeArgs(join(dir, db)), '--scope', 'deno', '--now', '2026-03-01T00:00:00Z', ...args],
    {
      cwd: dir,
      encoding: 'utf8',
      input,
      env: { ...process.env, HOME: dir, CREDENCE_EMBEDDINGS: '' },
    },
  );
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const catalogue = [
  {
    id: 'filesystem:read_text_file',
    description: 'Read the complete contents of a file from the file system as text.',
  },
  { id: 'filesystem:write_file', description: 'Create a new file or overwrite an existing file with new content.' },
  {
    id: 'filesystem:list_directory',
    description: 'Get a detailed listing of all files and directories in a specified path.',
  },
  { id: 'github:create_issue', description: 'Create a new issue in a GitHub repository.' },
]
  .map((t) => JSON.stringify(t))
  .join('\n');

describe('credence dag (issue 4)', () => {
  it('suggests the read tool for "Read the deno.json file" on an empty graph with cold-start weights (ADR-026)', () => {
    expect(credence('adr026.db', ['tools', 'add', '--jsonl', '-'], catalogue).code).toBe(0);
    const r = credence('adr026.db', ['dag', 'Read the deno.json file', '--json']);
    expect(r.code).toBe(0);
    const s = JSON.parse(r.stdout);
    expect(s.mode).toBe('suggestion');
    expect(s.dag.tasks.map((t: { tool: string }) => t.tool)).toContain('filesystem:read_text_file');
    expect(s.weights).toEqual({ hybrid: 0.85, pageRank: 0.05, path: 0.1 });
    expect(s.density).toBe(0);
    expect(s.confidence).toBeCloseTo(s.parts.hybrid * 0.85 + s.parts.pageRank * 0.05 + s.parts.pathStrength * 0.1, 12);
    expect('warning' in s).toBe(s.confidence < 0.5);
    expect(s.rationale.find((x: { tool: string }) => x.tool === 'filesystem:read_text_file').sources).toEqual([
      'search',
    ]);
  });

  it('answers explicit_required only when nothing matches at all', () => {
    expect(credence('empty.db', ['init']).code).toBe(0);
    const s = JSON.parse(credence('empty.db', ['dag', 'Read the deno.json file', '--json']).stdout);
    expect(s).toMatchObject({ mode: 'explicit_required', confidence: 0 });
    // Walk 14 (item 7): the text printed `confidence 0.000` over the seed's equation summing to 0.05, and no next step.
    const text = credence('empty.db', ['dag', 'Read the deno.json file']);
    expect(text.code).toBe(0);
    expect(text.stdout).not.toContain('confidence =');
    expect(text.stdout).toContain('no DAG: scope "deno" has no tool in its catalogue');
    expect(text.stdout).toContain('next: `credence tools add --jsonl FILE` adds tools');
  });

  it('validates an explicit workflow: unknown tool, missing dependency and cycle each named', () => {
    credence('validate.db', ['tools', 'add', '--jsonl', '-'], catalogue);
    const write = (name: string, tasks: unknown[]) => {
      const file = join(dir, name);
      writeFileSync(file, JSON.stringify({ tasks }));
      return file;
    };
    const ok = credence('validate.db', [
      'dag',
      '--validate',
      write('ok.json', [
        { id: 'a', tool: 'filesystem:read_text_file' },
        { id: 'b', tool: 'filesystem:write_file', dependsOn: ['a'] },
      ]),
    ]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('valid: layer 1: a; layer 2: b');
    const unknown = credence('validate.db', [
      'dag',
      '--validate',
      write('unknown.json', [{ id: 'a', tool: 'rm_everything' }]),
    ]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('unknown tool "rm_everything"');
    const missing = credence('validate.db', [
      'dag',
      '--validate',
      write('missing.json', [{ id: 'a', tool: 'filesystem:write_file', dependsOn: ['zzz'] }]),
    ]);
    expect(missing.stderr).toContain('depends on "zzz"');
    const cycle = credence('validate.db', [
      'dag',
      '--validate',
      write('cycle.json', [
        { id: 'a', tool: 'filesystem:read_text_file', dependsOn: ['b'] },
        { id: 'b', tool: 'filesystem:write_file', dependsOn: ['a'] },
      ]),
    ]);
    expect(cycle.code).toBe(1);
    expect(cycle.stderr).toMatch(/cycle: [ab] → [ab] → [ab]/);
    const notJson = credence('validate.db', ['dag', '--validate', '-'], '{nope');
    expect(notJson.code).toBe(2);
  });

  // Walk 14 (item 10): a workflow invalid by its shape exited 2 (bad usage), one invalid by its tools or
  // dependencies 1; cli.md says 1 for an invalid workflow.
  it('exits 1 for any JSON that is no valid workflow: no task, an unknown field, an array', () => {
    credence('shape.db', ['tools', 'add', '--jsonl', '-'], catalogue);
    for (const [input, said] of [
      ['{"tasks":[]}', 'invalid workflow: tasks: a workflow needs at least one task'],
      [
        '{"tasks":[{"id":"a","tool":"filesystem:write_file","extra":1}],"foo":2}',
        'invalid workflow: unknown field foo; tasks[0]: unknown field extra',
      ],
      ['[]', 'invalid workflow: must be an object, got an array'],
    ] as const) {
      const r = credence('shape.db', ['dag', '--validate', '-'], input);
      expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 1, stderr: `credence: ${said}\n` });
    }
  });

  it('answers a batch of queries, one JSON line each, in one process', () => {
    credence('batch.db', ['tools', 'add', '--jsonl', '-'], catalogue);
    const input = [
      '{"query":"read a file"}',
      '{"bad": true}',
      '{"query":"open an issue on github","context":["filesystem:read_text_file"]}',
    ].join('\n');
    const search = credence('batch.db', ['tools', 'search', '--batch', '-'], input);
    const lines = search.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.line)).toEqual([1, 2, 3]);
    expect(lines[0].result[0].tool).toBe('filesystem:read_text_file');
    expect(lines[1].error).toMatch(/query/);
    expect(lines[2].result[0].tool).toBe('github:create_issue');
    expect(search.code).toBe(1);
    const dags = credence('batch.db', ['dag', '--batch', '-'], '{"query":"read a file"}\n');
    expect(JSON.parse(dags.stdout.trim()).result.mode).toBe('suggestion');
  });

  // Walk 14 (item 10): `dag --batch` refused {"intent": …} ("query: is required; unknown field intent"), though
  // everything else about `dag` says intent.
  it('dag --batch takes each line’s intent (or query, as tools search does), and says when neither is given', () => {
    credence('dag-batch.db', ['tools', 'add', '--jsonl', '-'], catalogue);
    const input = [
      '{"intent":"read a file"}',
      '{"query":"read a file","context":["filesystem:list_directory"]}',
      '{"context":[]}',
      '{"intent":"read a file","query":"read a file"}',
    ].join('\n');
    const r = credence('dag-batch.db', ['dag', '--batch', '-'], input);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.line, l.intent ?? l.query ?? l.error, l.result?.mode])).toEqual([
      [1, 'read a file', 'suggestion'],
      [2, 'read a file', 'suggestion'],
      [3, 'intent: is required (or query)', undefined],
      [4, 'give intent or query, not both', undefined],
    ]);
    expect(r.code).toBe(1);
  });

  it('prints each search result with its parts', () => {
    credence('text.db', ['tools', 'add', '--jsonl', '-'], catalogue);
    const r = credence('text.db', ['tools', 'search', 'list the files in a folder', '--limit', '2', '--json']);
    const results = JSON.parse(r.stdout);
    expect(results).toHaveLength(2);
    for (const x of results) {
      expect(Object.keys(x)).toEqual(
        expect.arrayContaining(['tool', 'score', 'semantic', 'graph', 'alpha', 'alphaRule']),
      );
      expect(x.score).toBeCloseTo(x.alpha * x.semantic + (1 - x.alpha) * x.graph, 12);
    }
  });
});
