/**
 * `credence dump FILE` writes a new file and nothing else: a FILE that exists (the store's own database, its log, a
 * file of the user's, a folder) is refused before anything is written and left as it was; one that cannot be created
 * is named as the user gave it. `credence restore` of a dump newer than the store creates no file. Drives the real
 * binary.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCredence } from '../helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'credence-dump-file-'));
const db = join(dir, 'store.db');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const credence = (args: string[]) => runCredence(['--db', db, '--scope', 'd', ...args], dir);

beforeAll(() => {
  for (const i of [1, 2, 3]) expect(credence(['remember', '--title', `note ${i}`, `deploy step ${i}`]).code).toBe(0);
});

describe('credence dump FILE', () => {
  it('refuses the store’s own database and leaves the store whole', () => {
    const r = credence(['dump', db]);
    expect(r.stderr).toBe(`credence: dump ${db}: that is the store's own database; name another file\n`);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    const status = credence(['status', '--json']);
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout).counts.memories).toBe(3);
  });

  it('refuses a file that exists, naming it, and leaves it as it was', () => {
    const notes = join(dir, 'notes.md');
    writeFileSync(notes, 'my notes\n');
    const r = credence(['dump', notes]);
    expect(r.stderr).toBe(`credence: dump ${notes}: the file exists; remove it or choose another name\n`);
    expect(r.code).toBe(2);
    expect(readFileSync(notes, 'utf8')).toBe('my notes\n');
    const folder = credence(['dump', dir]);
    expect(folder.code).toBe(2);
    expect(folder.stderr).toContain(`dump ${dir}: a folder`);
    expect(readdirSync(dir).filter((f) => f.includes('partial'))).toEqual([]);
  });

  it('writes a new file, and refuses to write it again', () => {
    const file = join(dir, 'new.dump');
    const r = credence(['dump', file]);
    expect(r.code, r.stderr).toBe(0);
    const dumped = readFileSync(file, 'utf8');
    expect(dumped.trimEnd().split('\n')).toHaveLength(4);
    expect(credence(['dump', file]).code).toBe(2);
    expect(readFileSync(file, 'utf8')).toBe(dumped);
    expect(readdirSync(dir).filter((f) => f.includes('partial'))).toEqual([]);
  });
});

describe('credence dump FILE where it cannot be written', () => {
  it('names the folder that does not exist, or the file where a folder should be, never a file of its own', () => {
    const missing = join(dir, 'no-such-folder');
    const r = credence(['dump', join(missing, 'x.dump')]);
    expect(r.stderr).toBe(
      `credence: dump ${join(missing, 'x.dump')}: the folder ${missing} does not exist; create it, ` +
        'or name a file in another folder\n',
    );
    expect(r.code).toBe(2);
    const file = join(dir, 'a-file');
    writeFileSync(file, 'x');
    const under = credence(['dump', join(file, 'x.dump')]);
    expect(under.stderr).toBe(
      `credence: dump ${join(file, 'x.dump')}: ${file} is not a folder; name a file in a folder\n`,
    );
    expect(under.code).toBe(2);
    expect(existsSync(missing)).toBe(false);
  });
});

describe('credence restore of a dump of a newer schema', () => {
  it('is refused before the store is opened, leaving no file behind', () => {
    const file = join(dir, 'current.dump');
    expect(credence(['dump', file]).code).toBe(0);
    const [head, ...rest] = readFileSync(file, 'utf8').split('\n');
    const newer = join(dir, 'newer.dump');
    writeFileSync(newer, [JSON.stringify({ ...JSON.parse(head ?? ''), schemaVersion: 999 }), ...rest].join('\n'));
    const target = join(dir, 'never.db');
    const r = runCredence(['--db', target, 'restore', newer], dir);
    expect(r.stderr).toMatch(/^credence: the dump has schema version 999, newer than this store's \(\d+\)/);
    expect(r.code).toBe(1);
    expect(readdirSync(dir).filter((f) => f.startsWith('never.db'))).toEqual([]);
  });
});
