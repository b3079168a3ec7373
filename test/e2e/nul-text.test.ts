/**
 * A NUL character in imported text (issue 17, red-team 4): PostgreSQL's text cannot hold U+0000,
 * and one NUL in one JSON line failed the whole import there (100 valid lines dropped, a stack
 * trace), while SQLite stored all 101. Through the real binary, on SQLite always and on PostgreSQL
 * when the test server is set (test/pg.ts): every line is stored, the NUL as U+FFFD, on both.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bin } from '../mcp-helpers.js';
import { pgSchemas, pgTestUrl } from '../pg.js';

const dir = mkdtempSync(join(tmpdir(), 'credence-nul-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const url = pgTestUrl('the PostgreSQL half of the NUL import test');
const schema = pgSchemas(url);

const STORES: readonly { name: string; args: () => string[] }[] = [
  { name: 'SQLite', args: () => ['--db', join(dir, `s${Math.random().toString(36).slice(2)}.db`)] },
  ...(url === undefined
    ? []
    : [
        {
          name: 'PostgreSQL',
          args: () => {
            const u = new URL(url);
            u.searchParams.set('schema', schema());
            return ['--database-url', u.toString()];
          },
        },
      ]),
];

describe.each(STORES)('observations with a NUL on $name', ({ args }) => {
  it('imports 101 of 101 JSON lines when one holds a NUL, and exports it with U+FFFD in its place', () => {
    const root = join(dir, `p${Math.random().toString(36).slice(2)}`);
    mkdirSync(join(root, '.git'), { recursive: true });
    const store = args();
    const run = (more: string[], input?: string) =>
      spawnSync(process.execPath, [bin, ...store, '--now', '2026-02-02T09:00:00Z', ...more], {
        cwd: root,
        encoding: 'utf8',
        input,
        env: { ...process.env, HOME: dir, CREDENCE_EMBEDDINGS: '' },
      });
    const line = (i: number, text: string) =>
      JSON.stringify({
        timestamp: `2026-02-01T10:${String(i % 60).padStart(2, '0')}:00Z`,
        type: 'pattern',
        observation: text,
        confidence: 0.5,
        tags: [`t${i}`],
      });
    const lines = Array.from({ length: 100 }, (_, i) => line(i, `valid observation ${i}`));
    lines.splice(
      50,
      0,
      JSON.stringify({
        timestamp: '2026-02-01T11:00:00Z',
        type: 'error',
        observation: 'a NUL\u0000here',
        evidence: ['e\u0000v'],
        context: { task: 't\u0000' },
        confidence: 0.5,
        tags: ['n\u0000l'],
      }),
    );
    const imported = run(['--json', 'import', '-'], `${lines.join('\n')}\n`);
    expect(imported.stderr).toBe('');
    expect(imported.status).toBe(0);
    expect(JSON.parse(imported.stdout)).toMatchObject({ inserted: 101, duplicates: 0, rejected: [] });
    const exported = run(['export']);
    expect(exported.status).toBe(0);
    const rows = exported.stdout
      .trim()
      .split('\n')
      .map(
        (l) => JSON.parse(l) as { observation: string; evidence: string[]; context: { task?: string }; tags: string[] },
      );
    expect(rows).toHaveLength(101);
    const nul = rows.find((r) => r.observation.startsWith('a NUL'));
    expect(nul).toMatchObject({
      observation: 'a NUL\uFFFDhere',
      evidence: ['e\uFFFDv'],
      context: { task: 't\uFFFD' },
      tags: ['n\uFFFDl'],
    });
    expect(exported.stdout).not.toContain('\\u0000');
  });
});
