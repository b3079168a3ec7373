/**
 * Review C (walk 7): a call that had reached the store when `close()` ran rejected with the driver's TypeError "The
 * database connection is not open", not CLOSED; a dump being read at close too (exportRows' iterator was not mapped).
 */
import { describe, expect, it } from 'vitest';
import { isCredenceError } from '../core/errors.js';
import { heldStore } from './shared.js';
import { openSqliteStore } from './sqlite/sqlite-store.js';

/** The code of the CredenceError `call` rejects with; 'resolved' or the error's name and message otherwise. */
async function codeOf(call: Promise<unknown>): Promise<string> {
  try {
    await call;
    return 'resolved';
  } catch (error) {
    return isCredenceError(error) ? error.code : `${(error as Error).name}: ${(error as Error).message}`;
  }
}

describe('a held store closed while a call is at work in it', () => {
  it('a restore that has started (it awaits its row checks) rejects with CLOSED', async () => {
    const store = heldStore(openSqliteStore({ path: ':memory:' }), true);
    const inFlight = store.importRows('tools', [{ scope: 'p', id: 'read', description: 'read a file' }]);
    await store.close();
    expect(await codeOf(inFlight)).toBe('CLOSED');
  });

  it('a dump being read rejects with CLOSED at its next batch, the store reached before close', async () => {
    const store = heldStore(openSqliteStore({ path: ':memory:' }), true);
    await store.upsertTools(
      'p',
      Array.from({ length: 30 }, (_, i) => ({ id: `t${i}`, description: `tool ${i}` })),
    );
    const batches = store.exportRows('tools', { batchSize: 10 })[Symbol.asyncIterator]();
    expect((await batches.next()).done).toBe(false);
    await store.close();
    expect(await codeOf(batches.next())).toBe('CLOSED');
  });
});
