import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openHookStore } from './open-store.js';

const dir = mkdtempSync(join(tmpdir(), 'credence-hook-open-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the hooks open the store one way (issue 18)', () => {
  it('reads an existing SQLite file read-only, so a prompt never takes the write lock', async () => {
    const db = join(dir, 'read.db');
    const writer = await openHookStore(db, {});
    await writer.upsertTools('s', [{ id: 'jq', description: 'JSON processor' }]);
    await writer.close();
    const reader = await openHookStore(db, {}, { read: true });
    expect((await reader.listTools('s')).map((t) => t.id)).toEqual(['jq']);
    await expect(reader.upsertTools('s', [{ id: 'sed', description: 'stream editor' }])).rejects.toThrow();
    await reader.close();
  });

  it('creates the database when a prompt comes before any learning hook', async () => {
    const reader = await openHookStore(join(dir, 'new.db'), {}, { read: true });
    expect(await reader.listTools('s')).toEqual([]);
    await reader.close();
  });
});
