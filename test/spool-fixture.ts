/**
 * A file store with a turn of `sess2` learned (or not) and one spooled event of it and one of another session: what
 * the CLI's and MCP's `forget <session>` tests clear the spool of. Folders made here go when the test file ends.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { spoolDirFor, spoolEvent } from '../src/hooks/spool.js';
import { openSqliteStore } from '../src/store/sqlite/index.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

export const AT = Date.parse('2026-06-01T00:00:00Z');

const call = (session: string, secret: string) => ({
  cwd: '/work/p',
  session,
  turn: 'current' as const,
  kind: 'PostToolUse',
  at: AT,
  payload: { tool: 'Bash', status: 'success', input: `echo ${secret}` },
});

export async function spooledStore(prefix: string, runs = true): Promise<{ dir: string; db: string }> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  const db = join(dir, 's.db');
  const s = openSqliteStore({ path: db });
  if (runs)
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

/** The texts of the events still spooled for `db`. */
export const spooled = (db: string): string[] =>
  readdirSync(spoolDirFor(db))
    .filter((n) => !n.startsWith('.'))
    .map((n) => readFileSync(join(spoolDirFor(db), n), 'utf8'));
