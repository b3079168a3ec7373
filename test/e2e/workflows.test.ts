import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { storeArgs } from '../pg.js';

const bin = fileURLToPath(new URL('../../bin/credence.cjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'credence-workflows-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function credence(db: string, args: string[], input?: string) {
  const r = spawnSync(process.execPath, [bin, ...storeArgs(db), '--scope', 'movies', ...args], {
    cwd: dir,
    encoding: 'utf8',
    input,
    env: { ...process.env, HOME: dir },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const run = (intent: string, day: number, tools = ['SearchPeople', 'GetPersonMovieCredit']) =>
  JSON.stringify({
    intent,
    startedAt: `2026-03-0${day}T00:00:00Z`,
    calls: tools.map((tool, i) => ({ tool, status: 'success', ...(i > 0 ? { consumes: [i - 1] } : {}) })),
  });

describe('credence workflows (issue 19)', () => {
  it('lists the workflows that record learned, as JSON and as text, at the time --now gives', () => {
    const db = join(dir, 'workflows.db');
    const lines = [
      run("find Greta Gerwig's movies", 1),
      run("find Tom Hanks's movies", 2),
      run("find Meryl Streep's movies", 3),
      run('search a movie by title', 4, ['SearchMovie']),
    ];
    expect(credence(db, ['record', '--jsonl', '-'], `${lines.join('\n')}\n`).code).toBe(0);
    const listed = credence(db, ['workflows', '--json', '--now', '2026-03-05T00:00:00Z']);
    expect(listed.code).toBe(0);
    const list = JSON.parse(listed.stdout) as {
      id: string;
      tools: string[];
      edges: [string, string][];
      intents: string[];
      runs: number;
      successRate: number;
      confidence: number;
      parts: { decay: number; idleDays: number };
      lastSeen: string;
    }[];
    expect(list.map((w) => [w.tools, w.edges, w.runs, w.successRate])).toEqual([
      [['SearchMovie'], [], 1, 1],
      [['SearchPeople', 'GetPersonMovieCredit'], [['SearchPeople', 'GetPersonMovieCredit']], 3, 1],
    ]);
    expect(list[1]?.intents).toEqual([
      "find Meryl Streep's movies",
      "find Tom Hanks's movies",
      "find Greta Gerwig's movies",
    ]);
    expect(list[1]?.parts.idleDays).toBe(2);
    const later = JSON.parse(credence(db, ['workflows', '--json', '--now', '2026-06-01T00:00:00Z']).stdout);
    expect(later[1].confidence).toBeLessThan(list[1]?.confidence ?? 0);

    const limited = JSON.parse(credence(db, ['workflows', '--json', '--limit', '1']).stdout) as { id: string }[];
    expect(limited.map((w) => w.id)).toEqual([list[0]?.id]);
    const text = credence(db, ['workflows', '--now', '2026-03-05T00:00:00Z']).stdout;
    expect(text).toContain(`${list[1]?.id}  runs 3  success 100%`);
    expect(text).toContain('SearchPeople → GetPersonMovieCredit');
    expect(text).toContain(`e.g. "find Meryl Streep's movies"`);
    expect(credence(db, ['workflows', '--limit', '0']).code).toBe(2);
  });

  it('shows 20 without --limit and says how many more there are (walk 6, item 10c)', () => {
    const db = join(dir, 'many.db');
    const lines = Array.from({ length: 23 }, (_, i) =>
      JSON.stringify({
        intent: `look up item ${i}`,
        startedAt: '2026-03-01T00:00:00Z',
        calls: [{ tool: `Tool${i}`, status: 'success' }],
      }),
    );
    expect(credence(db, ['record', '--jsonl', '-'], `${lines.join('\n')}\n`).code).toBe(0);
    const text = credence(db, ['workflows']);
    expect(text.code).toBe(0);
    expect(text.stdout.match(/^wf-/gm)).toHaveLength(20);
    expect(text.stdout).toContain('… 3 more workflow(s) not shown (most recently used first); --limit 23 shows all');
    const json = credence(db, ['workflows', '--json']);
    expect(JSON.parse(json.stdout)).toHaveLength(20);
    expect(json.stderr).toContain('3 more workflow(s) not shown');
    const all = credence(db, ['workflows', '--limit', '23']);
    expect(all.stdout.match(/^wf-/gm)).toHaveLength(23);
    expect(all.stdout).not.toContain('more workflow');
  });

  it('says so when nothing was learned yet', () => {
    expect(credence(join(dir, 'empty.db'), ['init']).code).toBe(0);
    const r = credence(join(dir, 'empty.db'), ['workflows']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('no learned workflows yet\n');
  });
});
