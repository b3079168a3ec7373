import { describe, expect, it } from 'vitest';
import { CredenceError } from '../../core/errors.js';
import type { EmbeddingProvider } from '../../embed/index.js';
import { openCredence } from '../engine.js';
import { openSqliteStore } from '../../store/sqlite/index.js';
import { workflowId, workflowShape } from '../../core/experience/workflow-shape.js';

const T0 = Date.parse('2026-03-01T00:00:00Z');

/** A test provider: 2-d vectors chosen so that cos(query, new_config_reader) is exactly 0.3. */
function testEmbedder(): EmbeddingProvider & { calls: number } {
  const provider = {
    provider: 'ollama' as const,
    model: 'test',
    dimension: 2,
    calls: 0,
    async embed(texts: readonly string[]) {
      provider.calls += 1;
      return texts.map((t) => {
        if (t.startsWith('new_config_reader')) return new Float32Array([0.3, Math.sqrt(1 - 0.09)]);
        if (t.includes('config')) return new Float32Array([1, 0]);
        return new Float32Array([0, 1]);
      });
    },
  };
  return provider;
}

async function engine(embedder: EmbeddingProvider = testEmbedder()) {
  let n = 0;
  return openCredence({
    store: openSqliteStore({ path: ':memory:' }),
    scope: 's',
    now: T0,
    newId: () => `e${(n += 1)}`,
    embedder,
  });
}

describe('hybrid tool search through the engine', () => {
  it("reproduces the seed's example: 2 observations, semantic 0.72, graph 0.30 → α 0.92, score 0.69", async () => {
    const credence = await engine();
    await credence.addTools([
      { id: 'new_config_reader', description: 'Reads configuration' },
      { id: 'list_dir', description: 'Lists a directory' },
    ]);
    // Two runs list_dir → new_config_reader: the reader has 2 observations and the highest PageRank.
    for (let i = 0; i < 2; i += 1) {
      await credence.recordExecution({
        intent: 'x',
        startedAt: T0,
        calls: [
          { tool: 'list_dir', status: 'success' },
          { tool: 'new_config_reader', status: 'success' },
        ],
      });
    }
    // An established context tool (5 calls) with no path to the reader: relatedness 0, centrality 1 → graph 0.3.
    for (let i = 0; i < 5; i += 1)
      await credence.recordExecution({
        intent: 'y',
        startedAt: T0,
        calls: [{ tool: 'unrelated_tool', status: 'success' }],
      });
    // The query matches only the reader by BM25 (ratio 1) and has cosine 0.3 with it: 0.6 · 1 + 0.4 · 0.3 = 0.72.
    const results = await credence.searchTools('read the configuration file', {
      context: ['unrelated_tool'],
      bm25Weight: 0.6,
    });
    const reader = results.find((r) => r.tool === 'new_config_reader');
    expect(reader).toMatchObject({ alpha: 0.92, alphaRule: 'cold-start' });
    expect(reader?.semantic).toBeCloseTo(0.72, 6);
    expect(reader?.graph).toBeCloseTo(0.3, 12);
    expect(reader?.score.toFixed(2)).toBe('0.69');
    for (const r of results) expect(r.score).toBeCloseTo(r.alpha * r.semantic + (1 - r.alpha) * r.graph, 12);
    await credence.close();
  });

  it('embeds the catalogue once, and again only after a write', async () => {
    const embedder = testEmbedder();
    const credence = await engine(embedder);
    await credence.addTools([{ id: 'a_config', description: '' }]);
    await credence.searchTools('config');
    const afterFirst = embedder.calls;
    await credence.searchTools('config again');
    expect(embedder.calls).toBe(afterFirst + 1); // only the query
    await credence.close();
  });
});

describe('DAG suggestion through the engine', () => {
  it('returns explicit_required only when nothing matches', async () => {
    const credence = await engine({
      provider: 'ollama',
      model: 'zero',
      dimension: 2,
      embed: async (t) => t.map(() => new Float32Array([0, 0])),
    });
    const s = await credence.suggestDag('anything at all');
    expect(s).toMatchObject({ mode: 'explicit_required', confidence: 0, dag: { tasks: [] } });
    await credence.close();
  });

  it('learns: after runs of a two-step workflow the DAG orders them by the learned dependency', async () => {
    const credence = await engine();
    await credence.addTools([
      { id: 'search_airport', description: 'Find the airport code of a city' },
      { id: 'search_flights', description: 'Find flights between two airports' },
    ]);
    const cold = await credence.suggestDag('find flights from the airport of London');
    for (let i = 0; i < 3; i += 1) {
      await credence.recordExecution({
        intent: 'find flights from London',
        startedAt: T0,
        calls: [
          { tool: 'search_airport', status: 'success' },
          { tool: 'search_flights', status: 'success', consumes: [0] },
        ],
      });
    }
    const warm = await credence.suggestDag('find flights from London');
    expect(warm.mode).toBe('suggestion');
    expect(warm.dag.tasks.map((t) => [t.tool, t.dependsOn])).toEqual([
      ['search_airport', []],
      ['search_flights', ['t1']],
    ]);
    expect(warm.paths[0]).toMatchObject({
      from: 'search_airport',
      to: 'search_flights',
      type: 'dependency',
      confidence: 1,
    });
    expect(warm.rationale.find((r) => r.tool === 'search_flights')?.sources).toContain('memory');
    // The seed's confidence is the formula over the parts it reports; the confidence is the memory's calibrated one.
    const p = warm.parts;
    expect(warm.memory?.backed).toBe(true);
    expect(warm.confidence).toBe(warm.memory?.expected);
    expect(warm.confidence).toBeGreaterThan(cold.confidence);
    expect(warm.seedConfidence).toBeCloseTo(
      p.hybrid * warm.weights.hybrid + p.pageRank * warm.weights.pageRank + p.pathStrength * warm.weights.path,
      12,
    );
    expect(warm.parts.pathStrength).toBe(1);
    expect(cold.parts.pathStrength).toBe(0.5);
    await credence.close();
  });

  it('names in the rationale the learned workflows and past runs that voted a tool in, and the search', async () => {
    const credence = await engine();
    await credence.addTools([
      { id: 'search_airport', description: 'Find the airport code of a city' },
      { id: 'search_flights', description: 'Find flights between two airports' },
    ]);
    const cold = await credence.suggestDag('find flights from Berlin');
    expect(cold.rationale.length).toBeGreaterThan(0);
    for (const r of cold.rationale) expect(r).toMatchObject({ sources: ['search'], why: 'matched by tool search' });
    const twoSteps = [
      { tool: 'search_airport', status: 'success' as const },
      { tool: 'search_flights', status: 'success' as const, consumes: [0] },
    ];
    const oneStep = [{ tool: 'search_flights', status: 'success' as const }];
    // London and Paris share one learned workflow, Rome has another.
    const run = async (city: string, calls: typeof twoSteps | typeof oneStep) =>
      (await credence.recordExecution({ intent: `find flights from ${city}`, startedAt: T0, calls })).executions[0]?.id;
    const [london, paris, rome] = [
      await run('London', twoSteps),
      await run('Paris', twoSteps),
      await run('Rome', oneStep),
    ];
    const pair = workflowId(workflowShape(twoSteps).key);
    const single = workflowId(workflowShape(oneStep).key);
    // Three runs that disagree do not let the memory answer a default request (see experience.test.ts): asked for.
    const warm = await credence.suggestDag('find flights from Berlin', { selection: 'per-intent' });
    expect(warm.memory?.backed).toBe(true);
    const why = new Map(warm.rationale.map((r) => [r.tool, r]));
    const airport = why.get('search_airport');
    expect(airport?.sources).toEqual(['memory']);
    expect(airport?.why).toContain('vote share 0.67');
    expect(airport?.why).toContain(`learned workflow ${pair} from past runs ${london} "find flights from London"`);
    expect(airport?.why).toContain(`${paris} "find flights from Paris"`);
    expect(airport?.why).not.toContain(single);
    expect(airport?.why).not.toContain('tool search');
    const flights = why.get('search_flights');
    expect(flights?.sources).toEqual(expect.arrayContaining(['memory', 'search']));
    expect(flights?.why).toMatch(/^matched by tool search; proposed by the nearest past runs \(vote share 1\.00\)/);
    expect(flights?.why).toContain(`learned workflow ${single} from past run ${rome} "find flights from Rome"`);
    expect(flights?.why).toContain(`learned workflow ${pair} from past runs ${london}`);
    await credence.close();
  });

  it('validates an explicit workflow against the catalogue', async () => {
    const credence = await engine();
    await credence.addTools([{ id: 'a', description: '' }]);
    const check = await credence.validateWorkflow({
      tasks: [
        { id: 't1', tool: 'a' },
        { id: 't2', tool: 'ghost', dependsOn: ['t1'] },
      ],
    });
    expect(check).toMatchObject({ ok: false, problems: [{ kind: 'unknown-tool', tool: 'ghost' }] });
    await credence.close();
  });

  it('leaves the context tools out, and trusts the graph only when a context tool is established', async () => {
    const credence = await engine();
    await credence.addTools([
      { id: 'config_reader', description: 'Reads configuration' },
      { id: 'config_writer', description: 'Writes configuration' },
    ]);
    const fresh = await credence.searchTools('config', { context: ['config_reader'] });
    expect(fresh.map((r) => r.tool)).toEqual(['config_writer']);
    expect(fresh[0]).toMatchObject({ alpha: 1, alphaRule: 'cold-context' });
    for (let i = 0; i < 5; i += 1) {
      await credence.recordExecution({
        intent: 'z',
        startedAt: T0,
        calls: [
          { tool: 'config_reader', status: 'success' },
          { tool: 'config_writer', status: 'success', consumes: [0] },
        ],
      });
    }
    const warm = await credence.searchTools('config', { context: ['config_reader'] });
    expect(warm[0]).toMatchObject({ tool: 'config_writer', alphaRule: 'heat-diffusion', parts: { relatedness: 1 } });
    expect(warm[0]?.alpha).toBeLessThan(1);
    await credence.close();
  });
});

describe('search and DAG edge cases', () => {
  it('uses meaning alone without context, and says so', async () => {
    const credence = await engine();
    await credence.addTools([{ id: 'config_reader', description: 'Reads configuration' }]);
    const [r] = await credence.searchTools('config');
    expect(r).toMatchObject({ tool: 'config_reader', alpha: 1, alphaRule: 'no-context' });
    await credence.close();
  });

  it('a text of no known word (the zero vector) shows the tools its words match, with similarity 0', async () => {
    const zero: EmbeddingProvider = {
      provider: 'ollama',
      model: 'test-zero',
      dimension: 2,
      async embed(texts: readonly string[]) {
        return texts.map((t) => (/^\d+$/.test(t.trim()) ? new Float32Array([0, 0]) : new Float32Array([0.6, 0.8])));
      },
    };
    const credence = await engine(zero);
    await credence.addTools([
      { id: 'a_first', description: 'Comes first by id' },
      { id: 'b_second', description: 'Comes second by id' },
      { id: 'report_tool', description: 'The 2013 report' },
    ]);
    const results = await credence.searchTools('2013');
    expect(results.map((r) => r.tool)).toEqual(['report_tool']);
    expect(results[0]?.parts).toMatchObject({ similarity: 0, bm25Relative: 1 });
    expect(await credence.searchTools('1999')).toEqual([]);
    await credence.close();
  });

  it('finds the past runs of texts of no known word (the zero vector) by their words, each its own', async () => {
    const zero: EmbeddingProvider = {
      provider: 'ollama',
      model: 'test-zero',
      dimension: 2,
      async embed(texts: readonly string[]) {
        return texts.map((t) => (/^[\d\s]+$/.test(t.trim()) ? new Float32Array([0, 0]) : new Float32Array([0.6, 0.8])));
      },
    };
    const credence = await engine(zero);
    await credence.addTools(['fetch_2013', 'fetch_2014', 'other'].map((id) => ({ id, description: `Tool ${id}` })));
    for (const [intent, tool] of [
      ['2013', 'fetch_2013'],
      ['2014', 'fetch_2014'],
      ['something else entirely', 'other'],
    ] as const)
      for (let i = 0; i < 2; i += 1)
        await credence.recordExecution({ intent, startedAt: T0, calls: [{ tool, status: 'success' }] });
    const memoryOnly = async (text: string) =>
      (await credence.suggestDag(text, { useSearch: false, track: false })).dag.tasks.map((t) => t.tool);
    expect(await memoryOnly('2013')).toEqual(['fetch_2013']);
    expect(await memoryOnly('2014')).toEqual(['fetch_2014']);
    expect(await memoryOnly('2013')).toEqual(['fetch_2013']);
    await credence.close();
  });

  it("shows without context each established tool's own spread as its heat, 0 for a tool in cold start", async () => {
    const credence = await engine();
    await credence.addTools([
      { id: 'config_reader', description: 'Reads configuration' },
      { id: 'config_writer', description: 'Writes configuration' },
      { id: 'config_check', description: 'Checks configuration' },
    ]);
    for (let i = 0; i < 5; i += 1)
      await credence.recordExecution({
        intent: 'z',
        startedAt: T0,
        calls: [
          { tool: 'config_reader', status: 'success' },
          { tool: 'config_writer', status: 'success', consumes: [0] },
          ...(i === 0 ? [{ tool: 'config_check', status: 'success' as const, consumes: [1] }] : []),
        ],
      });
    const graph = await credence.graphSnapshot();
    const results = await credence.searchTools('config', { limit: 3 });
    expect(results.map((r) => r.tool).sort()).toEqual(['config_check', 'config_reader', 'config_writer']);
    for (const r of results) {
      const expected = r.parts.observations >= 5 ? graph.selfSpread(r.tool) : 0;
      expect(r.parts.heat).toBe(expected);
    }
    expect(results.find((r) => r.tool === 'config_reader')?.parts.heat).toBeGreaterThan(0);
    expect(results.find((r) => r.tool === 'config_check')?.parts).toMatchObject({ observations: 1, heat: 0 });
    await credence.close();
  });

  it('refuses an unknown context tool, naming it', async () => {
    const credence = await engine();
    await credence.addTools([{ id: 'config_reader', description: 'Reads configuration' }]);
    await expect(credence.searchTools('config', { context: ['ghost_tool'] })).rejects.toThrow(/ghost_tool/);
    await credence.close();
  });

  it('answers explicit_required for a nonsense intent even on a learned graph', async () => {
    const credence = await openCredence({ store: openSqliteStore({ path: ':memory:' }), scope: 's', now: T0 });
    await credence.addTools([
      { id: 'read_text_file', description: 'Read a text file' },
      { id: 'json_parse', description: 'Parse JSON text' },
    ]);
    for (let i = 0; i < 5; i += 1) {
      await credence.recordExecution({
        intent: 'read the config',
        startedAt: T0,
        calls: [
          { tool: 'read_text_file', status: 'success' },
          { tool: 'json_parse', status: 'success', consumes: [0] },
        ],
      });
    }
    const s = await credence.suggestDag('xyzzy plugh');
    expect(s).toMatchObject({ mode: 'explicit_required', confidence: 0, dag: { tasks: [] } });
    await credence.close();
  });

  // Walk 14 (item 10): float32 sums made the cosine of a unit vector with itself 1.0000000037, and the past run's
  // similarity and the memory's strength for the same intent came out above 1.
  it('never gives a past run a similarity above 1, nor the memory a strength above 1', async () => {
    // 0.6 and 0.8 in float32 are a little above both: the float32 vector's dot product with itself is 1.00000005.
    const unit: EmbeddingProvider = {
      provider: 'ollama',
      model: 'unit',
      dimension: 2,
      embed: async (texts) => texts.map(() => new Float32Array([0.6, 0.8])),
    };
    const credence = await engine(unit);
    await credence.addTools([
      { id: 'load', description: 'Load the data' },
      { id: 'report', description: 'Write the report' },
    ]);
    const run = {
      intent: 'load the data and write the report',
      startedAt: T0,
      calls: [
        { tool: 'load', status: 'success' as const },
        { tool: 'report', status: 'success' as const, consumes: [0] },
      ],
    };
    for (let i = 0; i < 3; i += 1) await credence.recordExecution(run);
    const s = await credence.suggestDag(run.intent, { selection: 'fusion' });
    const similarities = s.memory?.neighbours.map((n) => n.similarity) ?? [];
    expect(similarities).toHaveLength(3);
    expect(Math.max(...similarities, s.memory?.strength ?? 0)).toBe(1);
    const searched = await credence.searchTools(run.intent);
    expect(Math.max(...searched.map((r) => r.semantic))).toBeLessThanOrEqual(1);
    await credence.close();
  });

  // Walk 14 (item 7): the confidence was forced to 0 while the parts kept the seed's path strength of an empty DAG
  // (0.5 × 0.1 = 0.05), and nothing said why there was no DAG nor what to do.
  it('explicit_required: every part is 0, as the confidence, and it says why and what to do', async () => {
    const credence = await openCredence({ store: openSqliteStore({ path: ':memory:' }), scope: 's', now: T0 });
    const empty = await credence.suggestDag('do something');
    expect(empty.mode).toBe('explicit_required');
    const { hybridPart, pageRankPart, pathPart, pathStrength } = empty.parts;
    expect([hybridPart + pageRankPart + pathPart, pathStrength, empty.seedConfidence]).toEqual([0, 0, 0]);
    expect(empty.explicitRequiredBecause).toMatch(/^scope "s" has no tool in its catalogue: add the tools .* yourself/);
    await credence.addTools([{ id: 'read_text_file', description: 'Read a text file' }]);
    const unmatched = await credence.suggestDag('xyzzy plugh');
    expect(unmatched.mode).toBe('explicit_required');
    expect(unmatched.explicitRequiredBecause).toMatch(/^none of the 1 tool\(s\) in scope "s" matches this intent/);
    const found = await credence.suggestDag('read a text file');
    expect(found.mode).toBe('suggestion');
    expect(found.explicitRequiredBecause).toBeUndefined();
    await credence.close();
  });

  it('finds similar past runs by an absolute similarity, weighted by their outcome', async () => {
    const credence = await openCredence({ store: openSqliteStore({ path: ':memory:' }), scope: 's', now: T0 });
    await credence.recordExecution({
      intent: 'find flights to Paris and a hotel',
      startedAt: T0,
      calls: [
        { tool: 'flights', status: 'success' },
        { tool: 'hotels', status: 'failure' },
      ],
    });
    await credence.recordExecution({
      intent: 'read the config file and parse it',
      startedAt: T0,
      calls: [{ tool: 'read', status: 'success' }],
    });
    const flights = await credence.similarExecutions('book flights to Paris');
    expect(flights.map((m) => m.intent)).toEqual(['find flights to Paris and a hotel']);
    // The hotel was never found (no later call of its tool did not fail): a failed run, worth nothing, as execute_dag
    // counts it (the mean of its calls' worth, 0.5, made it a success).
    expect(flights[0]?.quality).toBe(0);
    expect(await credence.similarExecutions('weather tomorrow in Oslo')).toEqual([]);
    await credence.close();
  });

  it('re-embeds everything on a new embedding provider, and never falls back to zeros when it is down', async () => {
    const store = openSqliteStore({ path: ':memory:' });
    const first = await openCredence({ store, scope: 's', now: T0, embedder: testEmbedder() });
    await first.addTools([{ id: 'a_config', description: 'x' }]);
    await first.searchTools('config');
    expect((await store.getEmbeddings('s', 'tool')).map((e) => e.modelKey)).toEqual(['ollama:test:2']);
    const other = {
      provider: 'openai' as const,
      model: 'other',
      dimension: 3,
      embed: async (t: readonly string[]) => t.map(() => new Float32Array([1, 0, 0])),
    };
    const second = await openCredence({ store, scope: 's', now: T0, embedder: other });
    await second.searchTools('config');
    expect((await store.getEmbeddings('s', 'tool')).map((e) => [e.modelKey, e.vector.length])).toEqual([
      ['openai:other:3', 3],
    ]);
    const down = {
      provider: 'ollama' as const,
      model: 'down',
      dimension: 2,
      embed: async () => {
        throw new CredenceError('PROVIDER_UNAVAILABLE', 'ollama at http://127.0.0.1:9 cannot be reached');
      },
    };
    const third = await openCredence({ store, scope: 's', now: T0, embedder: down });
    await expect(third.searchTools('config')).rejects.toMatchObject({ code: 'PROVIDER_UNAVAILABLE' });
    await store.close();
  });
});

describe('same input, same output (issue 17)', () => {
  const DAY = 86_400_000;
  const RECORDED = Date.parse('2026-03-01T08:00:00Z');
  /**
   * A store where reserve_hotel ties to search_hotels by a sequence seen 3 times (observed, exactly 0.5 = the tie
   * threshold when fresh).
   */
  async function store() {
    const s = openSqliteStore({ path: ':memory:' });
    let n = 0;
    const credence = await openCredence({
      store: s,
      scope: 's',
      now: RECORDED,
      newId: () => `e${(n += 1)}`,
      embedder: testEmbedder(),
    });
    await credence.addTools([
      { id: 'search_hotels', description: 'Search hotels in a city' },
      { id: 'reserve_hotel', description: 'Reserve a room' },
      { id: 'weather_now', description: 'Current weather' },
    ]);
    for (let i = 0; i < 3; i += 1) {
      await credence.recordExecution({
        intent: 'book',
        startedAt: RECORDED,
        calls: [
          { tool: 'search_hotels', status: 'success' },
          { tool: 'reserve_hotel', status: 'success' },
        ],
      });
    }
    return s;
  }
  const dagAt = async (s: ReturnType<typeof openSqliteStore>, now: number) => {
    const credence = await openCredence({ store: s, scope: 's', now, embedder: testEmbedder() });
    // The tie rule (off by default since issue 19) is what reads the edge's confidence at `now`.
    const d = await credence.suggestDag('search hotels in Paris', { build: { ties: true }, memoryProposal: false });
    return { tasks: d.dag.tasks, paths: d.paths, rationale: d.rationale.map((r) => [r.tool, r.score]) };
  };

  it('suggests the same DAG on a store a second and a few hours apart, the day the edges were seen', async () => {
    const s = await store();
    const at = await dagAt(s, RECORDED);
    expect(at.tasks.map((t) => t.tool)).toEqual(['search_hotels', 'reserve_hotel']);
    expect(await dagAt(s, RECORDED + 1000)).toEqual(at);
    expect(await dagAt(s, RECORDED + 5 * 3_600_000)).toEqual(at);
  });

  it('suggests the same DAG at any two instants of one idle day: edge confidence counts whole idle days', async () => {
    const s = await store();
    const later = await dagAt(s, RECORDED + 10 * DAY);
    expect(await dagAt(s, RECORDED + 10 * DAY + 1000)).toEqual(later);
    expect(await dagAt(s, RECORDED + 10 * DAY + 23 * 3_600_000)).toEqual(later);
    const credence = await openCredence({
      store: s,
      scope: 's',
      now: RECORDED + 10 * DAY + 3_600_000,
      embedder: testEmbedder(),
    });
    const [edge] = await credence.edges({ from: 'search_hotels' });
    expect(edge?.parts.idleDays).toBe(10);
    expect(edge?.confidence).toBe(0.5 * 0.5 ** (10 / 60));
  });
});
