/**
 * Walk 11, item 3: `credence restore` of a dump from a newer Credence, whose header holds a table this one does not
 * know, said "bad dump header: tables: unknown field …", as of a damaged file. It is refused by its schema version:
 * into a SQLite file, against the schema the file would have (no file created); into a PostgreSQL server, against
 * the newest schema this Credence knows, before connecting.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LATEST_SCHEMA_VERSION } from '../../src/store/sqlite/migrations.js';
import { bin } from '../mcp-helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'credence-dump-newer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const credence = (args: string[], input = '') =>
  spawnSync(process.execPath, [bin, ...args], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', HOME: dir },
    input,
    encoding: 'utf8',
  });

describe('restore of a dump from a newer Credence with a table this one does not know', () => {
  const newer = LATEST_SCHEMA_VERSION + 1;
  const file = join(dir, 'newer.dump');
  beforeAll(() => {
    const run = JSON.stringify({ intent: 'lint', calls: [{ tool: 'lint', status: 'success' }] });
    expect(credence(['record', '--jsonl', '-', '--db', join(dir, 'a.db'), '--scope', 'a'], run).status).toBe(0);
    expect(credence(['dump', join(dir, 'a.dump'), '--db', join(dir, 'a.db')]).status).toBe(0);
    const [head, ...rest] = readFileSync(join(dir, 'a.dump'), 'utf8').split('\n');
    const header = JSON.parse(head ?? '');
    const tables = { ...header.tables, newtable: 0 };
    writeFileSync(file, [JSON.stringify({ ...header, schemaVersion: newer, tables }), ...rest].join('\n'));
  });

  it('into a SQLite file: refused by its schema version, no file created', () => {
    const r = credence(['restore', file, '--db', join(dir, 'b.db')]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      `the dump has schema version ${newer}, newer than this store's (${LATEST_SCHEMA_VERSION}); ` +
        'restore it with a newer Credence',
    );
    expect(r.stderr).not.toContain('unknown field');
    expect(existsSync(join(dir, 'b.db'))).toBe(false);
  });

  it('into a PostgreSQL server: refused by the newest schema this Credence knows, before connecting', () => {
    const r = credence(['restore', file, '--database-url', 'postgres://credence:secret@127.0.0.1:1/credence']);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`newer than this Credence knows (${LATEST_SCHEMA_VERSION})`);
    expect(r.stderr).not.toContain('unreachable');
  });
});
