import { describe, expect, it } from 'vitest';
import { observationCategory, patternCategory } from './pattern-category.js';

describe('observationCategory', () => {
  it('takes a category named in the tags first', () => {
    expect(observationCategory({ type: 'error', text: 'Forgot the null check', tags: ['code'] })).toBe('code');
    expect(observationCategory({ type: 'preference', text: 'Use pnpm', tags: ['Workflow'] })).toBe('workflow');
  });

  it('reads commits, tests, CI and reviews as workflow, the seed French words included', () => {
    expect(observationCategory({ type: 'correction', text: 'Run the tests before each commit' })).toBe('workflow');
    expect(observationCategory({ type: 'success', text: 'Tests exécutés avant commit' })).toBe('workflow');
    expect(observationCategory({ type: 'pattern', text: 'committed after running tests', tags: ['commit'] })).toBe(
      'workflow',
    );
  });

  it('reads other errors and successes as themselves and the rest as code', () => {
    expect(observationCategory({ type: 'error', text: 'TypeError: x is undefined' })).toBe('error');
    expect(observationCategory({ type: 'success', text: 'Format de documentation apprécié' })).toBe('success');
    expect(observationCategory({ type: 'correction', text: 'Utilisateur demande nommage camelCase' })).toBe('code');
  });
});

describe('patternCategory', () => {
  it("is the members' most frequent category, ties in the order code, workflow, error, success", () => {
    const seedExample2 = [
      { type: 'success' as const, text: 'Tests exécutés avant commit' },
      { type: 'success' as const, text: 'CI verte après commit' },
      { type: 'error' as const, text: 'Commit sans tests = CI rouge' },
    ];
    expect(patternCategory(seedExample2)).toBe('workflow');
    expect(
      patternCategory([
        { type: 'error', text: 'Null dereference in the parser' },
        { type: 'correction', text: 'Name it parseLine' },
      ]),
    ).toBe('code');
    expect(patternCategory([])).toBeUndefined();
  });

  it('ignores the order of its members', () => {
    const members = [
      { type: 'error' as const, text: 'Crash on empty input' },
      { type: 'error' as const, text: 'Crash on empty list' },
      { type: 'correction' as const, text: 'Use early returns' },
    ];
    expect(patternCategory([...members].reverse())).toBe(patternCategory(members));
  });
});
