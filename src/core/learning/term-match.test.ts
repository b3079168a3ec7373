import { describe, expect, it } from 'vitest';
import { slotReader, TERM_MATCH_DEFAULTS, termMatcher } from './term-match.js';

const BATCH = [
  'Run the linter before pushing',
  'Keep pull requests small',
  'Split the large PR into reviewable parts',
  'Use pnpm to install packages',
  'Store timestamps in UTC',
  'User wants the tests to pass',
];

describe('termMatcher', () => {
  const candidates = [
    ['Keep pull requests small', 'An oversized pull request was sent back'],
    ["No, don't push with lint errors — we always run the linter before pushing"],
    ['Use pnpm to install packages'],
  ];

  it('finds the candidate whose texts share most weighted words, whatever the order of the candidates', () => {
    const match = termMatcher(BATCH);
    const found = match(['Reminder: lint before push — run the linter before pushing.'], candidates);
    expect(found?.index).toBe(1);
    expect(found?.similarity).toBeGreaterThanOrEqual(TERM_MATCH_DEFAULTS.least);
    const reversed = [...candidates].reverse();
    expect(match(['Reminder: lint before push — run the linter before pushing.'], reversed)?.index).toBe(1);
    expect(match(['Split the large PR into reviewable parts'], candidates)?.index).toBe(0);
  });

  it('finds nothing when no candidate shares a quarter of the weight, or only generic words', () => {
    const match = termMatcher(BATCH);
    expect(match(['Store timestamps in UTC'], candidates)).toBeUndefined();
    expect(match(['User wants the tests to pass'], [['User wants a changelog entry']])).toBeUndefined();
    expect(match([], candidates)).toBeUndefined();
    expect(match(['Use pnpm to install packages'], [])).toBeUndefined();
  });

  it('reads the least similarity from its options', () => {
    const texts = ['Keep pull requests small and easy to review, please'];
    const loose = termMatcher(BATCH, { least: 0.01 })(texts, [candidates[2] as string[], candidates[0] as string[]]);
    expect(loose?.index).toBe(1);
    const similarity = loose?.similarity as number;
    expect(termMatcher(BATCH, { least: similarity + 0.01 })(texts, candidates)).toBeUndefined();
  });

  it('rejects a least similarity outside [0, 1] with INVALID_INPUT', () => {
    for (const least of [-0.1, 1.5, Number.NaN])
      expect(() => termMatcher(BATCH, { least })).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
  });
});

describe('slotReader', () => {
  const batch = [
    'Name the renderer module with camelCase',
    'Files in the renderer module use camelCase names',
    'Name the exporter module with PascalCase',
    'Name the scheduler module with snake_case',
    'Use camelCase for variable names',
    'Variables and functions should be written in camelCase',
    'Keep TypeScript strict mode on',
    'Always use TypeScript strict mode',
    'Always use TypeScript strict mode during the payments review',
    'Keep pull requests small during the payments review',
    'Keep pull requests small during the auth review',
    'Keep pull requests small',
  ];
  const differs = slotReader(batch);

  it('reads one template filled with another subject, whatever the order of its words', () => {
    expect(differs('Name the exporter module with PascalCase', ['Name the renderer module with camelCase'])).toBe(true);
    expect(
      differs('Files in the exporter module use PascalCase names', ['Name the scheduler module with snake_case']),
    ).toBe(true);
    expect(differs('Variables and functions should be written in camelCase', [batch[0] as string])).toBe(true);
  });

  it('reads another wording of one subject, a place it was said in, or words added on one side as the same', () => {
    const renderer = ['Name the renderer module with camelCase', 'Files in the renderer module use camelCase names'];
    expect(differs('No — the renderer module is named in camelCase.', renderer)).toBe(false);
    expect(differs('Name the renderer module with camelCase during the payments review', renderer)).toBe(false);
    const strict = ['Keep TypeScript strict mode on'];
    expect(differs('Always use TypeScript strict mode during the auth review', strict)).toBe(false);
    expect(
      differs('Always use TypeScript strict mode during the payments review', [
        'Always use TypeScript strict mode during the auth review',
      ]),
    ).toBe(false);
  });

  it('says nothing of texts that share no frame, and of a set one of whose texts reads as the same', () => {
    expect(differs('Keep pull requests small', ['Name the renderer module with camelCase'])).toBe(false);
    expect(differs('Name the exporter module with PascalCase', [])).toBe(false);
    expect(
      differs('Name the exporter module with PascalCase', [
        'Name the renderer module with camelCase',
        'Name the exporter module with PascalCase, always',
      ]),
    ).toBe(false);
  });
});
