import { describe } from 'vitest';
import { freshPgStore, pgSchemas, pgTestUrl } from '../../../test/pg.js';
import { runStoreContract } from '../contract.js';

const url = pgTestUrl('the PostgreSQL store contract');
const schema = pgSchemas(url);

if (url === undefined) describe.skip('Store contract: postgres (no server)', () => {});
else runStoreContract({ name: 'postgres', create: () => freshPgStore(url, schema, { poolSize: 4 }) });
