import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { OutcomeKind } from '../core/types.js';
import { openCredence } from '../engine/engine.js';
import { cliIn } from '../../test/cli.js';

// Walk 9, item 4: the human output of next, tools search, recall and dag showed no learned probability.
const dir = mkdtempSync(join(tmpdir(), 'credence-probability-text-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
mkdirSync(join(dir, '.git'));
const T0 = Date.parse('2026-04-01T09:00:00Z');
const NOW = '2026-04-10T09:00:00Z';

/** A store with a small catalogue, runs read_cfg → parse_cfg / lint_cfg, a memory; `outcomes` verdicts per kind. */
async function store(name: string, outcomes: number): Promise<(...argv: string[]) => ReturnType<typeof cliIn>> {
  const db = join(dir, `${name}.db`);
  let t = T0;
  const c = await openCredence({ db, scope: 'p', now: () => t });
  await c.addTools([
    { id: 'read_cfg', description: 'read the config file from disk' },
    { id: 'parse_cfg', description: 'parse the config file text' },
    { id: 'lint_cfg', description: 'lint the config file for mistakes' },
    { id: 'delete_file', description: 'delete a file from disk' },
  ]);
  const run = (second: string, i: number) => ({
    intent: `load the config file ${i}`,
    startedAt: T0 + i * 60_000,
    calls: [
      { tool: 'read_cfg', status: 'success' as const },
      { tool: second, status: 'success' as const, consumes: [0] },
    ],
  });
  await c.recordExecutions([0, 1, 2, 3, 4].map((i) => run(i < 3 ? 'parse_cfg' : 'lint_cfg', i)));
  await c.remember([{ title: 'Config format', text: 'The config file is TOML, parsed by parse_cfg.' }]);
  t = T0 + 3_600_000;
  for (const kind of ['search', 'next', 'dag', 'recall'] as OutcomeKind[]) {
    const confidences = Array.from({ length: outcomes }, (_, i) => ((i % 10) + 0.5) / 10);
    const ids = await c.recordShown(
      kind,
      confidences.map((confidence, i) => ({ target: `${kind}-${i}`, confidence })),
    );
    // Recorded once the last has come (never dated after the engine's now), then back to when they were shown.
    const shownAt = t;
    t = shownAt + 60_000 + outcomes * 1_000;
    for (const [i, id] of ids.entries())
      await c.recordOutcome(id, i % 3 === 0 ? 'rejected' : 'accepted', { at: shownAt + 60_000 + i * 1_000 });
    t = shownAt;
  }
  await c.close();
  return (...argv) => cliIn(dir, ['--db', db, '--scope', 'p', '--now', NOW, ...argv]);
}

describe('the learned probability in what next, tools search, recall and dag print', () => {
  it('prints it on each result line, as --json carries it, and the DAG its own', async () => {
    const credence = await store('learned', 40);
    const next = await credence('next', 'read_cfg');
    const nextJson = JSON.parse((await credence('next', 'read_cfg', '--json')).stdout);
    expect(next.code, next.stderr).toBe(0);
    const nextLines = next.stdout.trimEnd().split('\n');
    expect(nextLines).toHaveLength(nextJson.length);
    nextJson.forEach((s: { probability: number; probabilityBasis: { calibrator: string } }, i: number) => {
      expect(nextLines[i]).toMatch(
        new RegExp(`  p ${s.probability.toFixed(3)} \\(${s.probabilityBasis.calibrator}, 40 outcomes\\)$`),
      );
    });

    // The three results' lines (a warning line may follow them: memory.unlike, 366a322).
    const search = (await credence('tools', 'search', 'parse the config', '--limit', '3')).stdout.trimEnd();
    const results = search.split('\n').filter((line) => !line.startsWith('warning: '));
    expect(results).toHaveLength(3);
    for (const line of results) expect(line).toMatch(/ {2}p [01]\.\d{3} \([a-z-]+, 40 outcomes\)$/);

    // Recall's p maps the result's score, not its label: printed beside the score it maps (review C, item 4).
    const recall = (await credence('recall', 'config format')).stdout.trimEnd().split('\n');
    const recallJson = JSON.parse((await credence('recall', 'config format', '--format', 'json')).stdout);
    expect(recall.at(-1)).toBe('</memory-context>');
    const first = recallJson[0] as { label: string; score: number; probability: number };
    expect(recall[1]).toMatch(
      new RegExp(
        `\\[confidence:${first.label}\\] {2}score ${first.score.toFixed(3)} → p ${first.probability.toFixed(3)} ` +
          '\\([a-z-]+, 40 outcomes\\)$',
      ),
    );

    const dag = await credence('dag', 'load the config file');
    const dagJson = JSON.parse((await credence('dag', 'load the config file', '--json')).stdout);
    expect(dagJson.probability).toEqual(expect.any(Number));
    expect(dag.stdout).toContain(
      `learned probability of this DAG: p ${dagJson.probability.toFixed(3)} ` +
        `(${dagJson.probabilityBasis.calibrator}, 40 outcomes)\n`,
    );
    for (const out of [next.stdout, search, dag.stdout]) expect(out).not.toContain('no learned probability');
  });

  it('says once per command why there is none when the kind has too few outcomes', async () => {
    const credence = await store('few', 12);
    const cases: [string[], string][] = [
      [['next', 'read_cfg'], 'next'],
      [['tools', 'search', 'parse the config'], 'search'],
      [['recall', 'config format'], 'recall'],
      [['dag', 'load the config file'], 'dag'],
    ];
    for (const [argv, kind] of cases) {
      const r = await credence(...argv);
      expect(r.code, r.stderr).toBe(0);
      const why = `no learned probability yet: 12 ${kind} outcomes of the 30 a learned probability needs`;
      expect(
        r.stdout.split('\n').filter((l) => l.includes('no learned probability')),
        argv.join(' '),
      ).toEqual([why]);
      expect(r.stdout).not.toMatch(/ p [01]\.\d{3} \(/);
    }
  });

  it('says when a search score is above 1 that the stored and calibrated confidence is capped at 1', async () => {
    const credence = await store('cap', 0);
    const [top] = JSON.parse((await credence('tools', 'search', 'read the config file from disk', '--json')).stdout);
    expect(top.tool).toBe('read_cfg');
    expect((await credence('feedback', top.shownId, '--accepted')).code).toBe(0);
    const [again] = JSON.parse((await credence('tools', 'search', 'read the config file from disk', '--json')).stdout);
    expect(again.score).toBeGreaterThan(1);
    const line = (await credence('tools', 'search', 'read the config file from disk')).stdout.split('\n')[0];
    expect(line).toContain(`read_cfg  ${again.score.toFixed(3)} = `);
    expect(line).toContain('(ranked by this sum; stored and calibrated as 1.000, the cap)');
  });
});
