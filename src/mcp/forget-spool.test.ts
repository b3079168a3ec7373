import { describe, expect, it } from 'vitest';
import { inProcessClient, stdioClient } from '../../test/mcp-helpers.js';
import { AT, spooled as spooledEvents, spooledStore } from '../../test/spool-fixture.js';
import { openCredence } from '../engine/engine.js';
import { openSqliteStore } from '../store/sqlite/index.js';

const store = () => spooledStore('credence-mcp-forget-');

const spooled = (db: string) => spooledEvents(db).join('\n');

const resultOf = (r: unknown) =>
  JSON.parse(((r as { content: { text: string }[] }).content[0] as { text: string }).text) as Record<string, unknown>;

describe("MCP forget of a Claude Code session and the hooks' spool", () => {
  it("deletes the session's events in its file store's spool, as the CLI does (not another session's)", async () => {
    // Before: the MCP tool forgot the runs and left the spooled events, which the next drain learned again.
    const { db } = await store();
    const credence = await openCredence({ store: openSqliteStore({ path: db }), scope: 'p', now: () => AT });
    const { client } = await inProcessClient(credence);
    try {
      const r = resultOf(await client.callTool({ name: 'forget', arguments: { id: 'sess2' } }));
      expect(r).toMatchObject({ kind: 'session', runsForgotten: ['cc-sess2-1'], spooledEventsForgotten: 1 });
      expect(spooled(db)).not.toContain('Kestrel-Mango-42');
      expect(spooled(db)).toContain('kept-for-other');
    } finally {
      await client.close();
      await credence.close();
    }
  });

  it('credence serve --stdio does the same', async () => {
    const { dir, db } = await store();
    const { client, close } = await stdioClient(['--db', db, '--scope', 'p', 'serve', '--stdio'], { cwd: dir });
    try {
      const r = resultOf(await client.callTool({ name: 'forget', arguments: { id: 'sess2' } }));
      expect(r).toMatchObject({ kind: 'session', spooledEventsForgotten: 1 });
      expect(spooled(db)).not.toContain('Kestrel-Mango-42');
      expect(spooled(db)).toContain('kept-for-other');
    } finally {
      await close();
    }
  });
});
