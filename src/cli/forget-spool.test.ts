import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliIn } from '../../test/cli.js';
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

async function store(runs: boolean) {
  const dir = mkdtempSync(join(tmpdir(), 'credence-forget-spool-'));
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

const spooled = (db: string) =>
  readdirSync(spoolDirFor(db))
    .filter((n) => !n.startsWith('.'))
    .map((n) => readFileSync(join(spoolDirFor(db), n), 'utf8'));

describe('credence forget <session> and the hooks spool', () => {
  it("deletes the session's spooled events (not another session's), so no drain learns them again", async () => {
    const { dir, db } = await store(true);
    const r = await cliIn(dir, ['--db', db, '--scope', 'p', 'forget', 'sess2']);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^forgot session sess2; forgot its 1 run .*; deleted its 1 event still in the spool\n$/);
    const left = spooled(db);
    expect(left).toHaveLength(1);
    expect(left.join('')).toContain('kept-for-other');
    expect(left.join('')).not.toContain('Kestrel-Mango-42');
  });

  it('forgets a session whose only trace is in the spool', async () => {
    const { dir, db } = await store(false);
    const r = await cliIn(dir, ['--db', db, '--scope', 'p', 'forget', 'sess2', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ kind: 'session', runsForgotten: [], spooledEventsForgotten: 1 });
    expect(spooled(db).join('')).not.toContain('Kestrel-Mango-42');
  });
});
