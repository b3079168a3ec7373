import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPgliteStore, startPglite, type PgliteServer } from '../../../test/pglite.js';
import { rejection } from '../../../test/helpers.js';
import { openCredence } from '../../engine/engine.js';

// `credence backup` copies a SQLite file; a PostgreSQL store (here PostgreSQL 18 in WebAssembly) has none: the engine
// rejects, naming the dump (and pg_dump), and writes nothing.
let server: PgliteServer;
const dir = mkdtempSync(join(tmpdir(), 'credence-pg-backup-'));
beforeAll(async () => {
  server = await startPglite({ vector: false, maxConnections: 8 });
});
afterAll(async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('backup of a PostgreSQL store', () => {
  it('is refused with the way to back it up, and writes no file', async () => {
    const credence = await openCredence({ store: await freshPgliteStore(server), scope: 'b', now: () => 1 });
    try {
      const file = join(dir, 'copy.db');
      for (const options of [{}, { overwrite: true }]) {
        const error = await rejection(credence.backup(file, options));
        expect(error.code).toBe('INVALID_INPUT');
        expect(error.message).toMatch(/PostgreSQL/);
        expect(error.message).toMatch(/credence dump/);
        expect(error.message).toMatch(/pg_dump/);
      }
      expect(existsSync(file)).toBe(false);
    } finally {
      await credence.close();
    }
  });
});
