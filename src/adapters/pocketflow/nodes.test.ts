/**
 * @module adapters/pocketflow/nodes.test
 * Seed 002's four intent cases through the adapter, with real `pocketflow` nodes: known name
 * patterns, unknown → general, an explicit config intent overrides the name, case-insensitive
 * (SPEC §7). Plus naming (class name, #2 for repeats, options) and graph discovery.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type { RunInput, RunResult } from '../../engine/runs.js';
import { collectNodes, instrumentFlow, NodeNaming } from './index.js';

const pf = createRequire(import.meta.url)('pocketflow') as typeof import('pocketflow');

/** A recorder that keeps what the adapter sends, without an engine. */
function capture(): { credence: { recordRun(run: RunInput): Promise<RunResult> }; runs: RunInput[] } {
  const runs: RunInput[] = [];
  return {
    runs,
    credence: {
      recordRun: async (run) => {
        runs.push(run);
        return { executionId: 'x', intent: run.intent, intentKind: 'general', confidence: 0, summary: '', nodes: [] };
      },
    },
  };
}

class SearchWeb extends pf.Node {}
class WriteCode extends pf.Node {}
class RunTests extends pf.Node {}
class VerifyOutput extends pf.Node {}
class FixBug extends pf.Node {}
class UpdateReadme extends pf.Node {}
class Summarize extends pf.Node {}
class Greet extends pf.Node {}

async function intentsOf(
  nodes: InstanceType<typeof pf.Node>[],
  options?: Parameters<typeof instrumentFlow>[1]['nodes'],
) {
  const [first, ...rest] = nodes;
  if (first === undefined) throw new Error('no nodes');
  let last = first;
  for (const n of rest) last = last.next(n);
  const { credence, runs } = capture();
  await instrumentFlow(new pf.Flow(first), {
    credence,
    intent: 'test',
    ...(options === undefined ? {} : { nodes: options }),
  }).run({});
  return runs[0]?.nodes.map((n) => [n.name, n.intent, n.intentRule]);
}

describe('node intents through the adapter (seed 002)', () => {
  it('maps known name patterns to their intents', async () => {
    expect(
      await intentsOf([
        new SearchWeb(),
        new WriteCode(),
        new RunTests(),
        new VerifyOutput(),
        new FixBug(),
        new UpdateReadme(),
      ]),
    ).toEqual([
      ['SearchWeb', 'research', 'name'],
      ['WriteCode', 'implementation', 'name'],
      ['RunTests', 'testing', 'name'],
      ['VerifyOutput', 'testing', 'name'],
      ['FixBug', 'debugging', 'name'],
      ['UpdateReadme', 'documentation', 'name'],
    ]);
  });

  it('falls back to general for an unknown name', async () => {
    expect(await intentsOf([new Summarize(), new Greet()])).toEqual([
      ['Summarize', 'general', 'default'],
      ['Greet', 'general', 'default'],
    ]);
  });

  it('lets an explicit intent in the config override the name; description and tags only hint', async () => {
    const search = new SearchWeb();
    const summarize = new Summarize();
    const greet = new Greet();
    const options = new Map<object, { intent?: string; description?: string; tags?: string[] }>([
      [search, { intent: 'documentation' }],
      [summarize, { description: 'verify the summary against the sources' }],
      [greet, { tags: ['chat', 'debug-session'] }],
    ]);
    expect(await intentsOf([search, summarize, greet], options)).toEqual([
      ['SearchWeb', 'documentation', 'explicit'],
      ['Summarize', 'testing', 'hint'],
      ['Greet', 'debugging', 'hint'],
    ]);
    // A hint never beats the name.
    expect(await intentsOf([new WriteCode()], () => ({ description: 'search the web' }))).toEqual([
      ['WriteCode', 'implementation', 'name'],
    ]);
  });

  it('matches names and explicit intents case-insensitively', async () => {
    const a = new Greet();
    const b = new Greet();
    const c = new Greet();
    const d = new Greet();
    const names = new Map<object, { name?: string; intent?: string }>([
      [a, { name: 'WEB_SEARCH' }],
      [b, { name: 'implementFeature' }],
      [c, { name: 'debugger' }],
      [d, { intent: '  Testing ' }],
    ]);
    expect(await intentsOf([a, b, c, d], names)).toEqual([
      ['WEB_SEARCH', 'research', 'name'],
      ['implementFeature', 'implementation', 'name'],
      ['debugger', 'debugging', 'name'],
      ['Greet', 'testing', 'explicit'],
    ]);
  });
});

describe('node naming', () => {
  it('names by class, de-duplicates repeats with #2, #3, and never takes an explicit name', () => {
    const [s1, s2, s3, g] = [new Summarize(), new Summarize(), new Summarize(), new Greet()];
    const naming = new NodeNaming(new Map([[g, { name: 'Summarize#2' }]]));
    naming.register([s1, s2, s3, g]);
    expect([s1, s2, s3, g].map((n) => naming.describe(n).name)).toEqual([
      'Summarize',
      'Summarize#3',
      'Summarize#4',
      'Summarize#2',
    ]);
    // Stable: registering again (a later run) changes nothing; a new node takes the next free name.
    const s4 = new Summarize();
    naming.register([s4, s1]);
    expect(naming.describe(s4).name).toBe('Summarize#5');
    expect(naming.describe(s1).name).toBe('Summarize');
  });

  it('assigns nothing when an option is invalid', () => {
    const [ok, bad] = [new Summarize(), new Greet()];
    const naming = new NodeNaming(new Map([[bad, { intent: 'planning' }]]));
    expect(() => naming.register([ok, bad])).toThrow(/unknown intent/);
    expect(naming.peek(ok)).toBeUndefined();
  });

  it('finds every node a flow can reach: nested flows, branches, loops, each once', () => {
    const a = new Summarize();
    const b = new Greet();
    const c = new SearchWeb();
    const d = new WriteCode();
    const inner = new pf.Flow(c);
    c.next(d);
    a.on('left', b);
    a.on('right', inner);
    b.next(a); // a loop
    const flow = new pf.Flow(a);
    expect(collectNodes(flow)).toEqual([a, b, inner, c, d]);
    expect(collectNodes(a)).toEqual([a]);
  });
});
