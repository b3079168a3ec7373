import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../store/sqlite/sqlite-store.js';
import { resolveScope } from '../platform/git-scope.js';
import { isBusy, queueSpool, queueSpooled } from './queue.js';
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

// Review A item 1: with CREDENCE_SCOPE=work over two repositories (api, web), each call was queued with its own
// repository's root, and SessionStart named api's and web's src/index.ts both `src/index.ts` (their failures merged).
// A root is kept only when the cwd's repository gives the scope the call is queued in (clones of one project).
describe('the root a call is queued with', () => {
  const repo = (name: string, origin: string): string => {
    const root = join(dir, 'roots', name);
    mkdirSync(join(root, '.git'), { recursive: true });
    mkdirSync(join(root, 'src'), { recursive: true });
    writeFileSync(join(root, '.git', 'config'), `[remote "origin"]\n\turl = https://git.example.com/${origin}.git\n`);
    return root;
  };
  const rootsQueued = async (events: SpooledEvent[], scope: string) => {
    const store = openSqliteStore({ path: ':memory:' });
    try {
      expect(await queueSpooled(store, events)).toEqual([]);
      return (await store.claimHookEvents(scope, 'me', 0)).map((e) => (e.payload as { root?: string }).root ?? null);
    } finally {
      await store.close();
    }
  };

  it('is none when CREDENCE_SCOPE names a scope not the repository’s own: two projects, no shared name', async () => {
    const api = repo('api', 'me/api');
    const web = repo('web', 'me/web');
    const work = [api, web, join(api, 'src')].map((cwd, n) => event(n, { cwd, scope: 'work' }));
    expect(await rootsQueued(work, 'work')).toEqual([null, null, null]);
  });

  it("is the clone's top-level folder when its repository gives the scope, the scope named or not", async () => {
    const ana = repo('ana', 'team/shop');
    const ben = repo('ben', 'team/shop');
    const own = resolveScope({ cwd: ana }).scope;
    const events = [
      event(1, { cwd: join(ana, 'src'), scope: undefined }),
      event(2, { cwd: ben, scope: own }),
      event(3, { cwd: ben, scope: undefined, kind: 'prompt', payload: { prompt: 'fix' } }),
    ];
    expect(await rootsQueued(events, own)).toEqual([ana, ben, null]);
  });
});

// Review C (walk 7): the store names a lock held past its busy timeout STORE_BUSY (41f91db); the hooks' isBusy must
// take it, or they print `the store … is busy` as a failure instead of "what is queued will be learned next time".
describe('isBusy', () => {
  it("takes the store's STORE_BUSY when another connection holds the write lock", async () => {
    const path = join(mkdtempSync(join(dir, 'busy-')), 'c.db');
    const store = openSqliteStore({ path, busyTimeoutMs: 50 });
    const other = new Database(path);
    other.exec('BEGIN IMMEDIATE');
    try {
      const error = await queueSpooled(store, [event(1)]).then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(error).toMatchObject({ code: 'STORE_BUSY' });
      expect(isBusy(error)).toBe(true);
    } finally {
      other.exec('ROLLBACK');
      other.close();
      await store.close();
    }
  });
});
