import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../../bin/credence.cjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'credence-calibration-'));
const db = join(dir, 'demo.db');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function credence(args: string[]) {
  const r = spawnSync(process.execPath, [bin, '--db', db, ...args], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, HOME: dir, CREDENCE_EMBEDDINGS: '', CREDENCE_DATABASE_URL: '' },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const KINDS = ['search', 'next', 'dag', 'recall', 'instinct', 'skill'];

beforeAll(() => {
  expect(credence(['demo']).code).toBe(0);
});

describe('credence calibration (issue 24)', () => {
  it('prints a 10-bin reliability table, ECE, Brier and the learned map for every kind of the demo store', () => {
    const r = credence(['--scope', 'demo', 'calibration']);
    expect(r.code).toBe(0);
    // Under the first line, what ECE and Brier mean and which way is better (a newcomer saw only the acronyms).
    expect(r.stdout.split('\n')[1]).toMatch(/^ECE: .*\(0 is perfect\); Brier: .*\(lower is better\)/);
    for (const kind of KINDS) {
      const block = r.stdout.split('\n\n').find((b) => b.startsWith(`${kind}: `));
      expect(block, kind).toMatch(/^\w+: \d+ outcomes \(\d+ held true\), ECE \d\.\d{3}, Brier \d\.\d{3}/);
      expect(block?.split('\n').filter((line) => /^ {2}\d\.\d–\d\.\d /.test(line))).toHaveLength(10);
      expect(block).toContain('learned map: ECE');
      // Where the choice is printed, the gain that decided the logistic calibrator, over the choice it was held to.
      if (block?.includes('results use:')) {
        expect(block).toMatch(/\n {2}logistic against (the seed|base rate|map): Brier (better|worse) by \d\.\d{4} ± /);
        // And the test that may refute a kept seed: on the newest half of the outcomes, with its p-value.
        expect(block).toMatch(/\n {2}seed on trial: Cox's test of calibration on the newest \d+ outcomes, p \d/);
      }
    }
  });

  it('gives the report as JSON, for one kind, counting only the outcomes known at --now', () => {
    const report = JSON.parse(credence(['--scope', 'demo', 'calibration', '--kind', 'dag', '--json']).stdout);
    expect(report.kinds.map((k: { kind: string }) => k.kind)).toEqual(['dag']);
    const [dag] = report.kinds;
    expect(dag.bins).toHaveLength(10);
    expect(dag.bins.reduce((s: number, b: { count: number }) => s + b.count, 0)).toBe(dag.outcomes);
    expect(dag).toMatchObject({ enough: true, ece: expect.any(Number), brier: expect.any(Number) });
    expect(dag.map.length).toBeGreaterThan(1);
    if (dag.selection !== undefined)
      expect(dag.selection.logisticOverChoice).toMatchObject({ over: expect.any(String), mean: expect.any(Number) });
    const early = JSON.parse(
      credence(['--scope', 'demo', '--now', '2000-01-01T00:00:00Z', 'calibration', '--kind', 'dag', '--json']).stdout,
    );
    expect(early.kinds[0]).toMatchObject({ outcomes: 0, enough: false, ece: null });
  });

  it('names a kind that is not one, and the valid kinds', () => {
    const r = credence(['calibration', '--kind', 'tool']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('"tool" is not a kind of claim');
    for (const kind of KINDS) expect(r.stderr).toContain(kind);
  });
});
