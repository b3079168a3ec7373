import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgliteStores, PGLITE_VECTOR_SCHEMA } from '../../../test/pglite.js';
import { runStoreContract } from '../contract.js';

// The store contract on PostgreSQL 18 in WebAssembly with pgvector (test/pglite.ts): it runs
// everywhere, with no server, and on a PostgreSQL that has pgvector, which CI's has not.
// A store on PGlite lives in `public`, so each store takes a server of its own (a test with two
// stores, two servers), emptied before the store is opened. Pools of 1, 4 and 10 all pass: the
// server runs one statement at a time whatever the pool, and 4 is what the server's suite uses.
const POOL_SIZE = 4;
const stores = pgliteStores({ vector: true, store: { poolSize: POOL_SIZE } });

beforeAll(async () => {
  // Both servers start here (1–2 s each), under the hook's timeout rather than a test's.
  for (const store of await Promise.all([stores.create(), stores.create()])) await store.close();
});
afterAll(() => stores.stop());

describe('stores on PGlite', () => {
  // Else the contract's vector cases would quietly take the Node branch and test nothing of pgvector.
  it('rank vectors by pgvector, from the extension in its own schema', async () => {
    const store = await stores.create();
    try {
      expect([store.vectorRanking, store.vectorReason]).toEqual([
        'pgvector',
        expect.stringContaining(PGLITE_VECTOR_SCHEMA),
      ]);
    } finally {
      await store.close();
    }
  });
});

runStoreContract({ name: `postgres on PGlite (pool ${POOL_SIZE})`, create: () => stores.create() });
