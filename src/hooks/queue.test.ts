import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../store/sqlite/sqlite-store.js';
import { queueSpool, queueSpooled } from './queue.js';
import { setAsideDirFor, spoolDirFor, spoolEvent, type SpooledEvent } from './spool.js';

const dir = mkdtempSync(join(tmpdir(), 'credence-queue-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const event = (n: number, extra: Partial<SpooledEvent> = {}): SpooledEvent => ({
  cwd: dir,
  scope: 'sc',
  session: 's1',
  turn: 'current',
  kind: 'PostToolUse',
  at: n,
  payload: { tool: 'Bash', status: 'success', n },
  ...extra,
});

describe('queueing the spool', () => {
  it('never stalls on a spooled file that is no event: it is set aside and the other events are queued', async () => {
    // Before: `null` in the spool made every drain throw ("paths[0]" … undefined) and put every event back.
    const db = join(dir, 'poison.db');
    mkdirSync(spoolDirFor(db), { recursive: true });
    writeFileSync(join(spoolDirFor(db), '00000000000000001-00000001-000000001-aaaaaa.json'), 'null');
    spoolEvent(db, event(1));
    spoolEvent(db, event(2));
    const store = openSqliteStore({ path: ':memory:' });
    const lines: string[] = [];
    try {
      await queueSpool(store, db, (l) => lines.push(l));
      expect((await store.claimHookEvents('sc', 'me', 0)).map((e) => e.at)).toEqual([1, 2]);
      expect(readdirSync(spoolDirFor(db)).filter((n) => !n.startsWith('.'))).toEqual([]);
      expect(readdirSync(setAsideDirFor(db))).toEqual(['00000000000000001-00000001-000000001-aaaaaa.json']);
      expect(lines).toEqual([
        expect.stringMatching(/^spooled file 00000000000000001-00000001-000000001-aaaaaa\.json holds null/),
      ]);
    } finally {
      await store.close();
    }
  });

  it('leaves out, saying why, an event whose cwd gives no scope, and queues the others', async () => {
    const store = openSqliteStore({ path: ':memory:' });
    try {
      const broken = { ...event(1, { key: 'k1' }), scope: undefined, cwd: undefined as unknown as string };
      const refused = await queueSpooled(store, [broken, event(2, { key: 'k2' })]);
      expect(refused).toEqual([{ key: 'k1', problem: 'has no cwd (a non-empty string)' }]);
      expect((await store.claimHookEvents('sc', 'me', 0)).map((e) => e.at)).toEqual([2]);
    } finally {
      await store.close();
    }
  });

  it('leaves out an event whose project lookup throws, naming its cwd; one with no repository is global', async () => {
    // A repository whose .git/config cannot be read (here a folder: EISDIR; an unreadable file gives EACCES).
    const repo = join(dir, 'broken-repo');
    mkdirSync(join(repo, '.git', 'config'), { recursive: true });
    const outside = join(dir, 'no-repo');
    mkdirSync(outside);
    const store = openSqliteStore({ path: ':memory:' });
    try {
      const events = [
        event(1, { key: 'k1', scope: undefined, cwd: repo }),
        event(2, { key: 'k2', scope: undefined, cwd: outside }),
        event(3, { key: 'k3', scope: undefined, cwd: join(dir, 'gone') }),
        event(4, { key: 'k4' }),
      ];
      const refused = await queueSpooled(store, events);
      const problem = expect.stringMatching(/^has a cwd ".*broken-repo" that gives no scope: EISDIR/);
      expect(refused).toEqual([{ key: 'k1', problem }]);
      expect((await store.claimHookEvents('global', 'me', 0)).map((e) => e.at)).toEqual([2, 3]);
      expect((await store.claimHookEvents('sc', 'me', 0)).map((e) => e.at)).toEqual([4]);
    } finally {
      await store.close();
    }
  });
});
