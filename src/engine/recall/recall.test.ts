import { describe, expect, it } from 'vitest';
import { engineStore, openCredence } from '../engine.js';
import type { MemoryInput } from '../../schemas/index.js';
import { openSqliteStore } from '../../store/sqlite/index.js';

const NOW = Date.parse('2026-06-01T00:00:00Z');
const DAY = 86_400_000;

async function engine() {
  return openCredence({ store: openSqliteStore({ path: ':memory:' }), scope: 'r', now: NOW });
}

describe('recall ranking and labels', () => {
  it('ranks by stored confidence and by age when the text matches equally', async () => {
    const credence = await engine();
    const memory = (id: string, confidence: number | undefined, daysOld: number) => ({
      id,
      category: 'note' as const,
      title: 'Redis cache eviction policy',
      text: 'The cache evicts least recently used keys.',
      tags: [],
      ...(confidence === undefined ? {} : { confidence }),
      createdAt: NOW - daysOld * DAY,
      updatedAt: NOW - daysOld * DAY,
    });
    await engineStore(credence).upsertMemories('r', [
      memory('unsure', 0.2, 0),
      memory('sure', 0.9, 0),
      memory('sure-but-old', 0.9, 400),
    ]);
    const results = await credence.recall('redis cache eviction');
    expect(results.map((r) => r.id)).toEqual(['sure', 'sure-but-old', 'unsure']);
    const [sure, old, unsure] = results;
    expect(sure?.parts.confidenceFactor).toBeCloseTo(1 - 0.2 * 0.1, 12);
    expect(unsure?.parts.confidenceFactor).toBeCloseTo(1 - 0.2 * 0.8, 12);
    expect(old?.parts.recencyFactor).toBeLessThan(sure?.parts.recencyFactor ?? 0);
    await credence.close();
  });

  it('labels over the whole pool: --limit does not remove the margin check', async () => {
    const credence = await engine();
    await credence.remember(
      ['a', 'b', 'c'].map((x) => ({
        id: `tie-${x}`,
        title: 'Redis caching',
        text: 'We use redis caching for sessions.',
      })),
    );
    const one = await credence.recall('redis caching', { limit: 1 });
    const all = await credence.recall('redis caching', { limit: 5 });
    expect(one[0]?.label).toBe(all[0]?.label);
    expect(one[0]?.label).not.toBe('high');
    expect((await credence.recall('redis caching', { limit: 1, labels: { mode: 'seed' } }))[0]?.label).toBe('high');
    await credence.close();
  });

  it('returns nothing for a query no memory answers, rather than unrelated ones', async () => {
    const credence = await engine();
    await credence.remember([{ title: 'JWT refresh', text: 'Access tokens are refreshed by the middleware.' }]);
    expect(await credence.recall('banana smoothie recipe with oat milk')).toEqual([]);
    await credence.close();
  });

  it('finds observations by their evidence and task, and past runs by their intent', async () => {
    const credence = await engine();
    await credence.observe([
      {
        timestamp: '2026-05-30T10:00:00Z',
        type: 'success',
        context: { task: 'quixotic migration' },
        observation: 'Schema change shipped',
        evidence: ['zygomorphic index rebuilt'],
        confidence: 0.7,
      },
    ]);
    await credence.recordExecution({
      intent: 'deploy the kubernetes cluster',
      startedAt: NOW - DAY,
      calls: [{ tool: 'kubectl_apply', status: 'success' }],
    });
    expect((await credence.recall('zygomorphic'))[0]).toMatchObject({ kind: 'observation', category: 'success' });
    expect((await credence.recall('quixotic'))[0]).toMatchObject({ kind: 'observation' });
    expect((await credence.recall('kubernetes deploy'))[0]).toMatchObject({
      kind: 'execution',
      title: 'deploy the kubernetes cluster',
    });
    await credence.close();
  });

  it('refuses to overwrite what evolve owns, and derives ids from scrubbed text', async () => {
    const credence = await engine();
    await expect(credence.remember([{ id: 'instinct-x', title: 't', text: 'x' }])).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
    await expect(
      credence.remember([{ category: 'skill', title: 't', text: 'x' } as unknown as MemoryInput]),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    const key = ['sk', 'ant', 'api03', 'Q1w2E3r4T5y6U7i8O9p0A1s2D3f4G5h6J7k8'].join('-');
    const withSecret = await credence.remember([{ title: 'deploy key', text: `export ANTHROPIC_API_KEY=${key}` }]);
    const scrubbed = await credence.remember([
      { title: 'deploy key', text: 'export ANTHROPIC_API_KEY=[REDACTED:anthropic-key]' },
    ]);
    expect(withSecret.ids).toEqual(scrubbed.ids);
    await credence.close();
  });
});
