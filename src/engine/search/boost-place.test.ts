import { describe, expect, it } from 'vitest';
import { openCredence } from '../engine.js';
import { openSqliteStore } from '../../store/sqlite/index.js';

const T0 = Date.parse('2026-03-01T00:00:00Z');

describe('a memory boost and the order of the intent', () => {
  it('keeps a boosted tool in the part the search matched best, not before the tool it follows', async () => {
    let n = 0;
    const cr = await openCredence({
      store: openSqliteStore({ path: ':memory:' }),
      scope: 's',
      now: T0,
      newId: () => `e${(n += 1)}`,
    });
    await cr.addTools([
      { id: 'deleteContent', description: 'Delete the content with the given ID' },
      { id: 'getCourseContent', description: 'Retrieve the content of a course' },
    ]);
    const intent =
      'I need to manage the content for a specific course. Delete the content with ID ABC123. ' +
      'Then retrieve the content for the course ENG101.';
    const cold = await cr.suggestDag(intent, { track: false });
    await cr.recordExecution({
      intent: 'I need to manage the content for a specific course',
      startedAt: T0,
      calls: [{ tool: 'getCourseContent', status: 'success' }],
    });
    const warm = await cr.suggestDag(intent, { track: false, memoryProposal: false });
    // The past run's intent is the request's first sentence: its boost lifts getCourseContent to the cap 1 there
    // as well as in the third sentence, where the search matched it better. It stays in the third.
    const boosted = warm.rationale.find((r) => r.tool === 'getCourseContent');
    expect(boosted?.sources).toEqual(['memory', 'search']);
    expect(boosted?.why).toContain('(part 3: "retrieve the content for the course ENG101")');
    expect(cold.paths).toEqual([
      { from: 'deleteContent', to: 'getCourseContent', type: 'intent-order', confidence: null },
    ]);
    expect(warm.paths).toEqual(cold.paths);
    await cr.close();
  });
});
