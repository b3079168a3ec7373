/**
 * Walk 7, item 9: after `close()` every method rejected with better-sqlite3's raw TypeError "The database connection
 * is not open" (a call in flight at close too), and closing an engine of `forScope` closed its opener's store.
 */
import { describe, expect, it } from 'vitest';
import { isCredenceError } from '../core/errors.js';
import { openCredence, type Credence } from './engine.js';

const NOW = '2026-03-01T09:00:00Z';

/** The code of the CredenceError `call` rejects with; 'resolved' or the error's name otherwise. */
async function codeOf(call: Promise<unknown>): Promise<string> {
  try {
    await call;
    return 'resolved';
  } catch (error) {
    return isCredenceError(error) ? error.code : `${(error as Error).name}: ${(error as Error).message}`;
  }
}

async function opened(scope = 'a'): Promise<Credence> {
  const credence = await openCredence({ db: ':memory:', scope, now: NOW });
  await credence.addTools([{ id: 'search', description: 'search the web' }]);
  return credence;
}

describe('an engine after close', () => {
  it('rejects every call with CLOSED, a call in flight at close too, and closes twice quietly', async () => {
    const credence = await opened();
    const inFlight = credence.searchTools('web', { track: false });
    await credence.close();
    expect(await codeOf(inFlight)).toBe('CLOSED');
    expect(await codeOf(credence.searchTools('web'))).toBe('CLOSED');
    expect(await codeOf(credence.status())).toBe('CLOSED');
    expect(
      await codeOf(credence.recordExecution({ intent: 'x', calls: [{ tool: 'search', status: 'success' }] })),
    ).toBe('CLOSED');
    expect(await codeOf(credence.recall('web'))).toBe('CLOSED');
    expect(await codeOf(credence.close())).toBe('resolved');
  });

  // Review C (walk 7): a dump being written at close rejected with the driver's TypeError.
  it('a dump being written when close runs rejects with CLOSED', async () => {
    const credence = await opened();
    await credence.remember(Array.from({ length: 1500 }, (_, i) => ({ title: `m${i}`, text: `memory ${i}` })));
    let lines = 0;
    const dump = credence.dump(async () => {
      lines += 1;
      if (lines === 3) await credence.close();
    });
    expect(await codeOf(dump)).toBe('CLOSED');
  });

  // Review C (walk 7): each forScope engine built its own provider from the factory (a second model load per scope).
  it("an engine of forScope uses its opener's embedder, built once, whichever of them uses it first", async () => {
    const parent = await opened('a');
    const child = await parent.forScope('b');
    expect(child.embedder).toBe(parent.embedder);
    expect((await parent.forScope('c')).embedder).toBe(child.embedder);
    await parent.close();
  });

  it('an engine of forScope closes alone: its opener keeps the store, and closing the opener closes both', async () => {
    const parent = await opened('a');
    const child = await parent.forScope('b');
    await child.addTools([{ id: 'fetch', description: 'fetch a page' }]);
    await child.close();
    expect(await codeOf(child.searchTools('page'))).toBe('CLOSED');
    expect((await parent.searchTools('web', { track: false })).map((r) => r.tool)).toEqual(['search']);
    expect((await parent.counts('b')).tools).toBe(1);

    const second = await parent.forScope('b');
    expect((await second.searchTools('page', { track: false })).map((r) => r.tool)).toEqual(['fetch']);
    await parent.close();
    expect(await codeOf(second.searchTools('page'))).toBe('CLOSED');
    expect(await codeOf(second.close())).toBe('resolved');
  });
});
