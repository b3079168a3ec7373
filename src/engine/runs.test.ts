import { describe, expect, it } from 'vitest';
import { openCredence } from './engine.js';
import { INPUT_LIMITS } from '../core/limits.js';
import { runSummary, scoreRun, type RunNodeInput } from './runs.js';
import { openSqliteStore } from '../store/sqlite/index.js';

const T0 = Date.parse('2026-03-01T00:00:00Z');
const node = (name: string, extra: Partial<RunNodeInput> = {}): RunNodeInput => ({
  name,
  intent: 'general',
  intentRule: 'default',
  status: 'success',
  retries: 0,
  startedAt: T0,
  durationMs: 5,
  consumes: [],
  ...extra,
});

describe('scoreRun', () => {
  it('scores each node from outcome, retries and downstream use, and the run as their mean', () => {
    const scored = scoreRun({
      intent: 'research and write a summary',
      startedAt: T0,
      endedAt: T0 + 100,
      nodes: [
        node('searchWeb', { intent: 'research', intentRule: 'name', retries: 2 }),
        node('writeDraft', { intent: 'implementation', intentRule: 'name', consumes: [0] }),
        node('verifyDraft', { intent: 'testing', intentRule: 'name', status: 'failure', consumes: [0, 1] }),
      ],
    });
    // searchWeb: 0.7 − 0.2 (2 retries) + 0.1 (2 later nodes used it) = 0.6; writeDraft: 0.7 + 0.05 = 0.75; verifyDraft:
    // 0.3.
    expect(scored.nodes.map((n) => Number(n.confidence.toFixed(12)))).toEqual([0.6, 0.75, 0.3]);
    expect(scored.confidence).toBeCloseTo((0.6 + 0.75 + 0.3) / 3, 12);
    expect(scored.intentKind).toBe('research');
    expect(scored.summary).toBe(
      'research and write a summary: searchWeb success after 2 retries → writeDraft success → ' +
        'verifyDraft failure; confidence 0.55',
    );
  });

  it('refuses a node that consumes a later node', () => {
    expect(() =>
      scoreRun({ intent: 'x', startedAt: T0, endedAt: T0, nodes: [node('a', { consumes: [1] }), node('b')] }),
    ).toThrow(/only earlier nodes/);
  });
});

describe('recordRun and runs', () => {
  it('stores the run as an execution the graph learns from and recall finds', async () => {
    const credence = await openCredence({ store: openSqliteStore({ path: ':memory:' }), scope: 'r', now: T0 });
    const result = await credence.recordRun({
      intent: 'research the market and write a report',
      startedAt: T0,
      endedAt: T0 + 50,
      nodes: [
        node('flow:report'),
        node('searchMarket', { parent: 0 }),
        node('writeReport', { parent: 0, consumes: [1] }),
      ],
    });
    // The nested flow's own entry is left out of the mean: its children count.
    expect(result.confidence).toBeCloseTo((0.75 + 0.7) / 2, 12);
    const [run] = await credence.runs();
    expect(run).toMatchObject({
      id: result.executionId,
      intentKind: 'research',
      confidence: result.confidence,
      summary: result.summary,
    });
    expect(run?.nodes.map((n) => n.tool)).toEqual(['flow:report', 'searchMarket', 'writeReport']);
    // The stored run explains itself: node intents and confidences, recomputed from what is stored.
    expect(run?.nodes.map((n) => [n.intent, n.confidence, n.downstreamUses])).toEqual([
      ['general', 0.7, 0],
      ['general', 0.75, 1],
      ['general', 0.7, 0],
    ]);
    const edges = (await credence.edges()).map((e) => `${e.type} ${e.from}->${e.to}`).sort();
    expect(edges).toEqual([
      'contains flow:report->searchMarket',
      'contains flow:report->writeReport',
      'dependency searchMarket->writeReport',
      'sequence flow:report->searchMarket',
      'sequence searchMarket->writeReport',
    ]);
    const [recalled] = await credence.recall('market report research');
    expect(recalled).toMatchObject({
      kind: 'execution',
      id: result.executionId,
      parts: { confidence: result.confidence },
    });
    await credence.close();
  });
});

describe('run edge cases', () => {
  it('refuses a malformed run with INVALID_INPUT naming the field', async () => {
    const credence = await openCredence({ store: openSqliteStore({ path: ':memory:' }), scope: 'r', now: T0 });
    await expect(credence.recordRun({} as never)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(
      credence.recordRun({ intent: 'x', startedAt: T0, endedAt: T0, nodes: [node('a', { intent: 'bogus' as never })] }),
    ).rejects.toThrow(/intent/);
    await credence.close();
  });

  it('gives a run with no node no confidence, and a loop no boost from itself', () => {
    expect(scoreRun({ intent: 'x', startedAt: T0, endedAt: T0, nodes: [] }).confidence).toBeNull();
    const loop = scoreRun({
      intent: 'x',
      startedAt: T0,
      endedAt: T0,
      nodes: [node('step'), node('step', { consumes: [0] }), node('step', { consumes: [1] })],
    });
    expect(loop.nodes.map((n) => n.downstreamUses)).toEqual([0, 0, 0]);
  });
});

// A review: a flow of 700 nodes was refused (INPUT_TOO_LARGE) for the summary recordRun writes itself.
describe('a long run’s summary', () => {
  it('keeps its first steps and says how many more, within the stored limit; the run is recorded', async () => {
    const credence = await openCredence({ store: openSqliteStore({ path: ':memory:' }), scope: 'r', now: T0 });
    const nodes = Array.from({ length: 700 }, (_, i) => node(`fetch_page_number_${i}`, { startedAt: T0 + i }));
    const run = await credence.recordRun({ intent: 'crawl the site', startedAt: T0, endedAt: T0 + 700, nodes });
    expect(run.summary.length).toBeLessThanOrEqual(INPUT_LIMITS.summary);
    expect(run.summary).toMatch(/^crawl the site: fetch_page_number_0 success → fetch_page_number_1 success → /);
    const more = Number(/ → … \+(\d+) more steps; confidence 0\.70$/.exec(run.summary)?.[1]);
    const kept = run.summary.split(' → ').length - 1;
    expect(kept + more).toBe(700);
    expect((await credence.runs())[0]?.summary).toBe(run.summary);
    await credence.close();
  });

  it('is the whole run when it fits', () => {
    expect(runSummary('x', [{ name: 'a', status: 'failure', retries: 2 }], 0.1)).toBe(
      'x: a failure after 2 retries; confidence 0.10',
    );
  });
});

// A review: the reason a run stopped was cut to 200 characters before the store scrubbed it, so a token cut in the
// middle was stored in part; an emoji could be split; a run that stopped before any node said `stopped (boom): ;`.
describe('the reason a run stopped, as its summary keeps it', () => {
  const stopped = (error: string, nodes: RunNodeInput[] = [node('fetch')]) =>
    scoreRun({ intent: 'sync', startedAt: T0, endedAt: T0 + 1, nodes, error }).summary;
  const token = `ghp_${'A1b2C3d4E5'.repeat(4)}`;

  it('is scrubbed of a secret before it is cut: a token across the cut is redacted whole, never kept in part', () => {
    expect(stopped(`${'x'.repeat(150)} ${token} rejected`)).toContain(`${'x'.repeat(150)} [REDACTED:github-token] rej`);
    const across = stopped(`${'x'.repeat(190)} ${token} rejected`);
    expect(across).toContain(`${'x'.repeat(190)} [REDACTE…`);
    expect(across).not.toMatch(/ghp_|A1b2/);
  });

  it('keeps the first line, at most 200 characters, an emoji whole; says so when the error had no message', () => {
    const long = stopped(`${'🧠'.repeat(250)}\n    at fetch (flow.js:1:1)`);
    const reason = /stopped \((.*)\): fetch/u.exec(long)?.[1] ?? '';
    expect([...reason]).toHaveLength(200);
    expect(reason).toBe(`${'🧠'.repeat(199)}…`);
    expect(stopped('  \n')).toContain('stopped (an error without a message): fetch success');
  });

  it('says no node ran when the flow threw before its first node', () => {
    expect(stopped('boom', [])).toBe(
      "sync: stopped (boom): no node ran; confidence 0.00 (a run that stopped did not succeed; its nodes' mean none)",
    );
  });
});
