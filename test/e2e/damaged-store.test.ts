/**
 * A damaged store (walk 6, item 8): status and backup say so, dump --salvage saves what is readable and says what it
 * skipped, and its dump restores into a new store.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../../bin/credence.cjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'credence-damaged-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const credence = (db: string, args: string[]) => {
  const r = spawnSync(process.execPath, [bin, '--db', db, '--scope', 't', ...args], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, HOME: dir },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};

describe('a damaged SQLite store (walk 6, item 8)', () => {
  it('is reported by status and backup, and dump --salvage saves what is readable', () => {
    const db = join(dir, 's.db');
    const notes = Array.from({ length: 600 }, (_, i) =>
      JSON.stringify({
        title: `note ${i}`,
        text: `Note ${i} on service ${i % 37}: ${'lorem ipsum dolor '.repeat(12)}`,
      }),
    );
    writeFileSync(join(dir, 'notes.jsonl'), `${notes.join('\n')}\n`);
    expect(credence(db, ['remember', '--jsonl', join(dir, 'notes.jsonl')]).code).toBe(0);
    expect(credence(db, ['status']).stdout).toContain('integrity      ok (quick check)');
    // One leaf page of the memories in the middle of the table overwritten.
    const sqlite = new Database(db);
    const pages = sqlite
      .prepare(`SELECT pageno FROM dbstat WHERE name = 'memories' AND pagetype = 'leaf' ORDER BY pageno`)
      .all() as { pageno: number }[];
    sqlite.close();
    const page = pages[Math.floor(pages.length / 2)]?.pageno as number;
    const fd = openSync(db, 'r+');
    writeSync(fd, Buffer.alloc(4096, 0xab), 0, 4096, (page - 1) * 4096);
    closeSync(fd);

    const status = credence(db, ['status']);
    expect(status.code).toBe(1);
    expect(status.stdout).toMatch(/^integrity {6}DAMAGED: .*credence dump --salvage FILE/m);
    expect(JSON.parse(credence(db, ['status', '--json']).stdout).integrity.ok).toBe(false);

    const backup = credence(db, ['backup', join(dir, 'b.db')]);
    expect(backup.code).toBe(1);
    expect(backup.stderr).toContain(`the database ${db} is damaged`);
    expect(existsSync(join(dir, 'b.db'))).toBe(false);

    const dump = credence(db, ['dump', join(dir, 'd.dump')]);
    expect(dump.code).toBe(1);
    expect(dump.stderr).toContain('credence dump --salvage FILE');
    const salvage = credence(db, ['dump', join(dir, 'd.dump'), '--salvage']);
    expect(salvage.code).toBe(1);
    expect(salvage.stderr).toMatch(/dump --salvage: skipped the unreadable part of memories \((\d+) rows saved\)/);
    const saved = Number(/memories \((\d+) rows saved\)/.exec(salvage.stderr)?.[1]);
    // Only the rows of the overwritten page are lost (a page holds well under 30 of these notes).
    expect(saved).toBeGreaterThan(570);
    expect(saved).toBeLessThan(600);
    const restored = join(dir, 'r.db');
    expect(credence(restored, ['restore', join(dir, 'd.dump')]).code).toBe(0);
    expect(credence(restored, ['status']).stdout).toMatch(new RegExp(`^memories +${saved}$`, 'm'));
    expect(credence(restored, ['recall', 'note 599']).stdout).toContain('note 599');
  });
});
