import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openCredence } from '../engine/engine.js';
import { sqliteConnection } from '../store/sqlite/connection.js';
import { openSqliteStore } from '../store/sqlite/index.js';
import { inProcessClient } from '../../test/mcp-helpers.js';

describe('the MCP server in process', () => {
  // Issue 17, red-team 4: a driver's refusal reached the agent as the driver's raw message.
  it("a driver's error is a short isError result naming its class; the whole error is logged in one line", async () => {
    const store = openSqliteStore({ path: ':memory:' });
    const credence = await openCredence({ store, scope: 'p', now: '2026-02-02T09:00:00Z' });
    await credence.addTools([{ id: 'read_file', description: 'Read a file from disk' }]);
    const lines: string[] = [];
    const { client } = await inProcessClient(credence, undefined, { log: (line) => lines.push(line) });
    try {
      // A real driver error: the table the tools live in is gone under the store.
      sqliteConnection(store).exec('DROP TABLE tools');
      const result = await client.callTool({ name: 'search_tools', arguments: { query: 'read a file' } });
      expect(result.isError).toBe(true);
      const text = (result.content as { type: string; text: string }[])[0]?.text ?? '';
      const body = JSON.parse(text) as { error: string; code: string };
      expect(body).toEqual({
        error: "search_tools failed: an internal error (SqliteError SQLITE_ERROR); the server's log has the cause",
        code: 'INTERNAL',
      });
      expect(text).not.toContain('no such table');
      expect(lines).toEqual([
        expect.stringMatching(/^search_tools failed: SqliteError: no such table: tools \(at .+\)$/),
      ]);
    } finally {
      await client.close();
      await credence.close();
    }
  });

  // A robustness audit: with another process writing, recall and search_tools answered INTERNAL ("an internal error
  // (SqliteError SQLITE_BUSY)"), which said neither that the store was busy nor that a retry would help.
  it('with another process writing: a search answers without shown ids, a write is STORE_BUSY (retry)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'credence-mcp-busy-'));
    const path = join(dir, 'c.db');
    const store = openSqliteStore({ path, busyTimeoutMs: 300 });
    const credence = await openCredence({ store, scope: 'p', now: '2026-02-02T09:00:00Z', warn: () => {} });
    await credence.addTools([{ id: 'read_file', description: 'Read a file from disk' }]);
    const lines: string[] = [];
    const { client } = await inProcessClient(credence, undefined, { log: (line) => lines.push(line) });
    const other = new Database(path);
    other.exec('BEGIN IMMEDIATE');
    const body = (result: Awaited<ReturnType<Client['callTool']>>) =>
      JSON.parse((result.content as { text: string }[])[0]?.text ?? '') as Record<string, unknown>;
    try {
      const search = await client.callTool({ name: 'search_tools', arguments: { query: 'read a file' } });
      expect(search.isError).not.toBe(true);
      const results = body(search).results as { tool: string; shownId?: string; shownIdWhy?: string }[];
      expect(results.map((r) => r.tool)).toEqual(['read_file']);
      expect(results[0]?.shownId).toBeUndefined();
      expect(results[0]?.shownIdWhy).toMatch(/the store is busy \(another process is writing\)/);
      const observe = await client.callTool({
        name: 'observe',
        arguments: { type: 'pattern', observation: 'the build reads the config first' },
      });
      expect(observe.isError).toBe(true);
      expect(body(observe)).toEqual({
        error: 'observe: the store is busy (another process is writing); retry',
        code: 'STORE_BUSY',
      });
      expect(lines).toEqual([]);
    } finally {
      other.exec('ROLLBACK');
      other.close();
      await client.close();
      await credence.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 20_000);
});
