import { describe, expect, it } from 'vitest';
import { engineStore, openCredence } from './engine.js';
import { openSqliteStore } from '../store/sqlite/index.js';

const VALID = 'accepted, rejected, contradicts, validated, succeeded, failed, contradicted';

// Walk 7: `feedback(id, 'accept')` was stored as a rejection (the right verdict after it was then dropped), threw a raw
// SqliteError on a tool search result after writing it, and `toString` was read through the lookup table's prototype.
describe('a verdict that is none of the documented ones', () => {
  it('is INVALID_INPUT naming it and the valid ones, nothing written; the right one then counts', async () => {
    const credence = await openCredence({ store: openSqliteStore({ path: ':memory:' }), scope: 'v', now: 0 });
    await credence.addTools([
      { id: 'search', description: 'search the web' },
      { id: 'fetch', description: 'fetch a page' },
    ]);
    for (let i = 0; i < 3; i += 1)
      await credence.recordExecution({
        intent: 'research',
        calls: [
          { tool: 'search', status: 'success' },
          { tool: 'fetch', status: 'success' },
        ],
      });
    const [next] = await credence.suggestNext('search');
    const [found] = await credence.searchTools('web');
    const ids = [next?.shownId as string, found?.shownId as string];
    const store = engineStore(credence);
    const before = await store.counts('v');
    for (const id of ids)
      for (const [typo, shown] of [
        ['accept', '"accept"'],
        ['toString', '"toString"'],
        ['__proto__', '"__proto__"'],
        [undefined, 'none'],
        [1, '1'],
      ] as const) {
        await expect(credence.feedback(id, typo as never)).rejects.toMatchObject({
          code: 'INVALID_INPUT',
          message: `verdict must be one of ${VALID}, got ${shown}`,
        });
        expect((await store.getShown('v', id))?.verdict).toBeUndefined();
      }
    expect(await store.counts('v')).toEqual(before);
    for (const id of ids) expect((await credence.feedback(id, 'accepted')).verdict).toBe('accepted');
    expect((await credence.metrics()).suggestions).toMatchObject({ accepted: 2, rejected: 0 });
    await credence.close();
  });
});
