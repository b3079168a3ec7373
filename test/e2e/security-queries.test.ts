/**
 * Query escaping and scope isolation through the real surfaces (issue 17, red-team: "held"): one
 * store holds two scopes, `mine` and `theirs`, whose tools, memories and runs share the words of
 * the queries. Hostile query text — FTS5 syntax (`"`, `*`, `NEAR(`, `OR`, `-`, `:` column filters),
 * SQL quotes, LIKE wildcards, Unicode, a query just under the length limit — is sent through the
 * CLI (`tools search`, `recall`, `dag`, one `--batch` process each) and through MCP over stdio
 * (`search_tools`, `recall`, `execute_dag`, `suggest_next`). Every answer is a result, never a
 * SQL/FTS syntax error, and never holds a row of the other scope; the same queries asked in
 * `theirs` do find its rows, so the data would show a leak. SQLite always; PostgreSQL when the test
 * server is set (test/pg.ts).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INPUT_LIMITS } from '../../src/core/limits.js';
import { bin, stdioClient, structured } from '../mcp-helpers.js';
import { pgSchemas, pgTestUrl } from '../pg.js';

const dir = mkdtempSync(join(tmpdir(), 'credence-security-queries-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const url = pgTestUrl('the PostgreSQL half of the query-isolation test');
const schema = pgSchemas(url);
const NOW = '2026-03-02T10:00:00Z';

/** The other scope's rows all carry this mark in their id or title. */
const THEIRS = /theirs/i;

const HOSTILE: readonly string[] = [
  '"',
  '""',
  '"token',
  'token"config',
  "'",
  "''",
  "'; DROP TABLE tools; --",
  "' OR '1'='1",
  ';DROP TABLE memories;--',
  '*',
  'token*',
  '*config',
  'NEAR(token config)',
  'NEAR(token config, 2)',
  'token NEAR/2 config',
  'NEAR(',
  'OR',
  'token OR config',
  'AND',
  'token AND NOT config',
  'NOT',
  '-',
  '-token',
  'token -config',
  'token - config',
  ':',
  'title:token',
  'description:config',
  'id:theirs_secret_reader',
  'tools:*',
  '{id description}:token',
  '%',
  '_',
  '%token%',
  'to_en',
  'tok%n',
  '%%',
  '\\',
  '\\%',
  '(',
  ')',
  '((token',
  'token)',
  '^token',
  '+token',
  '~token',
  '@token',
  'é 中文 😀 token',
  'Ünïcödé configuración',
  '\u200b\u0301',
  '\u0007\u001b[31mtoken',
  'token\u0000config',
  'ﬁle ＴＯＫＥＮ',
  'theirs',
  'theirs_secret_reader',
  'theirs secret token',
  'THEIRS',
  'scope:theirs',
  "scope = 'theirs'",
  'theirs" OR "mine',
  'read the config file and refresh the token',
];

/** A query just under the length limit, made of hostile pieces and words. */
function longQuery(): string {
  const piece = 'token* NEAR(config "drop" -table title:x %_ é 中文 \' OR 1=1 -- ';
  return piece.repeat(Math.ceil(INPUT_LIMITS.query / piece.length)).slice(0, INPUT_LIMITS.query - 1);
}
const QUERIES = [...HOSTILE, longQuery()];

/**
 * The names of the rows an answer holds: every `tool`, `title`, `id`, `from`, `to` and `label`
 * string at any depth, and the strings of `tools` lists — not the query or intent it echoes.
 */
function rowsIn(value: unknown, into: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) rowsIn(v, into);
  else if (value !== null && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      if (key === 'query' || key === 'intent') continue;
      if (typeof v === 'string' && ['tool', 'title', 'id', 'from', 'to', 'label'].includes(key)) into.push(v);
      else if (key === 'tools' && Array.isArray(v))
        into.push(
          ...v.filter((x): x is string => typeof x === 'string'),
          ...rowsIn(v.filter((x) => typeof x !== 'string')),
        );
      else rowsIn(v, into);
    }
  }
  return into;
}
const leaks = (value: unknown): string[] => rowsIn(value).filter((name) => THEIRS.test(name));

/** Words no query holds a syntax error about. */
const SYNTAX_ERROR = /syntax|fts5|tsquery|malformed|unterminated|no such column|sqlite|SQL|near "/i;

interface Target {
  name: string;
  args: () => string[];
}

const targets: Target[] = [{ name: 'SQLite', args: () => ['--db', join(dir, 'two-scopes.db')] }];
if (url !== undefined) {
  let name: string | undefined;
  targets.push({
    name: 'PostgreSQL',
    args: () => {
      name ??= schema();
      const withSchema = new URL(url);
      withSchema.searchParams.set('schema', name);
      return ['--database-url', withSchema.toString()];
    },
  });
}

for (const target of targets) {
  describe(`hostile queries on a store with two scopes (${target.name})`, () => {
    const credence = (scope: string, args: string[], input?: string) => {
      const r = spawnSync(process.execPath, [bin, ...target.args(), '--scope', scope, '--now', NOW, ...args], {
        cwd: dir,
        encoding: 'utf8',
        input,
        env: { PATH: process.env.PATH ?? '', HOME: dir },
      });
      return { code: r.status, stdout: r.stdout, stderr: r.stderr };
    };
    const batch = (scope: string, command: string[]) => {
      const r = credence(
        scope,
        [...command, '--batch', '-'],
        QUERIES.map((query) => JSON.stringify({ query })).join('\n'),
      );
      expect(r.stderr).not.toMatch(SYNTAX_ERROR);
      const lines = r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { line: number; error?: string; result?: unknown; results?: unknown });
      expect(lines).toHaveLength(QUERIES.length);
      return { code: r.code, lines };
    };

    beforeAll(() => {
      const fill = (scope: string, prefix: string) => {
        const tools = [
          {
            id: `${prefix}_secret_reader`,
            description:
              'read the config file, refresh the token, drop the table; ' +
              `near title description id tools scope: ${prefix} secret é 中文 😀 configuración`,
          },
          { id: `${prefix}:token_refresher`, description: 'refresh the token and write the config' },
          {
            id: `${prefix}_table_dropper`,
            description: 'drop a table of the database, percent and underscore wildcards',
          },
        ];
        const ok = (r: { code: number | null; stderr: string }) => expect(r.code, r.stderr).toBe(0);
        ok(credence(scope, ['tools', 'add', '--jsonl', '-'], tools.map((t) => JSON.stringify(t)).join('\n')));
        const runs = Array.from({ length: 3 }, () =>
          JSON.stringify({
            intent: 'read the config file and refresh the token',
            calls: tools.map((t) => ({ tool: t.id, status: 'success' })),
          }),
        );
        ok(credence(scope, ['record', '--jsonl', '-'], runs.join('\n')));
        const memories = [
          {
            title: `${prefix.toUpperCase()} secret plan: token refresh`,
            text: `The ${prefix} project refreshes the token nightly; config table drop near title é 中文 😀`,
            category: 'decision',
          },
          {
            title: `${prefix.toUpperCase()} wildcard notes`,
            text: 'percent % and underscore _ and quotes \' " in the config',
          },
        ];
        ok(credence(scope, ['remember', '--jsonl', '-'], memories.map((m) => JSON.stringify(m)).join('\n')));
      };
      fill('mine', 'mine');
      fill('theirs', 'theirs');
    }, 60_000);

    const toolsOf = (line: { result?: unknown }) => (line.result as { tool: string }[]).map((r) => r.tool);
    const titlesOf = (line: { results?: unknown }) => (line.results as { title: string }[]).map((r) => r.title);
    const dagToolsOf = (line: { result?: unknown }) =>
      ((line.result as { dag?: { tasks: { tool: string }[] } }).dag?.tasks ?? []).map((t) => t.tool);

    it('the data would show a leak: asked in their scope, the same queries find their rows', () => {
      const search = batch('theirs', ['tools', 'search']);
      expect(
        search.lines.filter((l) => l.error === undefined && toolsOf(l).some((t) => THEIRS.test(t))).length,
      ).toBeGreaterThan(QUERIES.length / 2);
      const recall = batch('theirs', ['recall']);
      expect(
        recall.lines.filter((l) => l.error === undefined && titlesOf(l).some((t) => THEIRS.test(t))).length,
      ).toBeGreaterThan(QUERIES.length / 2);
    }, 30_000);

    it('tools search: every query answers, without a syntax error, and never with a tool of the other scope', () => {
      const { code, lines } = batch('mine', ['tools', 'search']);
      expect(lines.filter((l) => l.error !== undefined).map((l) => [QUERIES[l.line - 1], l.error])).toEqual([]);
      expect(code).toBe(0);
      expect(
        lines.filter((l) => leaks(l.result).length > 0).map((l) => [QUERIES[l.line - 1], leaks(l.result)]),
      ).toEqual([]);
      // Not vacuous: our own tools are found.
      expect(lines.filter((l) => toolsOf(l).length > 0).length).toBeGreaterThan(QUERIES.length / 2);
    }, 30_000);

    it('recall: every query answers, without a syntax error, and never with a memory or run of the other scope', () => {
      const { code, lines } = batch('mine', ['recall']);
      expect(lines.filter((l) => l.error !== undefined).map((l) => [QUERIES[l.line - 1], l.error])).toEqual([]);
      expect(code).toBe(0);
      expect(
        lines.filter((l) => leaks(l.results).length > 0).map((l) => [QUERIES[l.line - 1], leaks(l.results)]),
      ).toEqual([]);
      expect(lines.filter((l) => titlesOf(l).length > 0).length).toBeGreaterThan(QUERIES.length / 2);
    }, 30_000);

    it('dag: every intent answers, without a syntax error, and never with a tool of the other scope', () => {
      const { code, lines } = batch('mine', ['dag']);
      expect(lines.filter((l) => l.error !== undefined).map((l) => [QUERIES[l.line - 1], l.error])).toEqual([]);
      expect(code).toBe(0);
      expect(
        lines.filter((l) => leaks(l.result).length > 0).map((l) => [QUERIES[l.line - 1], leaks(l.result)]),
      ).toEqual([]);
      expect(lines.filter((l) => dagToolsOf(l).length > 0).length).toBeGreaterThan(QUERIES.length / 2);
    }, 30_000);

    it("next: another scope's tool is unknown here, and none of its edges is shown", () => {
      const r = credence('mine', ['next', 'theirs_secret_reader', '--json']);
      expect(`${r.stdout}${r.stderr}`).not.toMatch(/theirs:token_refresher|theirs_table_dropper/);
      // In its own scope the same tool has learned followers, so the check above could fail.
      expect(credence('theirs', ['next', 'theirs_secret_reader', '--json']).stdout).toMatch(/theirs:token_refresher/);
    });

    it('MCP over stdio: search_tools, recall, execute_dag and suggest_next answer every query in scope', async () => {
      const { client, stderr, close } = await stdioClient(
        [...target.args(), '--scope', 'mine', '--now', NOW, 'serve', '--stdio'],
        { cwd: dir, env: { PATH: process.env.PATH ?? '' } },
      );
      try {
        const problems: unknown[] = [];
        let found = 0;
        for (const query of QUERIES) {
          const calls = [
            { name: 'search_tools', arguments: { query } },
            { name: 'recall', arguments: { query } },
            { name: 'execute_dag', arguments: { intent: query } },
          ];
          for (const call of calls) {
            const result = await client.callTool(call);
            if (result.isError === true) {
              problems.push([call.name, query, JSON.stringify(result.content).slice(0, 200)]);
              continue;
            }
            // The query is echoed back in the result: look at the rows found, not at the echo.
            const rows = rowsIn(structured(result));
            if (rows.some((name) => THEIRS.test(name)))
              problems.push([call.name, query, 'leak', rows.filter((name) => THEIRS.test(name))]);
            if (rows.some((name) => /^mine/i.test(name))) found += 1;
          }
        }
        expect(problems).toEqual([]);
        expect(found).toBeGreaterThan(QUERIES.length);
        const next = await client.callTool({ name: 'suggest_next', arguments: { tool: 'theirs_secret_reader' } });
        expect(next.isError === true ? [] : leaks((structured(next) as { suggestions: unknown }).suggestions)).toEqual(
          [],
        );
        expect(stderr()).not.toMatch(SYNTAX_ERROR);
      } finally {
        await close();
      }
    }, 60_000);
  });
}
