import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { codeOf } from '../../../test/helpers.js';
import { generateHabitStream } from '../../../eval/habits/stream.js';
import { CONTRADICTIONS, HABITS } from '../../../eval/habits/templates.js';
import { wordVectorProvider } from '../../embed/word-vectors.js';
import {
  GROUPING_DEFAULTS,
  groupObservations,
  observationTerms,
  patternText,
  stemWord,
  type Grouping,
  type GroupingItem,
} from './pattern-grouping.js';
import type { ObservationType } from '../types.js';

const provider = wordVectorProvider();
const HOUR = 3_600_000;
const T0 = Date.parse('2026-02-01T10:00:00Z');

/** Items with the default offline embeddings of their pattern text. */
async function embedded(
  rows: readonly { id: string; text: string; type?: ObservationType; at?: number; confidence?: number }[],
): Promise<GroupingItem[]> {
  const vectors = await provider.embed(rows.map((r) => patternText(r.text)));
  return rows.map((r, i) => ({
    id: r.id,
    text: r.text,
    type: r.type ?? 'pattern',
    timestamp: r.at ?? T0 + i * HOUR,
    confidence: r.confidence ?? 0.5,
    vector: vectors[i] as Float32Array,
  }));
}

/** Groups as sorted sets of ids, sorted: a canonical form to compare groupings. */
const canonical = (g: Grouping): string[][] =>
  g.groups.map((x) => [...x.ids].sort()).sort((a, b) => (a.join() < b.join() ? -1 : 1));

const SEED_EXAMPLE_1 = [
  {
    id: 'c1',
    text: 'User asks for camelCase naming',
    type: 'correction' as const,
    at: Date.parse('2026-02-01T10:00:00Z'),
    confidence: 0.4,
  },
  {
    id: 'c2',
    text: 'Correction: snake_case → camelCase',
    type: 'correction' as const,
    at: Date.parse('2026-02-01T14:00:00Z'),
    confidence: 0.5,
  },
  {
    id: 'c3',
    text: 'All the code uses camelCase',
    type: 'pattern' as const,
    at: Date.parse('2026-02-02T09:00:00Z'),
    confidence: 0.6,
  },
];
const SEED_EXAMPLE_2 = [
  {
    id: 't1',
    text: 'Tests run before commit',
    type: 'success' as const,
    at: Date.parse('2026-02-02T06:00:00Z'),
    confidence: 0.7,
  },
  {
    id: 't2',
    text: 'CI green after commit',
    type: 'success' as const,
    at: Date.parse('2026-02-02T07:00:00Z'),
    confidence: 0.7,
  },
  {
    id: 't3',
    text: 'Commit without tests made CI red',
    type: 'error' as const,
    at: Date.parse('2026-02-02T08:00:00Z'),
    confidence: 0.8,
  },
];

describe('stemWord and observationTerms', () => {
  it('reduces the forms of a word to one stem', () => {
    expect(new Set(['commit', 'commits', 'committed', 'committing'].map(stemWord))).toEqual(new Set(['commit']));
    expect(stemWord('rebasing')).toBe(stemWord('rebase'));
    expect(stemWord('dependencies')).toBe('dependency');
    expect(stemWord('class')).toBe('class');
    expect(stemWord('string')).toBe('string');
  });

  it('splits identifiers, drops stop words, numbers and file paths, and applies aliases', () => {
    expect(observationTerms('Renamed user_id in src/api/users.ts (session 12)')).toEqual([
      'renam',
      'user',
      'id',
      'session',
    ]);
    expect(observationTerms('Ran the tests')).toEqual(['run', 'test']);
    expect(observationTerms('Split the PR')).toEqual(['split', 'pull', 'request']);
    expect(observationTerms('Correction: snake_case → camelCase')).toEqual(['correction', 'snak', 'cas', 'camel']);
  });

  it('reads words that are also names of object properties as words', () => {
    expect(observationTerms('the constructor of valueOf')).toEqual(['constructor', 'valu']);
  });

  it('keeps slashes that are not paths', () => {
    expect(observationTerms('Use async/await')).toEqual(['use', 'async', 'await']);
    expect(patternText('Fixed src/api/users.ts today')).toBe('Fixed today');
  });
});

describe('groupObservations', () => {
  it('groups the seed examples by meaning: camelCase together, tests-before-commit together (seed 004)', async () => {
    const items = await embedded([...SEED_EXAMPLE_1, ...SEED_EXAMPLE_2]);
    const result = groupObservations(items);
    expect(canonical(result)).toEqual([
      ['c1', 'c2', 'c3'],
      ['t1', 't2', 't3'],
    ]);
    expect(result.singletons).toEqual([]);
    for (const group of result.groups) {
      expect(group.ids).toContain(group.representative);
      expect(group.label).toBe(items.find((i) => i.id === group.representative)?.text);
    }
  });

  it('groups each seed example alone as well, in the wording of the seed and of issue 6', async () => {
    expect(canonical(groupObservations(await embedded(SEED_EXAMPLE_1)))).toEqual([['c1', 'c2', 'c3']]);
    expect(canonical(groupObservations(await embedded(SEED_EXAMPLE_2)))).toEqual([['t1', 't2', 't3']]);
    const turned = SEED_EXAMPLE_2.map((o) =>
      o.id === 't3' ? { ...o, text: 'Commit without tests turned CI red' } : o,
    );
    expect(canonical(groupObservations(await embedded(turned)))).toEqual([['t1', 't2', 't3']]);
  });

  it('leaves unrelated observations apart', async () => {
    const items = await embedded([
      { id: 'u1', text: 'User asks for camelCase naming' },
      { id: 'u2', text: 'The staging database was renamed to staging-eu' },
      { id: 'u3', text: 'Invoice numbers restart every January' },
      { id: 'u4', text: 'The coffee machine API has no authentication' },
      { id: 'u5', text: 'Tests run before commit' },
      { id: 'u6', text: 'User is travelling to Lisbon next week' },
      { id: 'u7', text: 'Satellite images arrived rotated by ninety degrees' },
    ]);
    const result = groupObservations(items);
    expect(result.groups).toEqual([]);
    expect(result.singletons).toEqual(['u1', 'u2', 'u3', 'u4', 'u5', 'u6', 'u7']);
  });

  it('groups repeated wordings without vectors (lexical similarity alone)', () => {
    const items: GroupingItem[] = [
      'Use pnpm, not npm',
      'use pnpm not npm',
      'Invoice numbers restart every January',
    ].map((text, i) => ({
      id: `x${i}`,
      text,
      type: 'preference',
      timestamp: i,
      confidence: 0.5,
    }));
    expect(canonical(groupObservations(items))).toEqual([['x0', 'x1']]);
  });

  it('handles hostile texts in linear time (long paths, long runs of separators)', () => {
    const items: GroupingItem[] = [
      'a/'.repeat(50_000),
      ' '.repeat(100_000) + 'x',
      '-'.repeat(100_000),
      'word '.repeat(20_000),
    ].map((text, i) => ({
      id: `h${i}`,
      text,
      type: 'pattern',
      timestamp: i,
      confidence: 0.5,
    }));
    expect(groupObservations(items).singletons).toHaveLength(4);
  });

  it('returns nothing for no observations', () => {
    expect(groupObservations([])).toEqual({ groups: [], singletons: [] });
  });

  it('does not depend on the order of its input', async () => {
    const stream = generateHabitStream({
      seed: 11,
      total: 160,
      noise: 40,
      habits: HABITS.slice(0, 6),
      contradictions: [],
    });
    const items = await embedded(
      stream.observations.map((o) => ({
        id: o.id,
        text: o.text,
        type: o.type,
        at: o.timestamp,
        confidence: o.confidence,
      })),
    );
    const reference = groupObservations(items);
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: items.length, maxLength: items.length }),
        (keys) => {
          const shuffled = items
            .map((item, i) => ({ item, key: keys[i] as number }))
            .sort((a, b) => a.key - b.key)
            .map((x) => x.item);
          const result = groupObservations(shuffled);
          expect(result).toEqual(reference);
        },
      ),
      { numRuns: 20 },
    );
  });

  it('rejects repeated ids, vectors of different dimensions and options out of range with INVALID_INPUT', () => {
    const item = (id: string, vector?: Float32Array): GroupingItem => ({
      id,
      text: 'a text',
      type: 'pattern',
      timestamp: 0,
      confidence: 0.5,
      ...(vector ? { vector } : {}),
    });
    expect(codeOf(() => groupObservations([item('a'), item('a')]))).toBe('INVALID_INPUT');
    expect(codeOf(() => groupObservations([item('a', new Float32Array(3)), item('b', new Float32Array(4))]))).toBe(
      'INVALID_INPUT',
    );
    expect(codeOf(() => groupObservations([{ ...item('a'), timestamp: Number.NaN }]))).toBe('INVALID_INPUT');
    expect(codeOf(() => groupObservations([item('a')], { joinThreshold: 1.5 }))).toBe('INVALID_INPUT');
    expect(codeOf(() => groupObservations([item('a')], { candidateLimit: 0 }))).toBe('INVALID_INPUT');
  });

  it('has frozen defaults', () => {
    expect(Object.isFrozen(GROUPING_DEFAULTS)).toBe(true);
  });
});

describe('groupObservations on a small stream (300 observations, 5 habits)', () => {
  let stream: ReturnType<typeof generateHabitStream>;
  let result: Grouping;
  beforeAll(async () => {
    const habits = HABITS.slice(0, 5);
    stream = generateHabitStream({
      seed: 3,
      total: 300,
      noise: 60,
      habits,
      contradictions: CONTRADICTIONS.filter((c) => habits.some((h) => h.key === c.habit)),
    });
    result = groupObservations(
      await embedded(
        stream.observations.map((o) => ({
          id: o.id,
          text: o.text,
          type: o.type,
          at: o.timestamp,
          confidence: o.confidence,
        })),
      ),
    );
  });

  it('finds every habit as the majority of a group of ≥ 3, and no group led by noise has ≥ 3 members', () => {
    const habitOf = new Map(stream.observations.map((o) => [o.id, o.habit ?? '-']));
    const majorities = result.groups.map((g) => {
      const counts = new Map<string, number>();
      for (const id of g.ids) counts.set(habitOf.get(id) as string, (counts.get(habitOf.get(id) as string) ?? 0) + 1);
      return { size: g.ids.length, counts: [...counts].sort((a, b) => b[1] - a[1]) };
    });
    const found = new Set(
      majorities.filter((m) => m.size >= 3 && m.counts[0]?.[0] !== '-').map((m) => m.counts[0]?.[0]),
    );
    expect([...found].sort()).toEqual(stream.habits.slice().sort());
    // No group holds three or more observations of two habits.
    for (const m of majorities) expect(m.counts.filter(([h, n]) => h !== '-' && n >= 3).length).toBeLessThanOrEqual(1);
    expect(majorities.filter((m) => m.size >= 3 && m.counts[0]?.[0] === '-')).toEqual([]);
  });

  it('puts every observation in exactly one group or among the singletons', () => {
    const all = [...result.groups.flatMap((g) => g.ids), ...result.singletons].sort();
    expect(all).toEqual(stream.observations.map((o) => o.id).sort());
  });
});
