import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import { openCredence } from '../engine/engine.js';
import { sqliteConnection } from '../store/sqlite/connection.js';
import { openSqliteStore } from '../store/sqlite/index.js';
import { createMcpSession } from './server.js';

describe('the MCP server in process', () => {
  // Issue 17, red-team 4: a driver's refusal reached the agent as the driver's raw message.
  it("a driver's error is a short isError result naming its class; the whole error is logged in one line", async () => {
    const store = openSqliteStore({ path: ':memory:' });
    const credence = await openCredence({ store, scope: 'p', now: '2026-02-02T09:00:00Z' });
    await credence.addTools([{ id: 'read_file', description: 'Read a file from disk' }]);
    const lines: string[] = [];
    const session = createMcpSession(credence, undefined, 'test', { log: (line) => lines.push(line) });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await session.server.connect(serverSide);
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(clientSide);
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
});
