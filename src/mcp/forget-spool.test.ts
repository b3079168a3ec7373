import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { inProcessClient, stdioClient } from '../../test/mcp-helpers.js';
import { openCredence } from '../engine/engine.js';
import { spoolDirFor, spoolEvent } from '../hooks/spool.js';
import { openSqliteStore } from '../store/sqlite/index.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const AT = Date.parse('2026-06-01T00:00:00Z');
const call = (session: string, secret: string) => ({
  cwd: '/work/p',
  session,
  turn: 'current' as const,
  kind: 'PostToolUse',
  at: AT,
  payload: { tool: 'Bash', status: 'success', input: `echo ${secret}` },
});

/** A file store with a turn of `sess2` learned, and one event of it and one of another session still spooled. */
async function store() {
  const dir = mkdtempSync(join(tmpdir(), 'credence-mcp-forget-'));
  dirs.push(dir);
  const db = join(dir, 's.db');
  const s = openSqliteStore({ path: db });
  await s.insertExecution('p', {
    id: 'cc-sess2-1',
    intent: 'deploy it',
    startedAt: AT,
    calls: [{ tool: 'Bash', status: 'success', retries: 0, consumes: [] }],
  });
  await s.close();
  spoolEvent(db, call('sess2', 'Kestrel-Mango-42'));
  spoolEvent(db, call('other', 'kept-for-other'));
  return { dir, db };
}

const spooled = (db: string) =>
  readdirSync(spoolDirFor(db))
    .filter((n) => !n.startsWith('.'))
    .map((n) => readFileSync(join(spoolDirFor(db), n), 'utf8'))
    .join('\n');

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
