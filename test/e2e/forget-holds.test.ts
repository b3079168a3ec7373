/**
 * A forgotten skill stays forgotten through the real binary (walk item 8): `forget` the skill, `evolve` on the same
 * observations writes no SKILL.md; the marker survives `dump` / `restore`; an observation made after the forget
 * brings the skill back on the next `evolve`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../../bin/credence.cjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'credence-forget-holds-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const root = join(dir, 'project');
mkdirSync(join(root, '.git'), { recursive: true });
writeFileSync(join(root, '.git', 'config'), '[core]\n');

/** The CLI on `db` at the instant `now`. */
const credence = (db: string, now: string, args: string[], input?: string) => {
  const r = spawnSync(process.execPath, [bin, '--db', db, '--now', now, ...args], {
    cwd: root,
    encoding: 'utf8',
    input,
    env: { ...process.env, HOME: dir, CREDENCE_EMBEDDINGS: '' },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};
const line = (at: string, type: string, observation: string, confidence: number) =>
  JSON.stringify({ timestamp: at, type, observation, confidence });

describe('credence forget holds until new evidence (walk item 8)', () => {
  it('forget -> evolve writes no skill file; dump/restore keeps that; a newer observation brings it back', () => {
    const db = join(dir, 'a.db');
    const seen = [
      line('2026-02-02T07:00:00Z', 'success', 'Tests run before commit', 0.7),
      line('2026-02-02T07:30:00Z', 'success', 'CI green after commit', 0.7),
      line('2026-02-02T08:00:00Z', 'error', 'Commit without tests turned CI red', 0.8),
    ];
    expect(credence(db, '2026-02-02T09:00:00Z', ['import', '-'], `${seen.join('\n')}\n`).code).toBe(0);
    const first = JSON.parse(credence(db, '2026-02-02T09:00:00Z', ['evolve', '--json']).stdout);
    const skill = first.skillsUpdated[0] as { id: string; file: string };
    const file = join(root, skill.file);
    expect(existsSync(file)).toBe(true);

    const forgot = credence(db, '2026-02-02T10:00:00Z', ['forget', skill.id]);
    expect(forgot.code).toBe(0);
    expect(forgot.stdout).toContain(`kept forgotten as forgotten:${skill.id}`);
    expect(existsSync(file)).toBe(false);
    const again = JSON.parse(credence(db, '2026-02-02T11:00:00Z', ['evolve', '--json']).stdout);
    expect(again.skillsUpdated).toEqual([]);
    expect(existsSync(file)).toBe(false);

    // The marker is a row of the store: a dump restored elsewhere keeps the skill forgotten.
    const dump = join(dir, 'a.dump');
    const restored = join(dir, 'b.db');
    expect(credence(db, '2026-02-02T11:00:00Z', ['dump', dump]).code).toBe(0);
    expect(credence(restored, '2026-02-02T11:00:00Z', ['restore', dump]).code).toBe(0);
    const fromRestored = JSON.parse(credence(restored, '2026-02-02T11:00:00Z', ['evolve', '--json']).stdout);
    expect(fromRestored.skillsUpdated).toEqual([]);
    expect(existsSync(file)).toBe(false);

    const newer = line('2026-02-02T12:00:00Z', 'success', 'Ran the tests before committing, CI stayed green', 0.7);
    expect(credence(db, '2026-02-02T12:30:00Z', ['import', '-'], `${newer}\n`).code).toBe(0);
    const back = JSON.parse(credence(db, '2026-02-02T12:30:00Z', ['evolve', '--json']).stdout);
    expect(back.skillsUpdated.map((k: { id: string }) => k.id)).toEqual([skill.id]);
    expect(existsSync(file)).toBe(true);
  });
});
