import {
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { openCredence } from '../engine/engine.js';
import { cliIn } from '../../test/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'credence-damaged-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
mkdirSync(join(dir, '.git'));
const credence = (db: string, ...argv: string[]) => cliIn(dir, ['--db', db, '--now', '2026-05-02T09:00:00Z', ...argv]);

/** A store of 3000 tools or memories, 4 KB of garbage over a page in the middle of that table; and a sound copy. */
async function damagedStore(
  name: string,
  table: 'tools' | 'memories',
  tools: readonly string[] = [],
): Promise<{ db: string; sound: string }> {
  const db = join(dir, name);
  if (tools.length > 0) {
    const file = join(dir, `${name}.tools.jsonl`);
    writeFileSync(file, tools.map((id) => JSON.stringify({ id, description: `${id} deploys the app` })).join('\n'));
    expect((await credence(db, 'tools', 'add', '--jsonl', file)).code).toBe(0);
  }
  const lines = join(dir, `${name}.jsonl`);
  const line = (i: number) =>
    table === 'tools'
      ? { id: `tool_${i}`, description: `does thing ${i}` }
      : { title: `Note ${i}`, text: `the thing numbered ${i} is kept in drawer ${i * 7}` };
  writeFileSync(lines, Array.from({ length: 3000 }, (_, i) => JSON.stringify(line(i))).join('\n'));
  const add = table === 'tools' ? ['tools', 'add'] : ['remember'];
  expect((await credence(db, ...add, '--jsonl', lines)).code).toBe(0);
  const sound = join(dir, `${name}.sound`);
  copyFileSync(db, sound);
  const sqlite = new Database(db, { readonly: true });
  const pages = sqlite.prepare('SELECT pageno FROM dbstat WHERE name = ? ORDER BY pageno').pluck().all(table);
  const size = sqlite.pragma('page_size', { simple: true }) as number;
  sqlite.close();
  const at = ((pages[Math.floor(pages.length / 2)] as number) - 1) * size;
  const bytes = readFileSync(db);
  for (let i = at; i < at + 4096; i++) bytes[i] = (i * 131 + 17) % 251;
  writeFileSync(db, bytes);
  return { db, sound };
}

describe('a store that status calls DAMAGED', () => {
  it('its quick check failing: a writer refuses it, naming the file and the way out', async () => {
    // status reads no memory (its counts are kept apart): the file opens, and its quick check finds the damage.
    const { db } = await damagedStore('m.db', 'memories');
    const status = await credence(db, 'status');
    expect(status).toMatchObject({ code: 1, stderr: '' });
    expect(status.stdout).toContain('integrity      DAMAGED: ');
    const refused = await credence(db, 'observe', '--type', 'preference', '--observation', 'use pnpm here');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^credence: cannot write the database at [^\n]+: it is damaged \(.+\), so nothing/);
    const sqlite = new Database(db, { readonly: true });
    expect(sqlite.prepare('SELECT count(*) FROM observations').pluck().get()).toBe(0);
    sqlite.close();
  });

  it('a command meeting an unreadable page: a writer refuses it, and writes again once it is sound', async () => {
    const { db, sound } = await damagedStore('s.db', 'tools');
    const status = await credence(db, 'status');
    expect(status.code).toBe(1);
    expect(status.stderr).toContain('is damaged or is not a Credence (SQLite) database');
    const refused = await credence(db, 'remember', '--title', 'Deploy runbook', 'deploy with the staging key');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^credence: cannot write the database at [^\n]+: it is damaged \(.+\), /);
    expect(refused.stderr).toContain(
      `at ${db}: it is damaged (database disk image is malformed), so nothing is written into it; save what is ` +
        'readable with `credence dump FILE --salvage`, then `credence restore FILE --db NEW.db` and use NEW.db\n',
    );
    expect(refused.stderr.split('\n')).toHaveLength(2);
    // Nothing was written: the memories table is still empty.
    const sqlite = new Database(db, { readonly: true });
    expect(sqlite.prepare('SELECT count(*) FROM memories').pluck().get()).toBe(0);
    sqlite.close();
    // The reading commands still answer what they can (status reports it), and a salvage dump still reads it.
    expect((await credence(db, 'dump', join(dir, 'rescued.jsonl'), '--salvage')).code).toBe(1);
    expect(existsSync(join(dir, 'rescued.jsonl'))).toBe(true);
    // The file replaced by a sound one: the writer checks it again, finds it sound and writes.
    copyFileSync(sound, db);
    expect(await credence(db, 'remember', '--title', 'Deploy runbook', 'deploy with the staging key')).toMatchObject({
      code: 0,
      stderr: '',
    });
    expect(existsSync(`${db}.damaged`)).toBe(false);
  });

  it('the reading commands and serve answer from it read-only: nothing they would record goes in', async () => {
    const { db } = await damagedStore('r.db', 'memories', ['deploy_app', 'deploy_site']);
    expect((await credence(db, 'status')).code).toBe(1);
    expect(existsSync(`${db}.damaged`)).toBe(true);
    const shownRows = () => {
      const sqlite = new Database(db, { readonly: true });
      const n = sqlite.prepare('SELECT count(*) FROM shown').pluck().get();
      sqlite.close();
      return n;
    };
    const searched = await credence(db, 'tools', 'search', 'deploy');
    expect(searched.code).toBe(0);
    expect(searched.stdout).toContain('deploy_app');
    expect(searched.stderr).toBe(`credence: damaged store: not recorded (what is shown gets no shownId): ${db}\n`);
    expect(shownRows()).toBe(0);
    // serve's engine (readOnlyWhenUnwritable, as context.ts opens it): its writes are refused naming the way out.
    const engine = await openCredence({ db, readOnlyWhenUnwritable: true, cwd: dir, warn: () => {} }, {});
    try {
      expect(engine.readOnly).toBe(true);
      await expect(engine.observeNow({ type: 'preference', observation: 'use pnpm here' })).rejects.toThrow(
        /^the database at .+r\.db is damaged \(.+\), opened read-only to answer reads: nothing is written into/,
      );
    } finally {
      await engine.close();
    }
    const sqlite = new Database(db, { readonly: true });
    expect(sqlite.prepare('SELECT count(*) FROM observations').pluck().get()).toBe(0);
    sqlite.close();
  });

  it('is found through a symlink and through another hard link in its folder', async () => {
    const { db } = await damagedStore('l.db', 'memories');
    expect((await credence(db, 'status')).code).toBe(1);
    const soft = join(dir, 'soft.db');
    const hard = join(dir, 'hard.db');
    symlinkSync(db, soft);
    linkSync(db, hard);
    for (const name of [soft, hard]) {
      const refused = await credence(name, 'remember', '--title', 'via link', 'kept in drawer 9');
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/^credence: cannot write the database at [^\n]+: it is damaged \(/);
    }
  });
});
