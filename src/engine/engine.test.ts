import { describe, expect, it } from 'vitest';
import { engineStore, openCredence } from './engine.js';
import { openSqliteStore } from '../store/sqlite/index.js';

const T0 = Date.parse('2026-03-01T00:00:00Z');
/** A tool id that holds a secret: the store keeps it as `[REDACTED:github-token]`. */
const SECRET_TOOL = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';
const SECRET = 'abcdefghijklmnopqrstuvwxyz0123456789';

async function fresh() {
  let n = 0;
  return openCredence({
    store: openSqliteStore({ path: ':memory:' }),
    scope: 'lib',
    now: T0,
    newId: () => `e${(n += 1)}`,
  });
}

async function withSecretTool() {
  const credence = await fresh();
  await credence.recordExecution({
    intent: 'call the tool with a token in its name, then jq',
    startedAt: T0,
    calls: [
      { tool: SECRET_TOOL, status: 'success' },
      { tool: 'jq', status: 'success', consumes: [0] },
    ],
  });
  return credence;
}

describe('lookups by an id that holds a secret (issue 17)', () => {
  it('suggestNext finds the tool stored under its scrubbed id', async () => {
    const credence = await withSecretTool();
    const next = await credence.suggestNext(SECRET_TOOL, { track: false });
    expect(next.map((s) => s.tool)).toEqual(['jq']);
    expect(JSON.stringify(next)).not.toContain(SECRET);
    await credence.close();
  });

  it('edges --from and --to find the edges of the tool stored under its scrubbed id', async () => {
    const credence = await withSecretTool();
    const from = await credence.edges({ from: SECRET_TOOL });
    expect(from.map((e) => e.to).sort()).toEqual(['jq', 'jq']);
    expect((await credence.edges({ to: SECRET_TOOL })).length).toBe(0);
    expect((await credence.edges({ to: 'jq' })).map((e) => e.from)).toEqual(from.map((e) => e.from));
    expect(JSON.stringify(from)).not.toContain(SECRET);
    await credence.close();
  });

  it('an unknown tool holding a secret is refused without echoing the secret', async () => {
    const credence = await fresh();
    const error = await credence.suggestNext(`${SECRET_TOOL}x`, { track: false }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'UNKNOWN_TOOL' });
    expect((error as Error).message).not.toContain(SECRET);
    await credence.close();
  });

  it('validateWorkflow knows a catalogue tool named with a secret', async () => {
    const credence = await withSecretTool();
    expect(
      await credence.validateWorkflow({
        tasks: [
          { id: 'a', tool: SECRET_TOOL },
          { id: 'b', tool: 'jq', dependsOn: ['a'] },
        ],
      }),
    ).toEqual({ ok: true, layers: [['a'], ['b']] });
    const unknown = await credence.validateWorkflow({ tasks: [{ id: 'a', tool: `curl -H "token: ${SECRET}"` }] });
    expect(unknown.ok).toBe(false);
    expect(JSON.stringify(unknown)).not.toContain(SECRET);
    await credence.close();
  });

  it('forget finds a memory whose id held a secret', async () => {
    const credence = await fresh();
    const id = `runbook token=${SECRET}`;
    const { ids } = await credence.remember([{ id, title: 'deploy runbook', text: 'deploy with the staging key' }]);
    expect(ids[0]).not.toContain(SECRET);
    expect(await credence.forget(id)).toMatchObject({ kind: 'memory', id: ids[0] });
    expect(await engineStore(credence).getMemory('lib', ids[0] as string)).toBeUndefined();
    await credence.close();
  });

  it('feedback on an unknown id holding a secret is NOT_FOUND without echoing the secret', async () => {
    const credence = await fresh();
    const error = await credence.feedback(SECRET_TOOL, 'accepted').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'NOT_FOUND' });
    expect((error as Error).message).not.toContain(SECRET);
    await credence.close();
  });
});

describe('a closed engine (issue 18)', () => {
  it('holds its store out of reach: no store property, only methods', async () => {
    const credence = await fresh();
    expect('store' in credence).toBe(false);
    expect(Object.keys(credence)).not.toContain('store');
    expect(credence.storeInfo).toEqual({ kind: 'sqlite', location: ':memory:' });
    await credence.close();
  });

  it('gives an observation stated now the clock as its time and f(type, evidence) as its confidence', async () => {
    const credence = await fresh();
    await credence.observeNow({ type: 'pattern', observation: 'runs the tests before each commit' });
    await credence.observeNow({ type: 'correction', observation: 'name files in kebab-case', evidence: ['PR 12'] });
    await credence.observeNow({
      type: 'correction',
      observation: 'use pnpm, not npm',
      confidence: 0.9,
      timestamp: '2026-02-01T10:00:00Z',
    });
    const lines = await credence.exportObservations();
    expect(lines.map((l) => [l.observation, l.timestamp, l.confidence])).toEqual([
      ['use pnpm, not npm', '2026-02-01T10:00:00.000Z', 0.9],
      // Seed 004: an observation starts at 0.3 (0.4 with evidence); a user correction adds 0.2.
      ['runs the tests before each commit', '2026-03-01T00:00:00.000Z', 0.3],
      ['name files in kebab-case', '2026-03-01T00:00:00.000Z', 0.6],
    ]);
    await credence.close();
  });

  it('refuses an observation of an unknown type naming its type alone, not a confidence it did not state', async () => {
    const credence = await fresh();
    const refused = await credence.observeNow({ type: 'nonsense', observation: 'x' } as never).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(refused?.message).toContain('type: must be one of pattern, correction, preference, error, success');
    expect(refused?.message).not.toContain('confidence');
    expect(await credence.exportObservations()).toEqual([]);
    await credence.close();
  });

  it('keeps one graph snapshot until it writes, then builds a new one', async () => {
    const credence = await fresh();
    const before = await credence.graphSnapshot();
    expect(await credence.graphSnapshot()).toBe(before);
    await credence.recordExecution({
      intent: 'read then parse',
      startedAt: T0,
      calls: [
        { tool: 'read', status: 'success' },
        { tool: 'parse', status: 'success', consumes: [0] },
      ],
    });
    const after = await credence.graphSnapshot();
    expect(after).not.toBe(before);
    expect(after.edges.map((e) => `${e.from}→${e.to}`)).toContain('read→parse');
    await credence.close();
  });
});
