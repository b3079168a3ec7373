/**
 * The checks of a file a command writes anew: the store's database and its -wal, -shm and -journal are refused by
 * any name (through a symbolic link too), and the placing never replaces a file made meanwhile.
 */
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkNewFile, placeNew, type NewFile } from './new-file.js';

const dir = mkdtempSync(join(tmpdir(), 'credence-new-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const store = join(dir, 's.db');
writeFileSync(store, 'db');
symlinkSync('.', join(dir, 'here'));
const named = (file: string): NewFile => ({ command: 'dump', file, ifExists: 'choose another name' });
const own = (file: string) => `dump ${file}: that is the store's own database; name another file`;

describe('checkNewFile', () => {
  it.each(['', '-wal', '-shm', '-journal'])(
    'refuses the store%s, named directly, even when it does not exist',
    (end) => {
      const file = `${store}${end}`;
      expect(() => checkNewFile(named(file), { store })).toThrow(own(file));
      expect(() => checkNewFile(named(file), { store, overwrite: true })).toThrow(own(file));
    },
  );

  it.each(['', '-wal', '-shm', '-journal'])('refuses the store%s through a folder that is a link to its own', (end) => {
    // Before: `here/s.db-journal` was written beside the live database, and SQLite deleted it on the next open.
    const file = join(dir, 'here', `s.db${end}`);
    expect(() => checkNewFile(named(file), { store, overwrite: true })).toThrow(own(file));
    const viaLink = join(dir, 'here', 's.db');
    expect(() => checkNewFile(named(`${store}${end}`), { store: viaLink })).toThrow(own(`${store}${end}`));
  });

  it('refuses a link to the store, even when replacing is allowed', () => {
    const link = join(dir, 'link.db');
    symlinkSync(store, link);
    expect(() => checkNewFile(named(link), { store, overwrite: true })).toThrow(own(link));
  });

  it('accepts another name in the store’s folder, and the store’s names with no store given', () => {
    expect(checkNewFile(named(join(dir, 'here', 'dump.jsonl')), { store })).toBe(join(dir, 'here', 'dump.jsonl'));
    expect(checkNewFile(named(`${store}-journal`))).toBe(`${store}-journal`);
  });
});

describe('placeNew', () => {
  it('puts the written file in place when the name is free', () => {
    const aside = join(dir, '.a.partial');
    writeFileSync(aside, 'dump');
    placeNew(aside, join(dir, 'a.jsonl'), named('a.jsonl'));
    expect(readFileSync(join(dir, 'a.jsonl'), 'utf8')).toBe('dump');
  });

  it('never replaces a file made meanwhile: refused, that file as it was, the written one left aside', () => {
    const aside = join(dir, '.b.partial');
    const path = join(dir, 'b.jsonl');
    writeFileSync(aside, 'dump');
    writeFileSync(path, 'made meanwhile');
    expect(() => placeNew(aside, path, named('b.jsonl'))).toThrow('dump b.jsonl: the file exists; choose another name');
    expect(readFileSync(path, 'utf8')).toBe('made meanwhile');
    expect(readFileSync(aside, 'utf8')).toBe('dump');
  });
});
