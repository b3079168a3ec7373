/**
 * What became of a DAG or next nodes Credence suggested for a flow, read from the flow's next run (issue 24):
 * real `pocketflow` flows through the adapter into a real engine on an in-memory store.
 */
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it } from 'vitest';
import { isCredenceError } from '../../core/errors.js';
import { openCredence, type Credence } from '../../engine/engine.js';
import { openSqliteStore } from '../../store/sqlite/index.js';
import { instrumentFlow } from './index.js';

const pf = createRequire(import.meta.url)('pocketflow') as typeof import('pocketflow');
type Shared = Record<string, unknown>;
const T0 = Date.parse('2026-03-01T09:00:00Z');

const opened: Credence[] = [];
afterEach(async () => {
  for (const c of opened.splice(0)) await c.close();
});
async function engine(): Promise<Credence> {
  const credence = await openCredence({ store: openSqliteStore({ path: ':memory:' }), scope: 't', now: T0 });
  opened.push(credence);
  return credence;
}

class Fetch extends pf.Node<Shared> {
  override async exec(): Promise<unknown> {
    return 'page';
  }
  override async post(shared: Shared, _p: unknown, out: unknown): Promise<string | undefined> {
    shared.page = out;
    return undefined;
  }
}
class Summarise extends pf.Node<Shared> {
  constructor(readonly fails = false) {
    super(1, 0);
  }
  override async prep(shared: Shared): Promise<unknown> {
    return shared.page;
  }
  override async exec(page: unknown): Promise<unknown> {
    if (this.fails) throw new Error('no summary');
    return `summary of ${String(page)}`;
  }
}

function flowOf(fails = false) {
  const fetch = new Fetch();
  fetch.next(new Summarise(fails));
  return new pf.Flow<Shared>(fetch);
}

describe('the PocketFlow adapter follows suggestions through the next run (issue 24)', () => {
  it('a suggested DAG the flow then ran is succeeded, or failed when a node failed', async () => {
    const credence = await engine();
    const [ok, bad] = await credence.recordShown('dag', [
      { target: 'dag:Fetch,Summarise', confidence: 0.7 },
      { target: 'dag:Fetch,Summarise', confidence: 0.7 },
    ]);
    const dag = { tasks: [{ tool: 'Fetch' }, { tool: 'Summarise' }] };
    const good = instrumentFlow(flowOf(), { credence, intent: 'summarise a page' });
    good.followDag({ shownId: ok as string, dag });
    await good.run({});
    const failing = instrumentFlow(flowOf(true), { credence, intent: 'summarise a page', onRecordError: () => {} });
    failing.followDag({ shownId: bad as string, dag });
    await expect(failing.run({})).rejects.toThrow('no summary');
    expect((await credence.listOutcomes({ kind: 'dag' })).map((o) => [o.id, o.outcome]).sort()).toEqual(
      [
        [ok, 'succeeded'],
        [bad, 'failed'],
      ].sort(),
    );
    // Followed once: a later run decides nothing more.
    await good.run({});
    expect(await credence.listOutcomes({ kind: 'dag' })).toHaveLength(2);
  });

  it('a suggested next node the flow ran next is used', async () => {
    const credence = await engine();
    const flow = instrumentFlow(flowOf(), { credence, intent: 'summarise a page' });
    await flow.run({});
    const next = await credence.suggestNext('Fetch');
    expect(next.map((s) => s.tool)).toEqual(['Summarise']);
    flow.followNext('Fetch', next);
    await flow.run({});
    expect((await credence.listOutcomes({ kind: 'next' })).map((o) => [o.target, o.outcome])).toEqual([
      ['Summarise', 'succeeded'],
    ]);
  });

  it('a suggested next node is decided by the node run after the one it follows, not the flow’s first', async () => {
    const credence = await engine();
    class Load extends pf.Node<Shared> {}
    const load = new Load();
    const fetch = new Fetch();
    load.next(fetch);
    fetch.next(new Summarise());
    const flow = instrumentFlow(new pf.Flow<Shared>(load), { credence, intent: 'load, fetch and summarise' });
    await flow.run({});
    const next = await credence.suggestNext('Fetch');
    expect(next.map((s) => s.tool)).toEqual(['Summarise']);
    flow.followNext('Fetch', next);
    await flow.run({});
    expect((await credence.listOutcomes({ kind: 'next' })).map((o) => [o.target, o.outcome])).toEqual([
      ['Summarise', 'succeeded'],
    ]);
  });

  it('following needs an engine that records outcomes', () => {
    const flow = instrumentFlow(flowOf(), { credence: { recordRun: async () => ({}) as never }, intent: 'x' });
    const error = (() => {
      try {
        flow.followNext('Fetch', [{ tool: 'Summarise', shownId: 'sh-1' }]);
      } catch (e) {
        return e;
      }
    })();
    expect(isCredenceError(error, 'INVALID_INPUT') && error.message).toContain('recordOutcome');
  });

  // Walk 18: followNext('SearchWeb', 'x') threw a bare TypeError, followDag({}) was taken and never decided.
  it('a suggestion that is not one is INVALID_INPUT naming what is wrong, and nothing is followed', async () => {
    const credence = await engine();
    const flow = instrumentFlow(flowOf(), { credence, intent: 'fetch and summarise' });
    const cases: [() => void, RegExp][] = [
      [() => flow.followNext('Fetch', 'x' as never), /^followNext: suggestions must be the list suggestNext gave/],
      [() => flow.followNext('Fetch', [{ shownId: 'sh-1' }] as never), /suggestions\[0\]\.tool must be text/],
      [() => flow.followNext('', []), /^followNext: after must be the name of a node/],
      [() => flow.followDag({} as never), /^followDag: suggestion\.dag\.tasks must be a list/],
      [() => flow.followDag('x' as never), /^followDag takes a suggestion of suggestDag, got a string/],
    ];
    for (const [call, message] of cases) {
      const error = (() => {
        try {
          call();
        } catch (e) {
          return e;
        }
      })();
      expect(isCredenceError(error, 'INVALID_INPUT') && error.message).toMatch(message);
    }
    await flow.run({});
    expect(await credence.listOutcomes()).toEqual([]);
  });
});
