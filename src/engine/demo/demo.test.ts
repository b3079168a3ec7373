import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { engineStore, openCredence } from '../engine.js';
import { openSqliteStore } from '../../store/sqlite/index.js';
import { clipAtWord, runDemo, formatDemo, type DemoReport } from './demo.js';
import { OUTCOME_KINDS } from '../../core/types.js';

const NOW = '2026-02-02T09:00:00Z';
// The demo's evolve writes instinct and skill files under the engine's root: a folder of its own.
const cwd = mkdtempSync(join(tmpdir(), 'credence-demo-test-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

async function demo(): Promise<{ report: DemoReport; counts: Record<string, number> }> {
  const credence = await openCredence({ store: openSqliteStore({ path: ':memory:' }), now: NOW, scope: 'demo', cwd });
  await runDemo(credence, { history: false });
  const report = await runDemo(credence, { history: false }); // twice: the second run must add nothing
  const counts = await engineStore(credence).counts('demo');
  await credence.close();
  return { report, counts };
}

const values = (report: DemoReport, id: string): (number | string)[] =>
  report.sections
    .find((s) => s.id === id)
    ?.lines.map((l) => (typeof l.value === 'number' ? Number(l.value.toFixed(3)) : l.value)) ?? [];

describe('the foundation demo', () => {
  it("walks an edge through the seed's promotion path with the seed's numbers", async () => {
    const { report } = await demo();
    // declared 0.5; runs 1–3: dependency 0.7, 0.7, 1.0 and sequence 0.35, 0.35, 0.5; the failure changes nothing;
    // idle time in whole days, as `credence edges` reads it: the failure and now (under a day idle) stay at 1; 60 idle
    // days later halved.
    expect(values(report, 'edge-promotion')).toEqual([0.5, 0.7, 0.35, 0.7, 0.35, 1, 0.5, 1, 0.5, 1, 0.5]);
    const failure = report.sections[0]?.lines.find((l) => l.label === 'run 4 (failure) dependency');
    expect(failure?.parts).toMatchObject({ idleDays: 0, decay: 1, failures: 1 });
  });

  it('reproduces the local-α and ADR-026 figures', async () => {
    const { report } = await demo();
    expect(values(report, 'local-alpha').map((v) => Number(v).toFixed(2))).toEqual(['0.69', '0.78']);
    const dag = values(report, 'cold-start-dag');
    expect(dag.slice(0, 2)).toEqual([0.471, 0.665]);
    expect(report.sections.find((s) => s.id === 'cold-start-dag')?.lines[2]?.parts.warning).toBe(
      'Low confidence suggestion - graph is in cold start mode. Confidence may improve with usage.',
    );
  });

  it('labels the JWT decision high and the rest lower', async () => {
    const { report } = await demo();
    const recall = report.sections.find((s) => s.id === 'recall-labels');
    expect(recall?.lines[0]).toMatchObject({ label: 'JWT token refresh flow', value: 'high' });
    expect(recall?.lines.slice(1).every((l) => l.value !== 'high')).toBe(true);
  });

  it('turns the camelCase observations into an instinct at 0.65 and tests-before-commit into a skill', async () => {
    const { report } = await demo();
    const learning = report.sections.find((s) => s.id === 'camelcase-instinct');
    expect(learning?.lines[0]?.parts).toMatchObject({ becomes: 'instinct', band: 'probable', significant: true });
    expect(Number(learning?.lines[0]?.value).toFixed(2)).toBe('0.65');
    expect(Number(learning?.lines[1]?.value)).toBeGreaterThanOrEqual(0.7);
  });

  it('stores what it computed, once', async () => {
    const { counts } = await demo();
    expect(counts).toMatchObject({
      tools: 7,
      edges: 2,
      executions: 4,
      calls: 8,
      observations: 6,
      memories: 5,
      instincts: 1,
      skills: 1,
    });
  });

  it('prints every score with its parts', async () => {
    const text = formatDemo((await demo()).report);
    expect(text).toContain('sourceModifier=0.700');
    expect(text).toContain('tier=cold-start');
  });

  it('refuses a scope that holds learned data, and changes nothing there', async () => {
    const credence = await openCredence({
      store: openSqliteStore({ path: ':memory:' }),
      now: NOW,
      scope: 'real-project',
      cwd,
    });
    await credence.recordExecution({
      intent: 'real work',
      calls: [
        { tool: 'read_file', status: 'success' },
        { tool: 'parse_json', status: 'success' },
      ],
    });
    const before = await engineStore(credence).counts('real-project');
    await expect(runDemo(credence)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    expect(await engineStore(credence).counts('real-project')).toEqual(before);
    await credence.close();
  });

  it('runs in two scopes of one database', async () => {
    const store = openSqliteStore({ path: ':memory:' });
    const a = await openCredence({ store, now: NOW, scope: 'demo-a', cwd });
    await runDemo(a);
    const b = await openCredence({ store, now: NOW, scope: 'demo-b', cwd });
    await runDemo(b);
    expect(await store.counts('demo-b')).toEqual(await store.counts('demo-a'));
    await store.close();
  });

  it('run again on the same store, leaves what it learned and what it prints as they were', async () => {
    const store = openSqliteStore({ path: ':memory:' });
    const credence = await openCredence({ store, now: NOW, scope: 'demo', cwd });
    const held = async () => ({
      skills: await store.listSkills('demo'),
      instincts: await store.listInstincts('demo'),
      memories: await store.listMemories('demo'),
      tools: await store.listTools('demo'),
      edges: await store.listEdges('demo'),
    });
    const first = await runDemo(credence);
    const after = await held();
    // The history's evolve grew the scenario's skill: more rules, more evidence.
    const skill = after.skills.find((s) => s.name === 'testing-discipline');
    expect(skill?.rules.length).toBeGreaterThan(1);
    const second = await runDemo(credence);
    expect(await held()).toEqual(after);
    expect(JSON.stringify(second)).toBe(JSON.stringify(first));
    expect(formatDemo(second)).toBe(formatDemo(first));
    await store.close();
  });

  it('run again at an earlier --now, moves no edge back: lastSeen stays the latest run the scope holds', async () => {
    const store = openSqliteStore({ path: ':memory:' });
    let clock = Date.parse('2026-11-27T12:00:00Z');
    const credence = await openCredence({ store, now: () => clock, scope: 'demo', cwd });
    await runDemo(credence, { history: false });
    const edges = await store.listEdges('demo');
    const pair = edges.filter((e) => e.from === 'read_file' && e.to === 'parse_json');
    expect(pair.map((e) => e.lastSeen)).toEqual([clock - 86_400_000 + 20, clock - 86_400_000 + 20]);
    const stats = await credence.graphStats();
    clock = Date.parse(NOW);
    await runDemo(credence, { history: false });
    expect(await store.listEdges('demo')).toEqual(edges);
    // The same store read a day after the first run: the same graph as before the second.
    clock = Date.parse('2026-11-27T12:00:00Z');
    expect((await credence.graphStats()).confidentPairs).toBe(stats.confidentPairs);
    await store.close();
  });

  it('cuts a long label at a whole word, with an ellipsis', () => {
    expect(clipAtWord('instinct: Small commits with imperative subject lines', 50)).toBe(
      'instinct: Small commits with imperative subject…',
    );
    expect(clipAtWord('skill: short', 50)).toBe('skill: short');
  });

  it('plays a month of history through the engine once, and learns from it', async () => {
    const store = openSqliteStore({ path: ':memory:' });
    const credence = await openCredence({ store, now: NOW, scope: 'demo', cwd });
    const first = await runDemo(credence);
    const counts = await store.counts('demo');
    const second = await runDemo(credence);
    expect(await store.counts('demo')).toEqual(counts);
    // 140 runs of the history beside the seed scenarios' 4; their edges learned by the real rules.
    expect(counts.executions).toBe(144);
    expect(counts.observations).toBe(38);
    const history = first.sections.find((s) => s.id === 'learning-history');
    expect(history?.stored).toMatch(
      /^140 runs, 32 observations, 8 memories, evolved into \d+ instinct\(s\) and \d+ skill\(s\)$/,
    );
    expect(second.sections.find((s) => s.id === 'learning-history')?.stored).toBe(history?.stored);
    const stats = await credence.graphStats();
    expect(stats.tier).toBe('growing');
    // PageRank ranks the end of the browser chain every browser run ends on first. Before issue 17 the
    // failed test runs' fixes (Bash → Read) were learned as alternatives into Read, which put Read first.
    expect(stats.central[0]?.tool).toBe('playwright:browser_take_screenshot');
    expect(stats.central.map((c) => c.tool)).toContain('Read');
    // The recurring habits became instincts and skills; one validated instinct was promoted.
    const metrics = await credence.metrics();
    expect(metrics.skills).toBeGreaterThanOrEqual(3);
    expect(metrics.instincts.promoted).toBeGreaterThanOrEqual(1);
    expect(metrics.suggestions.accepted).toBeGreaterThan(0);
    // What became of claims shown over the month, every kind, naming the demo's own things (issue 24).
    for (const kind of OUTCOME_KINDS) expect((await credence.listOutcomes({ kind })).length).toBeGreaterThan(300);
    const skills = new Set((await store.listSkills('demo')).map((s) => `skill:${s.id}`));
    expect((await credence.listOutcomes({ kind: 'skill' })).every((o) => skills.has(o.target))).toBe(true);
    // A failed Grep followed by search_files taught an alternative edge.
    expect(
      (await credence.edges({ from: 'Grep' })).some(
        (e) => e.to === 'filesystem:search_files' && e.type === 'alternative',
      ),
    ).toBe(true);
    // A failed test run followed by a fix (Read, Edit) taught sequences, no alternative (issue 17).
    expect((await credence.edges({ from: 'Bash' })).filter((e) => e.type === 'alternative')).toEqual([]);
    await store.close();
  });
});
