import { describe, expect, it } from 'vitest';
import { engineStore, openCredence } from '../engine.js';
import { openSqliteStore } from '../../store/sqlite/index.js';

const T0 = Date.parse('2026-03-01T00:00:00Z');

async function fresh() {
  let n = 0;
  return openCredence({
    store: openSqliteStore({ path: ':memory:' }),
    scope: 'lib',
    now: T0,
    newId: () => `e${(n += 1)}`,
  });
}

const chain = {
  intent: 'read, parse, write',
  startedAt: T0,
  calls: [
    { tool: 'read_file', status: 'success' as const },
    { tool: 'parse_json', status: 'success' as const, consumes: [0] },
    { tool: 'write_file', status: 'success' as const, consumes: [1] },
  ],
};

describe('the tool-graph library calls', () => {
  it('recordExecution returns the execution, the new tools and every edge it touched, explained', async () => {
    const credence = await fresh();
    const result = await credence.recordExecution(chain);
    expect(result.executions).toEqual([{ id: 'e1', scope: 'lib', calls: 3 }]);
    expect(result.newTools).toEqual(['read_file', 'parse_json', 'write_file']);
    expect(result.edgesUpdated).toBe(4);
    const dep = result.edges.find((e) => e.type === 'dependency' && e.from === 'read_file');
    expect(dep).toMatchObject({
      source: 'inferred',
      count: 1,
      confidence: 0.7,
      parts: { typeWeight: 1, sourceModifier: 0.7, decay: 1 },
    });
    await credence.close();
  });

  it('rejects a malformed execution with INVALID_INPUT and stores nothing', async () => {
    const credence = await fresh();
    await expect(
      credence.recordExecution({ intent: 'x', calls: [{ tool: 'a', status: 'success', consumes: [0] }] }),
    ).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
    expect((await engineStore(credence).counts('lib')).executions).toBe(0);
    await credence.close();
  });

  // Fix B.3: a blank intent was stored; the library refuses it as bad input naming intent (a run's too).
  it('refuses a blank or whitespace-only intent with INVALID_INPUT naming it, and stores nothing', async () => {
    const credence = await fresh();
    for (const intent of ['', '   ', '\n\t', '\u200b', '\u0000', '\u2060\ufeff'])
      await expect(credence.recordExecution({ ...chain, intent })).rejects.toMatchObject({
        code: 'INVALID_INPUT',
        message: expect.stringContaining('intent: must not be blank'),
      });
    const run = { intent: ' ', startedAt: T0, endedAt: T0 + 1, nodes: [] };
    await expect(credence.recordRun(run)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('invalid run: intent: must not be blank'),
    });
    await expect(credence.appendCalls({ id: 's1', intent: ' ' }, () => [])).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('intent: must not be blank'),
    });
    expect((await engineStore(credence).counts('lib')).executions).toBe(0);
    await credence.close();
  });

  // Fix B2 (review B, 5): an append to a run that exists ignores its intent, yet a blank one was refused there.
  it('appends to a run that exists whatever the intent, which stays the one it was created with', async () => {
    const credence = await fresh();
    const call = { tool: 'fs:read', status: 'success' as const };
    await credence.appendCalls({ id: 's2', intent: 'read the config' }, [call]);
    for (const intent of [' ', '\u200b', ''])
      expect((await credence.appendCalls({ id: 's2', intent }, [call])).created, JSON.stringify(intent)).toBe(false);
    const runs = await credence.runs();
    expect(runs.map((r) => [r.intent, r.nodes.length])).toEqual([['read the config', 4]]);
    await expect(credence.appendCalls({ id: 's3', intent: '\u200b' }, [call])).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('invalid execution "s3": intent: must not be blank'),
    });
    expect(await credence.runs()).toHaveLength(1);
    await credence.close();
  });

  it('records an execution with its source’s id once per scope, and marks a repeat as already recorded', async () => {
    const credence = await fresh();
    const first = await credence.recordExecutions([
      { ...chain, id: 'q-1' },
      { ...chain, id: 'q-1', intent: 'the same id, other words' },
      { ...chain, id: 'q-1', scope: 'other' },
      chain,
    ]);
    const [a, b, c, d] = first.executions;
    expect(a).toEqual({ id: expect.stringMatching(/^run-[0-9a-f]{24}$/), scope: 'lib', calls: 3 });
    expect(b).toEqual({ id: a?.id, scope: 'lib', calls: 3, alreadyRecorded: true });
    expect(c).toEqual({ id: a?.id, scope: 'other', calls: 3 });
    expect(d).toEqual({ id: 'e1', scope: 'lib', calls: 3 });
    const again = await credence.recordExecution({ ...chain, id: 'q-1' });
    expect(again.executions).toEqual([{ id: a?.id, scope: 'lib', calls: 3, alreadyRecorded: true }]);
    expect(again.edgesUpdated).toBe(0);
    // A number and its text are one id; an id is read trimmed.
    await credence.recordExecutions([
      { ...chain, id: 42 },
      { ...chain, id: ' 42 ' },
    ]);
    const store = engineStore(credence);
    expect((await store.counts('lib')).executions).toBe(3);
    expect((await store.counts('other')).executions).toBe(1);
    const dependency = (await credence.edges()).find((e) => e.type === 'dependency' && e.from === 'read_file');
    expect(dependency?.count).toBe(3);
    expect((await credence.workflows()).map((w) => w.runs)).toEqual([3]);
    await expect(credence.recordExecution({ ...chain, id: '  ' })).rejects.toThrow(/id: must be a non-empty id/);
    await credence.close();
  });

  // Review B: the look for a held id ran outside the write, so a retry sent while the first call ran met the store's
  // UNIQUE constraint (an INTERNAL error over MCP, the whole batch rolled back); numbers past 2^53 became one id.
  it('records an id once when two recordings of it run at once: the later one finds it held', async () => {
    const credence = await fresh();
    const results = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        credence.recordExecutions([
          { ...chain, id: 'twice' },
          { ...chain, id: i },
        ]),
      ),
    );
    const marks = results.map((r) => r.executions[0]?.alreadyRecorded === true);
    expect(marks.filter((held) => !held)).toHaveLength(1);
    expect((await engineStore(credence).counts('lib')).executions).toBe(5);
    await credence.close();
  });

  it('refuses an id that is a number past 2^53 − 1, or of another kind, or longer than an id may be', async () => {
    const credence = await fresh();
    for (const id of [2 ** 53, 1e21, -1, 1.5, true, { n: 1 }])
      await expect(credence.recordExecution({ ...chain, id: id as never })).rejects.toMatchObject({
        code: 'INVALID_INPUT',
        message: expect.stringContaining('id: must be text or a whole number from 0 to 2^53 − 1'),
      });
    await expect(credence.recordExecution({ ...chain, id: 'q'.repeat(257) })).rejects.toMatchObject({
      code: 'INPUT_TOO_LARGE',
    });
    expect((await engineStore(credence).counts('lib')).executions).toBe(0);
    await credence.close();
  });

  it('records an execution into the scope it names', async () => {
    const credence = await fresh();
    await credence.recordExecution({ ...chain, scope: 'other' });
    expect((await engineStore(credence).counts('other')).executions).toBe(1);
    expect((await engineStore(credence).counts('lib')).executions).toBe(0);
    await credence.close();
  });

  it('declareEdge refuses an unknown type and a self-loop, and never demotes a learned edge', async () => {
    const credence = await fresh();
    await expect(credence.declareEdge({ from: 'a', to: 'b', type: 'friendship' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
    await expect(credence.declareEdge({ from: 'a', to: 'a', type: 'sequence' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
    await credence.recordExecution(chain);
    const declared = await credence.declareEdge({ from: 'read_file', to: 'parse_json', type: 'dependency' });
    expect(declared).toMatchObject({ created: false, edge: { source: 'inferred', count: 1 } });
    await credence.close();
  });

  it('graph statistics give density, its tier and the most central tool', async () => {
    const credence = await fresh();
    expect(await credence.graphStats()).toMatchObject({ vertices: 0, density: 0, tier: 'cold-start', central: [] });
    await credence.recordExecution(chain);
    const stats = await credence.graphStats();
    // 3 tools in use; 2 distinct confident pairs (read→parse, parse→write): 2 / (3·2).
    expect(stats).toMatchObject({ tools: 3, calledTools: 3, edges: 4, vertices: 3, confidentPairs: 2, tier: 'mature' });
    expect(stats.density).toBeCloseTo(1 / 3, 12);
    expect(stats.central[0]).toMatchObject({ tool: 'write_file', calls: 1 });
    await credence.close();
  });

  it('suggestNext: a tool unknown in the scope is UNKNOWN_TOOL naming it; one nothing follows gives []', async () => {
    const credence = await fresh();
    await credence.recordExecution(chain);
    await expect(credence.suggestNext('raed_file')).rejects.toMatchObject({
      code: 'UNKNOWN_TOOL',
      details: { tool: 'raed_file', scope: 'lib' },
    });
    expect(await credence.suggestNext('write_file')).toEqual([]);
    expect((await credence.suggestNext('read_file')).map((s) => s.tool)).toEqual(['parse_json']);
    await credence.close();
  });

  // Walk 4 (item 5): a call consuming an earlier call of the same tool (a polling loop) stores a dependency
  // self-loop; `next check_ready` suggested check_ready itself (0.700, dependency edge).
  it('suggestNext never suggests the tool itself, though a polling loop stored a self-loop', async () => {
    const credence = await fresh();
    await credence.recordExecution({
      intent: 'poll until ready, then deploy',
      startedAt: T0,
      calls: [
        { tool: 'check_ready', status: 'success' },
        { tool: 'check_ready', status: 'success', consumes: [0] },
        { tool: 'deploy', status: 'success', consumes: [1] },
      ],
    });
    const loop = await credence.edges({ from: 'check_ready', to: 'check_ready' });
    expect(loop.map((e) => e.type)).toEqual(['dependency']);
    expect((await credence.suggestNext('check_ready')).map((s) => s.tool)).toEqual(['deploy']);
    await credence.close();
  });

  // Walk 14 (item 5): a fan-out recorded with dependsOn taught branch_a → branch_b (the list's order) and nothing
  // for load → branch_b, so `next branch_a` suggested its sibling.
  it('an explicit DAG recorded with dependsOn teaches its dependencies, never a link between siblings', async () => {
    const credence = await fresh();
    const fanOut = {
      intent: 'fan out',
      startedAt: T0,
      calls: [
        { tool: 'load', status: 'success' as const, dependsOn: [] },
        { tool: 'branch_a', status: 'success' as const, dependsOn: [0] },
        { tool: 'branch_b', status: 'success' as const, dependsOn: [0] },
      ],
    };
    for (let i = 0; i < 3; i += 1) await credence.recordExecution(fanOut);
    const edges = (await credence.edges()).map((e) => `${e.from} → ${e.to} ${e.type}/${e.source} ${e.count}`);
    expect(edges.sort()).toEqual(['load → branch_a sequence/observed 3', 'load → branch_b sequence/observed 3']);
    expect(await credence.suggestNext('branch_a')).toEqual([]);
    expect((await credence.suggestNext('load')).map((s) => s.tool).sort()).toEqual(['branch_a', 'branch_b']);
    await credence.close();
  });
});
