import { describe, expect, it } from 'vitest';
import { openCredence } from '../engine/engine.js';
import { openSqliteStore } from '../store/sqlite/index.js';
import { fakeFsGateway, inProcessClient } from '../../test/mcp-helpers.js';

const T0 = Date.parse('2026-02-02T09:00:00Z');

async function session() {
  const store = openSqliteStore({ path: ':memory:' });
  const credence = await openCredence({ store, scope: 'p', now: T0 });
  const names = ['read_file', 'write_file', 'broken'];
  await credence.addTools(names.map((n) => ({ id: `fs:${n}`, description: `${n.replace('_', ' ')} on disk` })));
  for (let i = 0; i < 3; i += 1)
    await credence.recordExecution({
      intent: 'read a file then write it',
      startedAt: T0 - (i + 1) * 3_600_000,
      calls: [
        { tool: 'fs:read_file', status: 'success' },
        { tool: 'fs:write_file', status: 'success', consumes: [0] },
      ],
    });
  const { client, session: s } = await inProcessClient(credence, fakeFsGateway(names));
  const json = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })).structuredContent as Record<string, unknown>;
  return { credence, session: s, client, json };
}

describe('the gateway fills outcomes from the calls after a showing (issue 24)', () => {
  it('a searched tool called succeeds or fails by its call; its untaken siblings are rejected at the end', async () => {
    const { credence, session: s, client, json } = await session();
    try {
      const { results } = (await json('search_tools', { query: 'read a file', limit: 3 })) as {
        results: { tool: string; shownId: string; score: number }[];
      };
      expect(results.map((r) => r.tool).sort()).toEqual(['fs:broken', 'fs:read_file', 'fs:write_file']);
      await client.callTool({ name: 'fs:read_file', arguments: {} });
      await s.recorder.end();
      const outcomes = await credence.listOutcomes({ kind: 'search' });
      const byTool = Object.fromEntries(outcomes.map((o) => [o.target, o.outcome]));
      expect(byTool).toEqual({ 'fs:read_file': 'succeeded', 'fs:write_file': 'rejected', 'fs:broken': 'rejected' });
      const read = results.find((r) => r.tool === 'fs:read_file');
      expect(outcomes.find((o) => o.target === 'fs:read_file')?.confidence).toBeCloseTo(read?.score ?? -1, 12);
    } finally {
      await client.close();
      await credence.close();
    }
  });

  it('a result the user accepted keeps that outcome when the agent then takes a sibling', async () => {
    const { credence, session: s, client, json } = await session();
    try {
      const { results } = (await json('search_tools', { query: 'read a file', limit: 3 })) as {
        results: { tool: string; shownId: string }[];
      };
      const write = results.find((r) => r.tool === 'fs:write_file');
      await credence.feedback(write?.shownId as string, 'accepted');
      await client.callTool({ name: 'fs:read_file', arguments: {} });
      await s.recorder.end();
      const byTool = Object.fromEntries(
        (await credence.listOutcomes({ kind: 'search' })).map((o) => [o.target, o.outcome]),
      );
      expect(byTool).toEqual({ 'fs:read_file': 'succeeded', 'fs:write_file': 'accepted', 'fs:broken': 'rejected' });
    } finally {
      await client.close();
      await credence.close();
    }
  });

  it('the call after next suggestions decides them: one of none rejects all, a suggested one is used', async () => {
    const { credence, session: s, client, json } = await session();
    try {
      const first = (await json('suggest_next', { tool: 'fs:read_file' })) as { suggestions: { tool: string }[] };
      expect(first.suggestions.map((x) => x.tool)).toContain('fs:write_file');
      // The tool the suggestions follow does not count; the next call, of none of them, rejects them all.
      await client.callTool({ name: 'fs:read_file', arguments: {} });
      await client.callTool({ name: 'fs:broken', arguments: {} });
      await json('suggest_next', { tool: 'fs:read_file' });
      await client.callTool({ name: 'fs:write_file', arguments: {} });
      await s.recorder.end();
      // All at the engine's fixed now: sorted.
      const outcomes = (await credence.listOutcomes({ kind: 'next' })).map((o) => `${o.target} ${o.outcome}`).sort();
      expect(outcomes.filter((o) => o.startsWith('fs:write_file'))).toEqual([
        'fs:write_file rejected',
        'fs:write_file succeeded',
      ]);
      expect(outcomes).toHaveLength(2 * first.suggestions.length);
    } finally {
      await client.close();
      await credence.close();
    }
  });

  it('a DAG shown, not run, then followed call by call, succeeds', async () => {
    const { credence, session: s, client, json } = await session();
    try {
      const dag = (await json('execute_dag', { intent: 'read a file then write it', execute: false })) as {
        shownId?: string;
        dag?: { tasks: { tool: string }[] };
      };
      expect(dag.shownId).toMatch(/^sh-/);
      for (const task of dag.dag?.tasks ?? []) await client.callTool({ name: task.tool, arguments: {} });
      await s.recorder.end();
      expect((await credence.listOutcomes({ kind: 'dag' })).map((o) => [o.id, o.outcome])).toEqual([
        [dag.shownId, 'succeeded'],
      ]);
    } finally {
      await client.close();
      await credence.close();
    }
  });
});
