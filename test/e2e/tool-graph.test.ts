import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { storeArgs } from '../pg.js';

const bin = fileURLToPath(new URL('../../bin/credence.cjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'credence-graph-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function credence(db: string, args: string[], input?: string) {
  const r = spawnSync(
    process.execPath,
    [bin, ...storeArgs(db), '--scope', 'graph', '--now', '2026-03-02T00:00:00Z', ...args],
    {
      cwd: dir,
      encoding: 'utf8',
      input,
      env: { ...process.env, HOME: dir },
    },
  );
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const threeCalls = JSON.stringify({
  intent: 'read the config and rewrite it',
  startedAt: '2026-03-01T00:00:00Z',
  calls: [
    { tool: 'read_file', status: 'success' },
    { tool: 'parse_json', status: 'success', consumes: [0] },
    { tool: 'write_file', status: 'success', consumes: [1] },
  ],
});

describe('credence record, edges and next (issue 3)', () => {
  it('moves edges inferred → inferred → observed as the same execution is recorded 1, 2, 3 times', () => {
    const db = join(dir, 'promotion.db');
    const seen: string[] = [];
    for (let run = 1; run <= 3; run += 1) {
      expect(credence(db, ['record', '--jsonl', '-'], `${threeCalls}\n`).code).toBe(0);
      const edges = JSON.parse(credence(db, ['edges', '--from', 'read_file', '--json']).stdout) as {
        type: string;
        source: string;
        confidence: number;
      }[];
      const pick = (type: string) => edges.find((e) => e.type === type);
      // One idle day since the run (--now is a day later): compare against the decay-free value at 2 decimals.
      seen.push(
        `${pick('sequence')?.source} ${pick('sequence')?.confidence.toFixed(2)} | ` +
          `${pick('dependency')?.source} ${pick('dependency')?.confidence.toFixed(2)}`,
      );
    }
    expect(seen).toEqual([
      'inferred 0.35 | inferred 0.69',
      'inferred 0.35 | inferred 0.69',
      'observed 0.49 | observed 0.99',
    ]);
  });

  it('shows the exact seed values when read at the time of the runs', () => {
    const db = join(dir, 'exact.db');
    const at = (args: string[]) =>
      spawnSync(
        process.execPath,
        [bin, ...storeArgs(db), '--scope', 'graph', '--now', '2026-03-01T00:00:00Z', ...args],
        { encoding: 'utf8', input: `${threeCalls}\n` },
      );
    const values: string[] = [];
    for (let run = 1; run <= 3; run += 1) {
      at(['record', '--jsonl', '-']);
      const edges = JSON.parse(at(['edges', '--from', 'read_file', '--json']).stdout) as {
        type: string;
        confidence: number;
      }[];
      values.push(['sequence', 'dependency'].map((t) => edges.find((e) => e.type === t)?.confidence).join(' '));
    }
    expect(values).toEqual(['0.35 0.7', '0.35 0.7', '0.5 1']);
  });

  it('records a line with an id once: the same file again learns nothing new and says so', () => {
    const db = join(dir, 'identified.db');
    const lines = [
      JSON.stringify({ id: 'run-a', ...JSON.parse(threeCalls) }),
      JSON.stringify({ id: 7, intent: 'read it', calls: [{ tool: 'read_file', status: 'success' }] }),
      threeCalls,
    ].join('\n');
    const first = credence(db, ['record', '--jsonl', '-'], `${lines}\n`);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^recorded 3 execution\(s\), 7 call\(s\)/);
    const again = credence(db, ['--json', 'record', '--jsonl', '-'], `${lines}\n`);
    expect(again.code).toBe(0);
    // The line without an id is a new run each time; those with one are not.
    expect(JSON.parse(again.stdout)).toMatchObject({ recorded: 1, alreadyRecorded: 2, calls: 3 });
    const third = credence(db, ['record', '--jsonl', '-'], `${lines}\n`);
    expect(third.stdout).toContain('2 execution(s) already recorded (an id the scope holds): not recorded again');
    const edges = JSON.parse(credence(db, ['edges', '--from', 'read_file', '--json']).stdout) as {
      type: string;
      count: number;
    }[];
    expect(edges.find((e) => e.type === 'dependency')?.count).toBe(4);
  });

  it('says which unknown tools it added to the catalogue', () => {
    const r = credence(join(dir, 'unknown.db'), ['record', '--jsonl', '-'], `${threeCalls}\n`);
    expect(r.stdout).toContain(
      'added 3 unknown tool(s) to the catalogue with an empty description: read_file, parse_json, write_file',
    );
  });

  it('rejects bad lines with their number and reason, and still records the valid ones', () => {
    const db = join(dir, 'bad.db');
    const lines = [
      threeCalls,
      '{not json',
      JSON.stringify({
        intent: 'x',
        calls: [
          { tool: 'a', status: 'success' },
          { tool: 'b', status: 'success', consumes: [1] },
        ],
      }),
      JSON.stringify({ intent: 'x', calls: [{ tool: 'a', status: 'success', retries: -2 }] }),
      JSON.stringify({ intent: 'x', calls: [{ tool: 'a', status: 'exploded' }] }),
      JSON.stringify({
        intent: 'x',
        calls: [
          { tool: 'a', status: 'success' },
          { tool: 'b', status: 'success', consumes: [7] },
        ],
      }),
      JSON.stringify({ intent: '   ', calls: [{ tool: 'a', status: 'success' }] }),
    ];
    const r = credence(db, ['record', '--jsonl', '-', '--json'], `${lines.join('\n')}\n`);
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(out.recorded).toBe(1);
    expect(out.rejected.map((p: { line: number }) => p.line)).toEqual([2, 3, 4, 5, 6, 7]);
    expect(r.stderr).toMatch(/line 2: malformed JSON/);
    expect(r.stderr).toMatch(/line 3: .*calls\[1\]\.consumes\[0\].*only earlier calls/);
    expect(r.stderr).toMatch(/line 4: .*calls\[0\]\.retries: must not be negative/);
    expect(r.stderr).toMatch(/line 5: .*calls\[0\]\.status: must be one of success, failure, partial/);
    expect(r.stderr).toMatch(/line 6: .*consume call 7/);
    // Fix B.3: a blank intent was recorded.
    expect(r.stderr).toMatch(/line 7: .*intent: must not be blank/);
    expect(JSON.parse(credence(db, ['status', '--json']).stdout).counts.executions).toBe(1);
  });

  it('declares template edges, refuses an unknown type, and ranks next tools with why', () => {
    const db = join(dir, 'next.db');
    expect(credence(db, ['edge', 'add', 'read_file', 'log_data', '--type', 'sequence']).code).toBe(0);
    expect(credence(db, ['edge', 'add', 'read_file', 'backup_file', '--type', 'alternative']).code).toBe(0);
    const bad = credence(db, ['edge', 'add', 'a', 'b', '--type', 'friendship']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('friendship');
    credence(db, ['record', '--jsonl', '-'], `${threeCalls}\n`);
    const next = JSON.parse(credence(db, ['next', 'read_file', '--json']).stdout) as {
      tool: string;
      confidence: number;
      weak: boolean;
      why: string;
    }[];
    // parse_json (dependency, inferred 0.7) first; backup_file (alternative template 0.30) last and weak; log_data
    // (0.25) below the threshold.
    expect(next.map((s) => s.tool)).toEqual(['parse_json', 'backup_file']);
    expect(next[1]?.weak).toBe(true);
    expect(next[0]?.why).toBe('dependency edge, inferred, confirmed in 1 run');
    expect(credence(db, ['edges', '--min-confidence', '0.5', '--json']).stdout).not.toContain('log_data');
  });

  it('next on a tool unknown to the scope fails with exit 1 naming it, like suggest_next over MCP (issue 17)', () => {
    const db = join(dir, 'next-unknown.db');
    expect(credence(db, ['record', '--jsonl', '-'], `${threeCalls}\n`).code).toBe(0);
    for (const args of [
      ['next', 'raed_file'],
      ['next', 'raed_file', '--json'],
    ]) {
      const r = credence(db, args);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain('unknown tool "raed_file"');
    }
    // A known tool nothing follows is no error: an empty list.
    expect(credence(db, ['next', 'write_file', '--json'])).toMatchObject({ code: 0, stdout: '[]\n' });
  });

  it('a failed call counts against the edge and never promotes it', () => {
    const db = join(dir, 'fail.db');
    const failing = JSON.stringify({
      intent: 'x',
      startedAt: '2026-03-01T00:00:00Z',
      calls: [
        { tool: 'read_file', status: 'success' },
        { tool: 'parse_json', status: 'failure', consumes: [0] },
      ],
    });
    for (let i = 0; i < 3; i += 1) credence(db, ['record', '--jsonl', '-'], `${failing}\n`);
    const edges = JSON.parse(credence(db, ['edges', '--json']).stdout) as {
      type: string;
      count: number;
      failures: number;
      source: string;
    }[];
    expect(edges.find((e) => e.type === 'dependency')).toMatchObject({
      count: 0,
      failures: 3,
      source: 'inferred',
      confidence: 0,
      parts: { confirmed: false },
    });
    expect(JSON.parse(credence(db, ['next', 'read_file', '--json']).stdout)).toEqual([]);
    expect(JSON.parse(credence(db, ['edges', '--min-confidence', '0.3', '--json']).stdout)).toEqual([]);
    // Known only from failures: no confident pair, so the graph stays in cold start.
    expect(JSON.parse(credence(db, ['status', '--json']).stdout).graph).toMatchObject({
      confidentPairs: 0,
      density: 0,
      tier: 'cold-start',
    });
  });

  it('adds tools from JSON lines, and re-adding updates them without duplicates', () => {
    const db = join(dir, 'tools.db');
    const lines =
      `${JSON.stringify({ id: 'read_file', description: 'Read a file' })}\n` +
      `${JSON.stringify({ id: 'write_file', description: 'Write a file' })}\n`;
    expect(JSON.parse(credence(db, ['tools', 'add', '--jsonl', '-', '--json'], lines).stdout)).toMatchObject({
      inserted: 2,
      updated: 0,
    });
    const again =
      `${JSON.stringify({ id: 'read_file', description: 'Read a text file', origin: 'fs' })}\n` +
      '{"description":"no id"}\n';
    const r = credence(db, ['tools', 'add', '--jsonl', '-', '--json'], again);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ inserted: 0, updated: 1, rejected: [{ line: 2 }] });
    expect(r.stderr).toMatch(/line 2: invalid tool: id/);
    expect(JSON.parse(credence(db, ['status', '--json']).stdout).counts.tools).toBe(2);
  });

  it('keeps a stored description when a tool is re-added without one, and rejects unknown fields', () => {
    const db = join(dir, 'keep.db');
    credence(db, ['tools', 'add', '--jsonl', '-'], `${JSON.stringify({ id: 't1', description: 'Keeps me' })}\n`);
    credence(db, ['tools', 'add', '--jsonl', '-'], `${JSON.stringify({ id: 't1', origin: 'mcp' })}\n`);
    const typo = credence(
      db,
      ['tools', 'add', '--jsonl', '-'],
      `${JSON.stringify({ id: 't2', descripton: 'typo' })}\n`,
    );
    expect(typo.code).toBe(1);
    expect(typo.stderr).toMatch(/line 1: .*descripton/);
    const record = credence(
      db,
      ['record', '--jsonl', '-'],
      `${JSON.stringify({
        intent: 'x',
        calls: [
          { tool: 't1', status: 'success' },
          { tool: 't2', status: 'success', consume: [0] },
        ],
      })}\n`,
    );
    expect(record.code).toBe(1);
    expect(record.stderr).toMatch(/line 1: .*consume/);
    const search = JSON.parse(credence(db, ['tools', 'search', 'keeps', '--json']).stdout);
    expect(search[0].tool).toBe('t1');
  });

  // Walk 14 (item 10): `credence tools` alone printed the subcommands' help, though the main help calls it "the tool
  // catalogue", and nothing listed the catalogue.
  it('credence tools alone lists the catalogue; a word that is no subcommand is named (exit 2)', () => {
    const db = join(dir, 'list.db');
    expect(credence(db, ['tools']).stdout).toBe(
      'no tool in the catalogue yet: add some with `credence tools add --jsonl FILE`\n',
    );
    const catalogue = [
      { id: 'write_file', description: 'Write text to a file\non disk' },
      { id: 'read_file', description: 'Read a file' },
    ];
    credence(db, ['tools', 'add', '--jsonl', '-'], catalogue.map((t) => JSON.stringify(t)).join('\n'));
    credence(
      db,
      ['record', '--jsonl', '-'],
      `${JSON.stringify({ intent: 'x', calls: [{ tool: 'stat', status: 'success' }] })}\n`,
    );
    const listed = credence(db, ['tools']);
    expect({ code: listed.code, stdout: listed.stdout }).toEqual({
      code: 0,
      stdout: 'read_file  Read a file\nstat  (no description)\nwrite_file  Write text to a file\n3 tool(s)\n',
    });
    expect(credence(db, ['tools', 'list']).stdout).toBe(listed.stdout);
    expect(JSON.parse(credence(db, ['tools', 'list', '--json']).stdout).map((t: { id: string }) => t.id)).toEqual([
      'read_file',
      'stat',
      'write_file',
    ]);
    const typo = credence(db, ['tools', 'lsit']);
    expect({ code: typo.code, stderr: typo.stderr }).toEqual({
      code: 2,
      stderr: 'credence: unknown command "tools lsit": tools takes list, add or search\n',
    });
  });

  it('rejects a time that is not an ISO date, naming the field', () => {
    const r = credence(
      join(dir, 'dates.db'),
      ['record', '--jsonl', '-'],
      `${JSON.stringify({ intent: 'x', startedAt: 'March 7', calls: [] })}\n`,
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/line 1: .*startedAt: must be an ISO 8601 date/);
  });

  it('needs exactly one source of tools', () => {
    expect(credence(join(dir, 'none.db'), ['tools', 'add']).code).toBe(2);
  });
});
