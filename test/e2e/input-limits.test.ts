/**
 * Input limits at the surfaces (issue 17, red-team 1): the engine refuses a text over its limit
 * (core/limits INPUT_LIMITS) with INPUT_TOO_LARGE, and each surface shows it its own way: the CLI
 * one line and exit code 2, MCP an isError result naming the field. Drives the real binary.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INPUT_LIMITS } from '../../src/core/limits.js';
import { bin, stdioClient, textOf } from '../mcp-helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'credence-limits-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env = {
  CREDENCE_DB: join(dir, 'credence.db'),
  CREDENCE_DATABASE_URL: '',
  CREDENCE_NOW: '',
  CREDENCE_SCOPE: 'limits',
  HOME: dir,
};

function credence(args: string[]) {
  const result = spawnSync(process.execPath, [bin, ...args], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('input limits on the command line', () => {
  // A command that only reads needs its store to exist (docs/cli.md): init makes it.
  beforeAll(() => expect(credence(['init']).code).toBe(0));

  it('refuses a 5,000-character search with exit 2 and one line naming the query, its length and the limit', () => {
    const run = credence(['tools', 'search', 'x'.repeat(5_000)]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trimEnd().split('\n')).toEqual([
      `credence: query is 5000 characters long; the limit is ${INPUT_LIMITS.query}`,
    ]);
  });

  it('answers a search of exactly the limit', () => {
    expect(credence(['tools', 'search', 'x'.repeat(INPUT_LIMITS.query)]).code).toBe(0);
  });
});

// A line over a limit refused the whole file (exit 2, nothing recorded) and was named by its index from 0 in a batch
// (`executions[1].intent`): now it is a bad line as any other, named by its number, and the others are kept.
describe('a JSON lines file with a line over a limit', () => {
  const file = (name: string, lines: unknown[]) => {
    const path = join(dir, name);
    writeFileSync(path, `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
    return path;
  };
  const cases: [string, string[], unknown[], string][] = [
    [
      'record',
      ['record', '--jsonl'],
      [
        { intent: 'fine', calls: [{ tool: 'read_file', status: 'success' }] },
        { intent: 'x'.repeat(5_000), calls: [{ tool: 'read_file', status: 'success' }] },
      ],
      `credence: line 2: execution.intent is 5000 characters long; the limit is ${INPUT_LIMITS.intent}`,
    ],
    [
      'import',
      ['import'],
      [
        { timestamp: '2026-01-01T00:00:00Z', type: 'pattern', observation: 'tests first', confidence: 0.5 },
        { timestamp: '2026-01-01T00:00:00Z', type: 'pattern', observation: 'o'.repeat(20_000), confidence: 0.5 },
      ],
      `credence: line 2: observation.observation is 20000 characters long; the limit is ${INPUT_LIMITS.observation}`,
    ],
    [
      'tools add',
      ['tools', 'add', '--jsonl'],
      [
        { id: 'read_file', description: 'reads a file' },
        { id: 't'.repeat(600), description: 'too long an id' },
      ],
      `credence: line 2: tool.id is 600 characters long; the limit is ${INPUT_LIMITS.toolName}`,
    ],
    [
      'remember',
      ['remember', '--jsonl'],
      [
        { title: 'fine', text: 'a memory' },
        { title: 't'.repeat(5_000), text: 'x' },
      ],
      `credence: line 2: memory.title is 5000 characters long; the limit is ${INPUT_LIMITS.memoryTitle}`,
    ],
  ];
  for (const [name, args, lines, message] of cases)
    it(`${name}: names the line, keeps the others, exits 1`, () => {
      const run = credence([...args, file(`${name.replace(' ', '-')}.jsonl`, lines)]);
      expect(run.stderr.trimEnd().split('\n')).toEqual([message]);
      expect(run.code).toBe(1);
      expect(run.stdout).toMatch(/\b1\b/);
    });
});

describe('input limits over MCP', () => {
  it('refuses search_tools with an over-long query, naming the limit', async () => {
    const { client, close } = await stdioClient(['--db', env.CREDENCE_DB, '--scope', 'limits', 'serve', '--stdio'], {
      cwd: dir,
      env,
    });
    try {
      // The MCP schema (zod, from the same INPUT_LIMITS) may refuse it before the engine does: an
      // invalid-arguments error; the engine's refusal is an isError result. Either names the limit.
      const outcome = await client.callTool({ name: 'search_tools', arguments: { query: 'x'.repeat(5_000) } }).then(
        (result) => ({ isError: result.isError === true, text: textOf(result) }),
        (error: Error) => ({ isError: true, text: error.message }),
      );
      expect(outcome.isError).toBe(true);
      expect(outcome.text).toMatch(new RegExp(`\\b${INPUT_LIMITS.query}\\b`));
    } finally {
      await close();
    }
  });
});
