import { describe, expect, it } from 'vitest';
import { describeIssues } from './issue-list.js';

const STATUS = 'must be one of success, failure, partial';

describe('describeIssues', () => {
  it('writes a lone issue as path: message, and one without a path as its message', () => {
    expect(describeIssues([{ path: ['calls', 2, 'consumes', 0], message: 'bad' }])).toBe('calls[2].consumes[0]: bad');
    expect(describeIssues([{ path: [], message: 'expected an object' }])).toBe('expected an object');
  });

  it('says a problem of the whole value first, so it does not read as one of the path before it (walk 14)', () => {
    const issues = [
      { path: ['tasks', 0], message: 'unknown field extra' },
      { path: [], message: 'unknown field foo' },
      { path: ['tasks', 1, 'id'], message: 'must not be empty' },
    ];
    expect(describeIssues(issues)).toBe(
      'unknown field foo; tasks[0]: unknown field extra; tasks[1].id: must not be empty',
    );
  });

  it('folds the same problem at 298 positions of one array into one entry with the range and count', () => {
    const issues = Array.from({ length: 298 }, (_, i) => ({ path: ['calls', i + 2, 'status'], message: STATUS }));
    expect(describeIssues(issues)).toBe(`calls[2–299].status: ${STATUS} (298 calls)`);
  });

  it('names scattered positions as ranges, and cuts a long list of ranges with … +K more', () => {
    const at = (indices: number[]) =>
      indices.map((i) => ({ path: ['calls', i, 'tool'], message: 'must be a non-empty tool id' }));
    expect(describeIssues(at([0, 1, 5, 6, 7, 9]))).toBe(
      'calls[0, 1, 5–7, 9].tool: must be a non-empty tool id (6 calls)',
    );
    const every3rd = at(Array.from({ length: 30 }, (_, i) => i * 3));
    expect(describeIssues(every3rd, { maxRanges: 3 })).toBe(
      'calls[0, 3, 6, … +27 more].tool: must be a non-empty tool id (30 calls)',
    );
  });

  it('keeps different problems apart, in the order they first appear', () => {
    const issues = [0, 1, 2].flatMap((i) => [
      { path: ['calls', i, 'tool'], message: 'must be a non-empty tool id' },
      { path: ['calls', i, 'status'], message: STATUS },
    ]);
    expect(describeIssues(issues)).toBe(
      `calls[0–2].tool: must be a non-empty tool id (3 calls); calls[0–2].status: ${STATUS} (3 calls)`,
    );
  });

  it('shows at most maxEntries distinct problems, then … +K more', () => {
    const issues = Array.from({ length: 20 }, (_, i) => ({
      path: ['calls', i, 'consumes', 0],
      message: `call ${i} cannot consume call ${i + 5}`,
    }));
    const text = describeIssues(issues, { maxEntries: 3 });
    expect(text).toBe(
      'calls[0].consumes[0]: call 0 cannot consume call 5; calls[1].consumes[0]: call 1 cannot consume call 6; ' +
        'calls[2].consumes[0]: call 2 cannot consume call 7; … +17 more',
    );
  });

  it('its length does not grow with the number of repeated problems', () => {
    const line = (n: number) =>
      describeIssues(Array.from({ length: n }, (_, i) => ({ path: ['calls', i, 'status'], message: STATUS })));
    expect(line(30_000).length).toBeLessThan(line(3).length + 10);
  });
});
