/**
 * Issue 23's "Done when", end to end through the processes a user and an agent run: "We use Postgres for the main
 * store", a month later "We moved the main store to MySQL" (`credence remember`) -> `credence recall` returns MySQL
 * first and Postgres marked superseded with why; the agent's context holds only MySQL: the recall context block, the
 * UserPromptSubmit hook's lines and the MCP recall tool's context (its JSON keeps Postgres, marked).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bin, stdioClient, structured } from '../mcp-helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'credence-supersession-'));
const project = join(dir, 'project');
const db = join(dir, 'memory.db');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const env = (now: string) => ({ PATH: process.env.PATH ?? '', HOME: dir, CREDENCE_DB: db, CREDENCE_NOW: now });
const credence = (args: string[], now = '2026-05-02T09:00:00Z') => {
  const r = spawnSync(process.execPath, [bin, ...args], { cwd: project, env: env(now), encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};

let postgresId = '';
let mysqlId = '';

beforeAll(() => {
  mkdirSync(join(project, '.git'), { recursive: true });
  writeFileSync(join(project, '.git', 'config'), '[core]\n');
  const first = credence(
    ['remember', '--title', 'Postgres for the main store', 'We use Postgres for the main store', '--json'],
    '2026-04-01T09:00:00Z',
  );
  expect(first.code, first.stderr).toBe(0);
  postgresId = JSON.parse(first.stdout).ids[0];
  const later = credence(
    ['remember', '--title', 'Main store on MySQL', 'We moved the main store to MySQL', '--json'],
    '2026-05-01T09:00:00Z',
  );
  expect(later.code, later.stderr).toBe(0);
  const report = JSON.parse(later.stdout);
  mysqlId = report.ids[0];
  expect(report.superseded).toEqual([{ id: postgresId, by: mysqlId, why: expect.stringContaining('moved') }]);
});

describe('Postgres, then MySQL a month later (issue 23, Done when)', () => {
  it('recall returns MySQL first and Postgres marked superseded, with why and until when', () => {
    const r = credence(['recall', 'which database is the main store on', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const results = JSON.parse(r.stdout) as {
      id: string;
      status: string;
      label: string;
      snippet: string;
      times: { validTo?: string };
      life?: { why?: string; supersededBy?: string };
    }[];
    expect(results.map((x) => [x.id, x.status])).toEqual([
      [mysqlId, 'current'],
      [postgresId, 'superseded'],
    ]);
    expect(results[0]?.snippet).toBe('We moved the main store to MySQL');
    expect(results[1]).toMatchObject({ label: 'low', life: { supersededBy: mysqlId }, times: {} });
    expect(results[1]?.life?.why).toContain('main, store');
    expect(results[1]?.times.validTo).toBe('2026-05-01T09:00:00.000Z');
  });

  it('the context block holds only MySQL; --all shows Postgres too; --as-of April only Postgres', () => {
    const context = credence(['recall', 'which database is the main store on']).stdout;
    expect(context).toContain('Main store on MySQL');
    expect(context).not.toContain('Postgres');
    expect(credence(['recall', 'which database is the main store on', '--all']).stdout).toContain(
      '- [NOTE] Postgres for the main store, 2026-04-01 (superseded by Main store on MySQL, 2026-05-01): We use ' +
        'Postgres for the main store [confidence:low]',
    );
    // A question about before: what was replaced is the answer, kept in the block, marked (issue 23).
    const before = credence(['recall', 'which database was the main store on before?']).stdout;
    expect(before).toContain('Main store on MySQL');
    expect(before).toContain('Postgres for the main store, 2026-04-01 (superseded by Main store on MySQL, 2026-05-01)');
    const april = credence(['recall', 'which database is the main store on', '--as-of', '2026-04-15']).stdout;
    expect(april).toContain('Postgres for the main store');
    expect(april).not.toContain('MySQL');
    const bad = credence(['recall', 'main store', '--as-of', 'last May']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('--as-of');
  });

  it("the prompt hook's lines for the agent hold only MySQL", () => {
    const r = spawnSync(process.execPath, [bin, 'hook', 'claude-code'], {
      cwd: project,
      env: env('2026-05-02T09:00:00Z'),
      encoding: 'utf8',
      input: JSON.stringify({
        session_id: 's-1',
        transcript_path: join(dir, 't.jsonl'),
        cwd: project,
        hook_event_name: 'UserPromptSubmit',
        prompt: 'which database is the main store on?',
      }),
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('MySQL');
    expect(r.stdout).not.toContain('Postgres');
  });

  it("the MCP recall tool's context holds only MySQL; its results keep Postgres, marked", async () => {
    const { client, close } = await stdioClient(['serve', '--stdio'], {
      cwd: project,
      env: env('2026-05-02T09:00:00Z'),
    });
    try {
      const out = structured(
        await client.callTool({ name: 'recall', arguments: { query: 'which database is the main store on' } }),
      );
      expect(out.context).toContain('MySQL');
      expect(out.context).not.toContain('Postgres');
      expect(out.results.map((x: { id: string; status: string }) => [x.id, x.status])).toEqual([
        [mysqlId, 'current'],
        [postgresId, 'superseded'],
      ]);
      // A question about before keeps Postgres in the context, marked: it is the answer.
      const before = structured(
        await client.callTool({ name: 'recall', arguments: { query: 'which database was the main store on before?' } }),
      );
      expect(before.context).toContain('Postgres for the main store, 2026-04-01 (superseded by Main store on MySQL');
    } finally {
      await close();
    }
  });

  it('remembering the Postgres note again after MySQL makes it the newest word: current, MySQL superseded', () => {
    const again = credence(
      ['remember', '--title', 'Postgres for the main store', 'We use Postgres for the main store', '--json'],
      '2026-05-10T09:00:00Z',
    );
    const report = JSON.parse(again.stdout);
    expect(report.ids).not.toEqual([postgresId]);
    expect(report.superseded).toEqual([
      { id: mysqlId, by: report.ids[0], why: expect.stringContaining(`says again what ${postgresId} said`) },
    ]);
    const context = credence(['recall', 'which database is the main store on'], '2026-05-11T09:00:00Z').stdout;
    expect(context).toContain('Postgres for the main store, 2026-05-10');
    expect(context).not.toContain('MySQL');
  });
});

describe('a memory whose validity window ended, asked about now (walk 15, item 1)', () => {
  const ended = join(dir, 'ended.db');
  const run = (args: string[], input?: string) => {
    const r = spawnSync(process.execPath, [bin, ...args], {
      cwd: project,
      env: { ...env('2026-06-01T00:00:00Z'), CREDENCE_DB: ended },
      encoding: 'utf8',
      ...(input === undefined ? {} : { input }),
    });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  const question = 'what queue do jobs go through?';

  it('is left out of the context block, the prompt hook and the MCP context; --all marks it ended', async () => {
    const notes = join(dir, 'ended.jsonl');
    writeFileSync(
      notes,
      `${JSON.stringify({
        title: 'Queue',
        text: 'Jobs go through RabbitMQ.',
        validFrom: '2025-02-01',
        validTo: '2025-09-01',
      })}\n`,
    );
    expect(run(['remember', '--jsonl', notes]).code).toBe(0);
    expect(run(['recall', question]).stdout).not.toContain('RabbitMQ');
    expect(run(['recall', question, '--all']).stdout).toContain(
      '- [NOTE] Queue, 2025-02-01 (ended 2025-09-01): Jobs go through RabbitMQ. [confidence:low]',
    );
    const [json] = JSON.parse(run(['recall', question, '--json']).stdout);
    expect([json.status, json.parts.window]).toEqual(['superseded', 'ended']);
    const hook = run(
      ['hook', 'claude-code'],
      JSON.stringify({
        session_id: 's-2',
        transcript_path: join(dir, 't2.jsonl'),
        cwd: project,
        hook_event_name: 'UserPromptSubmit',
        prompt: question,
      }),
    );
    expect(hook.code, hook.stderr).toBe(0);
    expect(hook.stdout).not.toContain('RabbitMQ');
    const { client, close } = await stdioClient(['serve', '--stdio'], {
      cwd: project,
      env: { ...env('2026-06-01T00:00:00Z'), CREDENCE_DB: ended },
    });
    try {
      const out = structured(await client.callTool({ name: 'recall', arguments: { query: question } }));
      expect(out.context).not.toContain('RabbitMQ');
      expect(out.results.map((x: { status: string }) => x.status)).toEqual(['superseded']);
    } finally {
      await close();
    }
  });
});
