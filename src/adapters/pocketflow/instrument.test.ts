/**
 * @module adapters/pocketflow/instrument.test
 * End-to-end runs of real `pocketflow` flows (the npm package, loaded through its CJS build)
 * through the adapter into a real engine on an in-memory store: SPEC §7, seed 002, issue 7.
 */
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it } from 'vitest';
import { isCredenceError } from '../../core/errors.js';
import { engineStore, openCredence, type Credence } from '../../engine/engine.js';
import { openSqliteStore } from '../../store/sqlite/index.js';
import { instrumentFlow, isWrapped, UNFINISHED_ERROR } from './index.js';

const pf = createRequire(import.meta.url)('pocketflow') as typeof import('pocketflow');

type Shared = Record<string, unknown>;

const T0 = Date.parse('2026-03-01T09:00:00Z');
/** A clock that advances 10 ms at each reading, so every start time and duration is known. */
const steppingClock = (step = 10): (() => number) => {
  let t = T0;
  return () => (t += step);
};

const opened: Credence[] = [];
async function engine(): Promise<Credence> {
  let n = 0;
  const credence = await openCredence({
    store: openSqliteStore({ path: ':memory:' }),
    scope: 't',
    now: T0,
    newId: () => `e${(n += 1)}`,
  });
  opened.push(credence);
  return credence;
}
afterEach(async () => {
  for (const c of opened.splice(0)) await c.close();
});

const edgeList = async (credence: Credence): Promise<string[]> =>
  (await credence.edges()).map((e) => `${e.type} ${e.from}->${e.to}`).sort();
const round = (x: number): number => Number(x.toFixed(12));

/** Reads `from` (if set), writes `to` = what it read plus its own mark. */
class Step extends pf.Node<Shared> {
  constructor(
    readonly from: string | undefined,
    readonly to: string | undefined,
    maxRetries = 1,
  ) {
    super(maxRetries, 0);
  }
  override async prep(shared: Shared): Promise<unknown> {
    return this.from === undefined ? undefined : shared[this.from];
  }
  override async exec(input: unknown): Promise<unknown> {
    return `${String(input)}+${this.constructor.name}`;
  }
  override async post(shared: Shared, _prep: unknown, out: unknown): Promise<string | undefined> {
    if (this.to !== undefined) shared[this.to] = out;
    return undefined;
  }
}
class SearchWeb extends Step {}
class VerifyDraft extends Step {}
class Publish extends Step {}
class Plan extends Step {}
class SearchDocs extends Step {}
class WriteSummary extends Step {}

/** Fails its first `failures` exec attempts (per run), then succeeds. */
class WriteDraft extends Step {
  attempts = 0;
  constructor(
    from: string,
    to: string,
    readonly failures: number,
    maxRetries: number,
  ) {
    super(from, to, maxRetries);
  }
  override async exec(input: unknown): Promise<unknown> {
    this.attempts += 1;
    if (this.attempts <= this.failures) throw new Error(`draft attempt ${this.attempts} failed`);
    return `draft of ${String(input)}`;
  }
}

class ReportFlow extends pf.Flow<Shared> {
  override async post(): Promise<string | undefined> {
    return 'finished';
  }
}

describe('instrumentFlow on a real PocketFlow flow', () => {
  it('records a run whose middle node fails twice, then succeeds: retries 2, confidence 0.7 − 0.2 + 0.05', async () => {
    const credence = await engine();
    const search = new SearchWeb('topic', 'results');
    const write = new WriteDraft('results', 'draft', 2, 3);
    const verify = new VerifyDraft('draft', 'verdict');
    search.next(write).next(verify);
    const flow = new ReportFlow(search);
    const keysBefore = [search, write, verify, flow].map((n) => Object.keys(n));

    const recorded = instrumentFlow(flow, {
      credence,
      intent: 'research a topic and write a draft',
      now: steppingClock(),
    });
    const shared: Shared = { topic: 'bees' };
    const action = await recorded.run(shared);

    // Same semantics as flow.run: the flow's own return value, the user's store written through.
    expect(action).toBe('finished');
    expect(shared).toEqual({
      topic: 'bees',
      results: 'bees+SearchWeb',
      draft: 'draft of bees+SearchWeb',
      verdict: 'draft of bees+SearchWeb+VerifyDraft',
    });
    expect(write.attempts).toBe(0); // PocketFlow runs clones: the user's node object is untouched…
    // …and nothing of the adapter is left on it.
    expect([search, write, verify, flow].map((n) => Object.keys(n))).toEqual(keysBefore);
    expect([search, write, verify].some(isWrapped)).toBe(false);

    const run = recorded.lastRun;
    expect(run).toBeDefined();
    expect(
      run?.nodes.map((n) => [
        n.name,
        n.intent,
        n.intentRule,
        n.status,
        n.retries,
        n.downstreamUses,
        round(n.confidence),
      ]),
    ).toEqual([
      ['SearchWeb', 'research', 'name', 'success', 0, 1, 0.75],
      ['WriteDraft', 'implementation', 'name', 'success', 2, 1, 0.55],
      ['VerifyDraft', 'testing', 'name', 'success', 0, 0, 0.7],
    ]);
    expect(run?.nodes[1]?.parts).toEqual({ base: 0.7, retryPenalty: 0.2, downstreamBoost: 0.05 });
    // The run's confidence is the mean of its nodes' (src/engine/runs.ts).
    expect(run?.confidence).toBeCloseTo((0.75 + 0.55 + 0.7) / 3, 12);

    const [execution] = await engineStore(credence).listExecutions('t');
    expect(execution).toMatchObject({
      id: 'e1',
      intent: 'research a topic and write a draft',
      intentKind: 'research',
      startedAt: T0 + 10,
      summary: run?.summary,
      calls: [
        { tool: 'SearchWeb', status: 'success', retries: 0, durationMs: 10, consumes: [], at: T0 + 20 },
        { tool: 'WriteDraft', status: 'success', retries: 2, durationMs: 10, consumes: [0], at: T0 + 40 },
        { tool: 'VerifyDraft', status: 'success', retries: 0, durationMs: 10, consumes: [1], at: T0 + 60 },
      ],
    });
    expect(execution?.confidence).toBeCloseTo(run?.confidence ?? -1, 12);
    expect(await edgeList(credence)).toEqual([
      'dependency SearchWeb->WriteDraft',
      'dependency WriteDraft->VerifyDraft',
      'sequence SearchWeb->WriteDraft',
      'sequence WriteDraft->VerifyDraft',
    ]);
    expect((await credence.runs())[0]).toMatchObject({ id: 'e1', confidence: run?.confidence });
  });

  it('records a node that throws as a failure (0.3) and re-throws the very same error', async () => {
    const credence = await engine();
    const boom = new Error('the API is down');
    class CallApi extends Step {
      override async exec(): Promise<unknown> {
        throw boom;
      }
    }
    const search = new SearchWeb('topic', 'results');
    const call = new CallApi('results', 'answer');
    const never = new Publish('answer', undefined);
    search.next(call).next(never);
    const recorded = instrumentFlow(new pf.Flow<Shared>(search), {
      credence,
      intent: 'call the API',
      now: steppingClock(),
    });

    let caught: unknown;
    await recorded.run({ topic: 'bees' }).catch((error: unknown) => (caught = error));
    expect(caught).toBe(boom);
    expect(isWrapped(call)).toBe(false);

    expect(recorded.lastRun?.nodes.map((n) => [n.name, n.status, n.retries, round(n.confidence), n.error])).toEqual([
      ['SearchWeb', 'success', 0, 0.75, undefined],
      ['CallApi', 'failure', 0, 0.3, 'the API is down'],
    ]);
    const [execution] = await engineStore(credence).listExecutions('t');
    expect(execution?.calls.map((c) => [c.tool, c.status, c.consumes])).toEqual([
      ['SearchWeb', 'success', []],
      ['CallApi', 'failure', [0]],
    ]);
    // A failed pair is counted against its edges, never confirms them.
    const edges = await credence.edges();
    expect(edges.map((e) => [e.type, e.from, e.to, e.successes, e.failures, e.confidence]).sort()).toEqual([
      ['dependency', 'SearchWeb', 'CallApi', 0, 1, 0],
      ['sequence', 'SearchWeb', 'CallApi', 0, 1, 0],
    ]);
    // The flow threw: the run did not succeed, though its nodes' mean (0.525) is above a success's 0.5.
    expect(recorded.lastRun).toMatchObject({ confidence: 0, error: 'the API is down' });
    expect(recorded.lastRun?.nodesConfidence).toBeCloseTo(0.525, 12);
    expect(recorded.lastRun?.summary).toBe(
      'call the API: stopped (the API is down): SearchWeb success → CallApi failure; confidence 0.00 ' +
        "(a run that stopped did not succeed; its nodes' mean 0.53)",
    );
    expect((await credence.workflows()).map((w) => [w.tools, w.runs, w.successes])).toEqual([
      [['SearchWeb', 'CallApi'], 1, 0],
    ]);
  });

  it('counts a finished run whose nodes all did their work as a success of its workflow', async () => {
    const credence = await engine();
    const search = new SearchWeb('topic', 'results');
    search.next(new Publish('results', undefined));
    const recorded = instrumentFlow(new pf.Flow<Shared>(search), { credence, intent: 'publish', now: steppingClock() });
    await recorded.run({ topic: 'bees' });
    expect(recorded.lastRun?.error).toBeUndefined();
    expect(recorded.lastRun?.nodesConfidence).toBeUndefined();
    expect((await credence.workflows()).map((w) => [w.runs, w.successes])).toEqual([[1, 1]]);
  });

  it('records a failing node with retries: failure 0.3 − 0.1 per retry (maxRetries 3 → 2 retries → 0.1)', async () => {
    const credence = await engine();
    const always = new WriteDraft('topic', 'draft', 99, 3);
    const recorded = instrumentFlow(new pf.Flow<Shared>(always), { credence, intent: 'write', now: steppingClock() });
    await expect(recorded.run({ topic: 'x' })).rejects.toThrow('draft attempt 3 failed');
    expect(recorded.lastRun?.nodes.map((n) => [n.status, n.retries, round(n.confidence)])).toEqual([
      ['failure', 2, 0.1],
    ]);
  });

  it('records a node whose exec failed and whose execFallback returned a value as partial (0.5)', async () => {
    const credence = await engine();
    class FetchPrices extends Step {
      override async exec(): Promise<unknown> {
        throw new Error('timeout');
      }
      override async execFallback(): Promise<unknown> {
        return 'cached prices';
      }
    }
    const fetch = new FetchPrices(undefined, 'prices', 2);
    const publish = new Publish('prices', undefined);
    fetch.next(publish);
    const recorded = instrumentFlow(new pf.Flow<Shared>(fetch), {
      credence,
      intent: 'publish prices',
      now: steppingClock(),
    });
    const shared: Shared = {};
    await recorded.run(shared);
    expect(shared.prices).toBe('cached prices');
    // partial 0.5 − 0.1 (1 retry: maxRetries 2) + 0.05 (Publish read it)
    expect(recorded.lastRun?.nodes.map((n) => [n.name, n.status, n.retries, round(n.confidence)])).toEqual([
      ['FetchPrices', 'partial', 1, 0.45],
      ['Publish', 'success', 0, 0.7],
    ]);

    const single = new FetchPrices(undefined, 'prices');
    const once = instrumentFlow(new pf.Flow<Shared>(single), {
      credence,
      intent: 'fetch prices',
      now: steppingClock(),
    });
    await once.run({});
    expect(once.lastRun?.nodes.map((n) => [n.status, n.retries, round(n.confidence)])).toEqual([['partial', 0, 0.5]]);
  });

  it('records a nested flow as a node entry its children point to: contains edges', async () => {
    const credence = await engine();
    const plan = new Plan('topic', 'plan');
    const searchDocs = new SearchDocs('plan', 'docs');
    const writeSummary = new WriteSummary('docs', 'summary');
    searchDocs.next(writeSummary);
    const research = new pf.Flow<Shared>(searchDocs);
    const publish = new Publish('summary', 'published');
    plan.next(research).next(publish);
    const recorded = instrumentFlow(new pf.Flow<Shared>(plan), {
      credence,
      intent: 'plan, research and publish a summary',
      nodes: new Map([[research, { name: 'flow:research' }]]),
      now: steppingClock(),
    });
    await recorded.run({ topic: 'bees' });

    const [execution] = await engineStore(credence).listExecutions('t');
    expect(execution?.calls.map((c) => [c.tool, c.parent, c.consumes])).toEqual([
      ['Plan', undefined, []],
      ['flow:research', undefined, []],
      ['SearchDocs', 1, [0]],
      ['WriteSummary', 1, [2]],
      ['Publish', undefined, [3]],
    ]);
    expect(recorded.lastRun?.nodes.map((n) => [n.name, n.intent, round(n.confidence)])).toEqual([
      ['Plan', 'general', 0.75],
      ['flow:research', 'research', 0.7], // the name matches *research*
      ['SearchDocs', 'research', 0.75],
      ['WriteSummary', 'implementation', 0.75],
      ['Publish', 'general', 0.7],
    ]);
    expect(await edgeList(credence)).toEqual([
      'contains flow:research->SearchDocs',
      'contains flow:research->WriteSummary',
      'dependency Plan->SearchDocs',
      'dependency SearchDocs->WriteSummary',
      'dependency WriteSummary->Publish',
      'sequence Plan->flow:research',
      'sequence SearchDocs->WriteSummary',
      'sequence WriteSummary->Publish',
      'sequence flow:research->SearchDocs',
    ]);
    expect([plan, research, searchDocs, writeSummary, publish].some(isWrapped)).toBe(false);
  });

  it('boosts a node +0.05 per later node that read its output, at most +0.2, with a dependency edge each', async () => {
    const credence = await engine();
    class Produce extends Step {}
    class Consume extends Step {}
    const a = new Produce(undefined, 'a');
    const b = new Produce(undefined, 'b');
    const readers = [
      ...Array.from({ length: 5 }, () => new Consume('a', undefined)),
      ...Array.from({ length: 2 }, () => new Consume('b', undefined)),
    ];
    let last: InstanceType<typeof pf.Node> = a.next(b);
    for (const r of readers) last = last.next(r);
    const recorded = instrumentFlow(new pf.Flow<Shared>(a), { credence, intent: 'fan out', now: steppingClock() });
    await recorded.run({});
    const nodes = recorded.lastRun?.nodes ?? [];
    expect(nodes.map((n) => n.name)).toEqual([
      'Produce',
      'Produce#2',
      'Consume',
      'Consume#2',
      'Consume#3',
      'Consume#4',
      'Consume#5',
      'Consume#6',
      'Consume#7',
    ]);
    expect(nodes.slice(0, 2).map((n) => [n.downstreamUses, n.parts.downstreamBoost, round(n.confidence)])).toEqual([
      [5, 0.2, 0.9], // 5 × 0.05 = 0.25, capped at 0.2
      [2, 0.1, 0.8],
    ]);
    expect(nodes.slice(2).every((n) => round(n.confidence) === 0.7)).toBe(true);
    const dependencies = (await edgeList(credence)).filter((e) => e.startsWith('dependency'));
    expect(dependencies).toEqual([
      'dependency Produce#2->Consume#6',
      'dependency Produce#2->Consume#7',
      'dependency Produce->Consume',
      'dependency Produce->Consume#2',
      'dependency Produce->Consume#3',
      'dependency Produce->Consume#4',
      'dependency Produce->Consume#5',
    ]);
  });

  it('counts a BatchNode and a ParallelBatchNode as one node each, retries summed over their items', async () => {
    const credence = await engine();
    const flaky = new Set(['b', 'c']);
    const tried = new Set<string>();
    const execItem = async (item: unknown): Promise<unknown> => {
      const key = String(item);
      await new Promise((resolve) => setTimeout(resolve, 0));
      if (flaky.has(key) && !tried.has(key)) {
        tried.add(key);
        throw new Error(`item ${key} failed once`);
      }
      return key.toUpperCase();
    };
    class EmbedChunks extends pf.BatchNode<Shared> {
      override async prep(shared: Shared): Promise<unknown> {
        return shared.chunks;
      }
      override async exec(item: unknown): Promise<unknown> {
        return execItem(item);
      }
      override async post(shared: Shared, _p: unknown, out: unknown): Promise<string | undefined> {
        shared.embedded = out;
        return undefined;
      }
    }
    class IndexChunks extends pf.ParallelBatchNode<Shared> {
      override async prep(shared: Shared): Promise<unknown> {
        return (shared.embedded as string[]).map((s) => `${s.toLowerCase()}2`);
      }
      override async exec(item: unknown): Promise<unknown> {
        return execItem(item === 'c2' ? 'c' : item);
      }
      override async post(shared: Shared, _p: unknown, out: unknown): Promise<string | undefined> {
        shared.indexed = out;
        return undefined;
      }
    }
    const embed = new EmbedChunks(2, 0);
    const index = new IndexChunks(2, 0);
    embed.next(index);
    const recorded = instrumentFlow(new pf.Flow<Shared>(embed), {
      credence,
      intent: 'index documents',
      now: steppingClock(),
    });
    const shared: Shared = { chunks: ['a', 'b', 'c'] };
    await recorded.run(shared);
    expect(shared.indexed).toEqual(['A2', 'B2', 'C']);
    // EmbedChunks: items b and c each failed once (2 retries); IndexChunks: none left to fail.
    expect(recorded.lastRun?.nodes.map((n) => [n.name, n.status, n.retries, n.downstreamUses])).toEqual([
      ['EmbedChunks', 'success', 2, 1],
      ['IndexChunks', 'success', 0, 0],
    ]);
  });

  it('records every execution of a node a flow loops back to, each reading the last writer', async () => {
    const credence = await engine();
    class Draft extends pf.Node<Shared> {
      override async prep(shared: Shared): Promise<unknown> {
        return shared.feedback;
      }
      override async post(shared: Shared): Promise<string | undefined> {
        shared.draft = `draft ${String(shared.round ?? 0)}`;
        return undefined;
      }
    }
    class Review extends pf.Node<Shared> {
      override async post(shared: Shared): Promise<string | undefined> {
        const round = ((shared.round as number | undefined) ?? 0) + 1;
        shared.round = round;
        shared.feedback = `fix ${String(shared.draft)}`;
        return round < 2 ? 'again' : undefined;
      }
    }
    const draft = new Draft();
    const review = new Review();
    draft.next(review).on('again', draft);
    const recorded = instrumentFlow(new pf.Flow<Shared>(draft), {
      credence,
      intent: 'draft and review',
      now: steppingClock(),
    });
    expect(recorded.describe(review)).toEqual({ name: 'Review', intent: 'general', intentRule: 'default' });
    await recorded.run({});
    const [execution] = await engineStore(credence).listExecutions('t');
    expect(execution?.calls.map((c) => [c.tool, c.consumes])).toEqual([
      ['Draft', []],
      ['Review', [0]],
      ['Draft', [1]],
      ['Review', [1, 2]], // its own earlier round wrote `round`; Draft #2 wrote `draft`
    ]);
    // Review reading its own earlier round is a dependency on itself; a repeat in sequence is not an edge.
    expect(await edgeList(credence)).toEqual([
      'dependency Draft->Review',
      'dependency Review->Draft',
      'dependency Review->Review',
      'sequence Draft->Review',
      'sequence Review->Draft',
    ]);
  });

  it('records the children of a nested BatchFlow under it, once per parameter set', async () => {
    const credence = await engine();
    class ReadFile extends pf.Node<Shared, { file?: string }> {
      override async post(shared: Shared): Promise<string | undefined> {
        shared[`file:${String(this._params.file)}`] = 'read';
        return undefined;
      }
    }
    class EachFile extends pf.BatchFlow<Shared, { file?: string }> {
      override async prep(): Promise<{ file?: string }[]> {
        return [{ file: 'a.md' }, { file: 'b.md' }];
      }
    }
    const each = new EachFile(new ReadFile());
    const recorded = instrumentFlow(new pf.Flow<Shared>(each), {
      credence,
      intent: 'read the docs',
      now: steppingClock(),
    });
    const shared: Shared = {};
    await recorded.run(shared);
    expect(shared).toEqual({ 'file:a.md': 'read', 'file:b.md': 'read' });
    expect(recorded.lastRun?.nodes.map((n) => [n.name, n.intent])).toEqual([
      ['EachFile', 'general'],
      ['ReadFile', 'general'],
      ['ReadFile', 'general'],
    ]);
    const [execution] = await engineStore(credence).listExecutions('t');
    expect(execution?.calls.map((c) => [c.tool, c.parent])).toEqual([
      ['EachFile', undefined],
      ['ReadFile', 0],
      ['ReadFile', 0],
    ]);
  });

  it('records a branch still running when a parallel sibling failed the flow as an unfinished failure', async () => {
    const credence = await engine();
    const boom = new Error('branch 1 broke');
    class Branch extends pf.Node<Shared, { delay?: number }> {
      override async exec(): Promise<unknown> {
        if (this._params.delay === 1) throw boom;
        await new Promise((resolve) => setTimeout(resolve, 30));
        return 'late';
      }
    }
    class Fan extends pf.ParallelBatchFlow<Shared, { delay?: number }> {
      override async prep(): Promise<{ delay?: number }[]> {
        return [{ delay: 30 }, { delay: 1 }];
      }
    }
    const recorded = instrumentFlow(new Fan(new Branch()), { credence, intent: 'fan out', now: steppingClock() });
    await expect(recorded.run({})).rejects.toBe(boom);
    expect(recorded.lastRun?.nodes.map((n) => [n.name, n.status, n.error])).toEqual([
      ['Branch', 'failure', UNFINISHED_ERROR],
      ['Branch', 'failure', 'branch 1 broke'],
    ]);
    await new Promise((resolve) => setTimeout(resolve, 40)); // the late branch ends after the run: nothing breaks
    expect(await engineStore(credence).listExecutions('t')).toHaveLength(1);
  });

  it('records a lone node run through the adapter as a one-node run', async () => {
    const credence = await engine();
    const node = new SearchWeb('topic', 'results');
    const recorded = instrumentFlow(node, { credence, intent: 'search', now: steppingClock() });
    const shared: Shared = { topic: 'ants' };
    await recorded.run(shared);
    expect(shared.results).toBe('ants+SearchWeb');
    expect(recorded.lastRun?.nodes.map((n) => [n.name, n.status, round(n.confidence)])).toEqual([
      ['SearchWeb', 'success', 0.7],
    ]);
    expect(isWrapped(node)).toBe(false);
    expect(Object.keys(node)).not.toContain('_run');
  });

  it('keeps concurrent runs of one flow apart and records nothing for a bare flow.run', async () => {
    const credence = await engine();
    class SlowStep extends Step {
      override async exec(input: unknown): Promise<unknown> {
        await new Promise((resolve) => setTimeout(resolve, 1));
        return `${String(input)}!`;
      }
    }
    const first = new SlowStep('in', 'mid');
    const second = new SlowStep('mid', 'out');
    first.next(second);
    const flow = new pf.Flow<Shared>(first);
    const recorded = instrumentFlow(flow, { credence, intent: 'two steps', now: steppingClock(1) });
    const [x, y] = [{ in: 'x' }, { in: 'y' }] as Shared[];
    await Promise.all([recorded.run(x as Shared), recorded.run(y as Shared)]);
    expect([x?.out, y?.out]).toEqual(['x!!', 'y!!']);
    const executions = await engineStore(credence).listExecutions('t');
    expect(executions).toHaveLength(2);
    for (const e of executions)
      expect(e.calls.map((c) => [c.tool, c.consumes, c.parent])).toEqual([
        ['SlowStep', [], undefined],
        ['SlowStep#2', [0], undefined],
      ]);

    expect(isWrapped(first)).toBe(false);
    const bare: Shared = { in: 'z' };
    await flow.run(bare);
    expect(bare.out).toBe('z!!');
    expect(await engineStore(credence).listExecutions('t')).toHaveLength(2);
  });

  it('leaves a non-plain shared store untouched (no Proxy) and still records the nodes', async () => {
    const credence = await engine();
    class MapStep extends pf.Node<Map<string, string>> {
      override async post(shared: Map<string, string>): Promise<string | undefined> {
        shared.set('done', 'yes');
        return undefined;
      }
    }
    const recorded = instrumentFlow(new pf.Flow<Map<string, string>>(new MapStep()), {
      credence,
      intent: 'map store',
      now: steppingClock(),
    });
    const store = new Map<string, string>();
    await recorded.run(store);
    expect(store.get('done')).toBe('yes');
    expect(recorded.lastRun?.nodes.map((n) => [n.name, n.status])).toEqual([['MapStep', 'success']]);
  });

  it('rejects invalid options before the flow runs', async () => {
    const credence = await engine();
    const node = new SearchWeb('topic', 'results');
    const flow = new pf.Flow<Shared>(node);
    expect(() =>
      instrumentFlow(flow, { credence, intent: 'x', nodes: new Map([[node, { intent: 'planning' }]]) }),
    ).toThrow(/unknown intent "planning"/);
    expect(() => instrumentFlow(flow, { credence, intent: ' ' })).toThrow(/options.intent/);
    // Fix B2: only invisible characters are blank too (the one test of the record schemas, isBlankText).
    for (const intent of ['\u200b', '\u0000', '\u2060\ufeff'])
      expect(() => instrumentFlow(flow, { credence, intent }), JSON.stringify(intent)).toThrow(/options.intent/);
    try {
      instrumentFlow(flow, { credence, intent: 'x', nodes: () => ({ name: '' }) });
      expect.unreachable();
    } catch (error) {
      expect(isCredenceError(error, 'INVALID_INPUT')).toBe(true);
    }
    expect(await engineStore(credence).listExecutions('t')).toHaveLength(0);
  });

  it('throws a recording failure after a successful flow, keeps the flow error after a failed one', async () => {
    const failing = { recordRun: () => Promise.reject(new Error('disk full')) };
    const ok = instrumentFlow(new pf.Flow<Shared>(new SearchWeb(undefined, 'r')), { credence: failing, intent: 'x' });
    await expect(ok.run({})).rejects.toThrow('disk full');
    const seen: unknown[] = [];
    const quiet = instrumentFlow(new pf.Flow<Shared>(new SearchWeb(undefined, 'r')), {
      credence: failing,
      intent: 'x',
      onRecordError: (e) => seen.push(e),
    });
    await expect(quiet.run({})).resolves.toBeUndefined();
    expect(seen).toHaveLength(1);
    const boom = new Error('flow broke');
    class Broken extends Step {
      override async exec(): Promise<unknown> {
        throw boom;
      }
    }
    const broken = instrumentFlow(new pf.Flow<Shared>(new Broken(undefined, undefined)), {
      credence: failing,
      intent: 'x',
    });
    await expect(broken.run({})).rejects.toBe(boom);
  });
});

// Walk 7: runs were timed by the wall clock whatever the engine's `now`, so a fixed `now` did not reproduce them.
describe("instrumentFlow on the engine's clock", () => {
  class Slow extends Step {
    override async exec(input: unknown): Promise<unknown> {
      await new Promise((resolve) => setTimeout(resolve, 5));
      return super.exec(input);
    }
  }
  const runOnce = async () => {
    const credence = await engine();
    const search = new Slow('topic', 'results');
    search.next(new Step('results', 'article'));
    const recorded = instrumentFlow(new pf.Flow<Shared>(search), { credence, intent: 'research and write' });
    await recorded.run({ topic: 'bees' });
    return { runs: await credence.runs(), edges: await credence.edges(), workflows: await credence.workflows() };
  };

  it('times runs by the engine fixed now unless `now` is given: the same flow run twice records the same', async () => {
    const first = await runOnce();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const second = await runOnce();
    expect(first.runs[0]?.startedAt).toBe(new Date(T0).toISOString());
    expect(first.edges.length).toBeGreaterThan(0);
    expect(new Set(first.edges.map((e) => e.lastSeen))).toEqual(new Set([new Date(T0).toISOString()]));
    expect(second).toEqual(first);
  });
});
