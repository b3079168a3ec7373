import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hookDbPath } from '../platform/paths.js';
import { runClaudeCodeHook } from './claude-code.js';
import { spoolToolEvent } from './fast.js';
import { parseHookPayload } from './payload.js';

const root = mkdtempSync(join(tmpdir(), 'credence-store-spool-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const URL = 'postgres://team:Sup3r-Secret@db.example:5432/credence';

/** The events in each spool folder of `home`, by folder name. */
const spools = (home: string): Record<string, number> =>
  Object.fromEntries(
    readdirSync(home)
      .filter((name) => name.endsWith('.hook-spool'))
      .map((name) => [name, readdirSync(join(home, name)).filter((f) => !f.startsWith('.')).length]),
  );

const toolEvent = (cwd: string) => {
  const parsed = parseHookPayload(
    JSON.stringify({
      session_id: 'team-session',
      cwd,
      hook_event_name: 'PostToolUse',
      tool_name: 'Grep',
      tool_input: { pattern: 'q' },
      tool_response: 'none',
    }),
  );
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.payload;
};

describe("a hook's spool belongs to one store", () => {
  it('a call spooled for the team store is not learned by a hook without CREDENCE_DATABASE_URL (SQLite)', async () => {
    const home = join(root, 'crossing');
    const project = join(home, 'app');
    mkdirSync(project, { recursive: true });
    const db = join(home, 'credence.db');
    expect(spoolToolEvent(toolEvent(project), { CREDENCE_DB: db, CREDENCE_DATABASE_URL: URL })).toBeUndefined();
    // Another session, started without the variable, ends: it learns into the SQLite file.
    const stop = JSON.stringify({ session_id: 'other', hook_event_name: 'Stop', cwd: project });
    const out = await runClaudeCodeHook(stop, { env: { CREDENCE_DB: db, CREDENCE_AUTO_EVOLVE: '0' } });
    expect(out.stderr).toBe('');
    const left = spools(home);
    // The team's call waits in the team store's own spool; the SQLite file's spool took nothing of it.
    expect(Object.values(left)).toContain(1);
    expect(left['credence.db.hook-spool'] ?? 0).toBe(0);
    expect(Object.keys(left).join(' ')).not.toContain('Secret');
  });

  it('is named from the store: the SQLite file as before, a PostgreSQL URL without password, with schema', () => {
    const db = join(root, 'named', 'credence.db');
    const base = (env: NodeJS.ProcessEnv) => {
      const where = hookDbPath({ CREDENCE_DB: db, ...env });
      if (!where.ok) throw new Error(where.message);
      return where.files;
    };
    // An existing spool keeps its name: the SQLite default learns it, as before.
    expect(base({})).toBe(db);
    const team = base({ CREDENCE_DATABASE_URL: URL });
    expect(team).not.toBe(db);
    expect(team).not.toContain('Secret');
    expect(team.startsWith(join(root, 'named'))).toBe(true);
    // The password is not part of the name (rotated, it is the same store); the scheme's spelling neither.
    expect(base({ CREDENCE_DATABASE_URL: URL.replace('Sup3r-Secret', 'rotated') })).toBe(team);
    expect(base({ CREDENCE_DATABASE_URL: URL.replace('postgres:', 'postgresql:') })).toBe(team);
    expect(base({ CREDENCE_DATABASE_URL: URL.replace(':5432', '') })).toBe(team);
    expect(base({ CREDENCE_DATABASE_URL: URL, CREDENCE_DATABASE_SCHEMA: 'public' })).toBe(team);
    // Another schema, database, server or user is another store.
    const others = [
      base({ CREDENCE_DATABASE_URL: URL, CREDENCE_DATABASE_SCHEMA: 'team_b' }),
      base({ CREDENCE_DATABASE_URL: `${URL}?schema=team_b` }),
      base({ CREDENCE_DATABASE_URL: URL.replace('/credence', '/other') }),
      base({ CREDENCE_DATABASE_URL: URL.replace('db.example', 'db2.example') }),
      base({ CREDENCE_DATABASE_URL: URL.replace('team:', 'dev:') }),
    ];
    expect(new Set([team, ...others]).size).toBe(5);
    // The schema named by the variable or in the URL: one store.
    expect(others[0]).toBe(others[1]);
    // A schema in the URL wins over the variable, as when the store is opened.
    expect(base({ CREDENCE_DATABASE_URL: `${URL}?schema=team_b`, CREDENCE_DATABASE_SCHEMA: 'x' })).toBe(others[1]);
    // A URL without `//` (`new URL()` reads it as a path, password and all) is named without its password too.
    expect(base({ CREDENCE_DATABASE_URL: 'postgres:team:Sup3r-Secret@db.example:5432/credence' })).toBe(team);
  });
});
