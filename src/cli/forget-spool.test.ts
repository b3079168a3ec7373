import { describe, expect, it } from 'vitest';
import { cliIn } from '../../test/cli.js';
import { spooled, spooledStore } from '../../test/spool-fixture.js';

const store = (runs: boolean) => spooledStore('credence-forget-spool-', runs);

describe('credence forget <session> and the hooks spool', () => {
  it("deletes the session's spooled events (not another session's), so no drain learns them again", async () => {
    const { dir, db } = await store(true);
    const r = await cliIn(dir, ['--db', db, '--scope', 'p', 'forget', 'sess2']);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^forgot session sess2; forgot its 1 run .*; deleted its 1 event still in the spool; /);
    expect(r.stdout).toMatch(/; its events in other machines' spools are dropped when they are learned\n$/);
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
