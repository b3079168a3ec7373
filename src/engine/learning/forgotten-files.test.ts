import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runSessionStartHook } from '../../hooks/session-start.js';
import { openSqliteStore } from '../../store/sqlite/index.js';
import type { SkillRecord, Store } from '../../store/types.js';
import { openCredence } from '../engine.js';
import { formatEvolveReport } from './evolve.js';
import { withdrawForgottenSkillsAtStart } from './forgotten-files.js';

const HOUR = 3_600_000;
const T0 = Date.parse('2026-02-02T09:00:00Z');
const base = mkdtempSync(join(tmpdir(), 'credence-forgotten-files-'));
const opened: Store[] = [];
afterAll(async () => {
  for (const s of opened) await s.close().catch(() => {});
  rmSync(base, { recursive: true, force: true });
});

const RUFF = [
  'No, use ruff instead of flake8 for linting (1)',
  'No, use ruff instead of flake8 for linting (2)',
  'No, use ruff instead of flake8 for linting (3)',
  'No, use ruff instead of flake8 for linting (4)',
];
const said = (texts: readonly string[], end: number) =>
  texts.map((observation, k) => ({
    timestamp: new Date(end - (texts.length - k) * HOUR).toISOString(),
    type: 'correction' as const,
    observation,
    confidence: 0.7,
  }));

let n = 0;
/**
 * Two developers' clones of one project (Claude Code projects: skills go to .claude/skills), each with its own
 * connection to one shared SQLite file, in the same scope.
 */
function team() {
  const dir = join(base, `t${(n += 1)}`);
  const db = join(dir, 'credence.db');
  const dev = (name: string) => {
    const root = join(dir, name);
    mkdirSync(join(root, '.git'), { recursive: true });
    mkdirSync(join(root, '.claude'), { recursive: true });
    mkdirSync(dir, { recursive: true });
    const store = openSqliteStore({ path: db });
    opened.push(store);
    const at = (t: number) => openCredence({ store, scope: 's', now: () => t, cwd: root });
    return { root, store, at };
  };
  const dev1 = dev('app1');
  const dev2 = dev('app2');
  /** The SessionStart hook of a session in `root`, as Claude Code runs it. */
  const sessionStart = (root: string, t: number) =>
    runSessionStartHook(
      { event: 'SessionStart', session: 'sess', cwd: root } as Parameters<typeof runSessionStartHook>[0],
      { CREDENCE_DB: db, CREDENCE_SCOPE: 's', CREDENCE_NOW: new Date(t).toISOString(), CREDENCE_AUTO_EVOLVE: '0' },
    );
  return { dev1, dev2, sessionStart };
}

/** Both developers have the ruff skill in their .claude/skills, written by their own evolve. */
async function bothLearned(t: ReturnType<typeof team>): Promise<{ id: string; file: string }> {
  const c1 = await t.dev1.at(T0);
  await c1.observe(said(RUFF, T0));
  await c1.evolve();
  await (await t.dev2.at(T0 + HOUR)).evolve();
  const skill = (await t.dev1.store.listSkills('s'))[0];
  expect(skill).toBeDefined();
  const file = `.claude/skills/${skill?.name}/SKILL.md`;
  expect(existsSync(join(t.dev1.root, file))).toBe(true);
  expect(existsSync(join(t.dev2.root, file))).toBe(true);
  return { id: skill?.id as string, file };
}

describe('a skill forgotten on one machine leaves the other machines sharing the store', () => {
  it("the other developer's next evolve removes its file, and its report says so", async () => {
    const t = team();
    const { id, file } = await bothLearned(t);
    const forgotten = await (await t.dev1.at(T0 + 2 * HOUR)).forget(id);
    expect(forgotten.files).toEqual([file]);
    expect(existsSync(join(t.dev1.root, file))).toBe(false);
    expect(existsSync(join(t.dev2.root, file))).toBe(true);

    const c2 = await t.dev2.at(T0 + 3 * HOUR);
    const dry = await c2.evolve({ dryRun: true });
    expect(dry.forgotten?.map((f) => [f.id, f.path, f.outcome])).toEqual([[id, file, 'removed']]);
    expect(existsSync(join(t.dev2.root, file))).toBe(true);
    const report = await c2.evolve();
    expect(existsSync(join(t.dev2.root, file))).toBe(false);
    expect(existsSync(join(t.dev2.root, file, '..'))).toBe(false);
    expect(report.forgotten?.map((f) => [f.id, f.kind, f.path, f.outcome])).toEqual([[id, 'skill', file, 'removed']]);
    expect(report.files).toContainEqual({ path: file, changed: true });
    expect(formatEvolveReport(report)).toContain(`### Forgotten, files taken out (1)\n- skill ruff: ${file} removed`);
    // Nothing left to take out: the next run says nothing of it.
    expect((await (await t.dev2.at(T0 + 4 * HOUR)).evolve()).forgotten).toBeUndefined();
  });

  it("the other developer's next session start removes it, one line on stderr, the context as before", async () => {
    const t = team();
    const { id, file } = await bothLearned(t);
    await (await t.dev1.at(T0 + 2 * HOUR)).forget(id);
    const start = await t.sessionStart(t.dev2.root, T0 + 3 * HOUR);
    expect(existsSync(join(t.dev2.root, file))).toBe(false);
    expect(start.stderr.trimEnd().split('\n')).toEqual([
      `credence hook: took out the files of 1 skill forgotten in the shared store: ${file}`,
    ]);
    expect(start.stdout).not.toMatch(/forgotten|took out/);
    // Said once: the next session start has nothing to say.
    expect((await t.sessionStart(t.dev2.root, T0 + 4 * HOUR)).stderr).toBe('');
  });

  it("a SKILL.md with a human's text keeps it: only Credence's section leaves", async () => {
    const t = team();
    const { id, file } = await bothLearned(t);
    const path = join(t.dev2.root, file);
    const mine = 'My own note: ruff runs in CI too, keep its config in pyproject.toml.';
    writeFileSync(path, `${readFileSync(path, 'utf8')}\n${mine}\n`);
    await (await t.dev1.at(T0 + 2 * HOUR)).forget(id);
    const start = await t.sessionStart(t.dev2.root, T0 + 3 * HOUR);
    expect(start.stderr).toContain(`${file} (Credence's section; your text kept)`);
    const left = readFileSync(path, 'utf8');
    expect(left).toContain(mine);
    // As `forget` leaves it on its own machine: the front matter stays with the human's text, the section goes.
    expect(left).not.toMatch(/credence:begin|credence:end|## Rules|confidence 0\./);
    // Kept as it is from then on.
    const report = await (await t.dev2.at(T0 + 4 * HOUR)).evolve();
    expect(report.forgotten).toBeUndefined();
    expect(readFileSync(path, 'utf8')).toBe(left);
  });

  it("a file without Credence's markers is never taken out: by forget, a session start or evolve", async () => {
    // Before: a SKILL.md of front matter only (or empty) was deleted, on every machine at each start.
    const t = team();
    const { id, file } = await bothLearned(t);
    const front = '---\nname: ruff\ndescription: lint with ruff\n---\n';
    writeFileSync(join(t.dev1.root, file), front);
    const forgotten = await (await t.dev1.at(T0 + 2 * HOUR)).forget(id);
    expect(forgotten.files).toEqual([]);
    expect(readFileSync(join(t.dev1.root, file), 'utf8')).toBe(front);
    const path = join(t.dev2.root, file);
    for (const [k, text] of [front, '', `${front}\n\n`].entries()) {
      writeFileSync(path, text);
      const start = await t.sessionStart(t.dev2.root, T0 + (3 + k) * HOUR);
      expect(start.stderr).toBe('');
      expect(readFileSync(path, 'utf8')).toBe(text);
    }
    expect((await (await t.dev2.at(T0 + 7 * HOUR)).evolve()).forgotten).toBeUndefined();
    expect(readFileSync(path, 'utf8')).toBe(`${front}\n\n`);
    // An instinct's file written by hand (no markers), an instinct of that name forgotten: it stays too.
    await t.dev1.store.recordForgotten('s', [{ id: 'instinct-lint', kind: 'instinct', name: 'lint', at: T0 }]);
    const mine = join(t.dev2.root, '.credence/instincts/lint.md');
    mkdirSync(join(mine, '..'), { recursive: true });
    for (const text of ['# Lint\nMy own notes on lint.\n', '']) {
      writeFileSync(mine, text);
      const report = await (await t.dev2.at(T0 + 8 * HOUR)).evolve();
      expect(report.forgotten).toBeUndefined();
      expect(readFileSync(mine, 'utf8')).toBe(text);
    }
  });

  it('a skills folder linked out of the project: only files that exist are said, once, in a bounded line', async () => {
    // Before: every tombstone was said "kept … outside the root", file or not, at every start (820 characters for 3).
    const t = team();
    const outside = join(base, `dotfiles-${n}`);
    mkdirSync(outside, { recursive: true });
    symlinkSync(outside, join(t.dev2.root, '.claude/skills'));
    const names = Array.from({ length: 12 }, (_, k) => `rule-${k}`);
    await t.dev1.store.recordForgotten(
      's',
      names.map((name) => ({ id: `skill-${name}`, kind: 'skill' as const, name, at: T0 })),
    );
    expect((await t.sessionStart(t.dev2.root, T0 + HOUR)).stderr).toBe('');
    for (const name of names) {
      mkdirSync(join(outside, name));
      writeFileSync(
        join(outside, name, 'SKILL.md'),
        `# ${name}\n<!-- credence:begin (x) -->\n- a rule\n<!-- credence:end -->\n`,
      );
    }
    const start = await t.sessionStart(t.dev2.root, T0 + 2 * HOUR);
    const lines = start.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^credence hook: kept \.claude\/skills\/rule-0\/SKILL\.md \(.*and 9 more$/);
    expect((lines[0] as string).length).toBeLessThan(600);
    for (const name of names) expect(existsSync(join(outside, name, 'SKILL.md'))).toBe(true);
    // Said once on this machine: the next start is quiet about the same files.
    expect((await t.sessionStart(t.dev2.root, T0 + 3 * HOUR)).stderr).toBe('');
  });

  it('a session start asks the store only for skill tombstones named in its skills folder (one query)', async () => {
    // Before: every tombstone of the scope, instincts too, was read and looked at: 890 ms at 10,000.
    const root = join(base, `names-${(n += 1)}`);
    for (const name of ['ruff', 'black', 'empty', 'Not A Name'])
      mkdirSync(join(root, '.claude/skills', name), { recursive: true });
    mkdirSync(join(root, '.git'));
    writeFileSync(join(root, '.claude/skills/ruff/SKILL.md'), '# ruff\n');
    writeFileSync(join(root, '.claude/skills/black/SKILL.md'), '# black\n');
    writeFileSync(join(root, '.claude/skills/Not A Name/SKILL.md'), '# x\n');
    const asked: unknown[] = [];
    const store = {
      listForgotten: async (_scope: string, options?: unknown) => {
        asked.push(options);
        return [];
      },
    };
    expect(await withdrawForgottenSkillsAtStart({ store, scope: 's', root })).toEqual([]);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ kind: 'skill' });
    expect([...((asked[0] as { names: string[] }).names ?? [])].sort()).toEqual(['black', 'ruff']);
    // No skills folder, or nothing in it: no query at all.
    const bare = join(base, `names-${(n += 1)}`);
    mkdirSync(join(bare, '.claude/skills'), { recursive: true });
    expect(await withdrawForgottenSkillsAtStart({ store, scope: 's', root: bare })).toEqual([]);
    expect(asked).toHaveLength(1);
  });

  /** A team whose first developer has an instinct `instinct-lint` (slug lint) learned from three observations. */
  const teamWithLintInstinct = async () => {
    const t = team();
    await (await t.dev1.at(T0)).observe(said(['lint first', 'lint before push', 'run lint'], T0));
    const evidence = (await t.dev1.store.listObservations('s')).map((o) => o.id);
    const instinct = { id: 'instinct-lint', slug: 'lint', text: 'lint first', confidence: 0.6 };
    await t.dev1.store.upsertInstinct('s', { ...instinct, status: 'active', evidence, createdAt: T0, updatedAt: T0 });
    return t;
  };

  it("a forgotten instinct's tombstone: the other machine's evolve takes its file out, a start does not", async () => {
    const t = await teamWithLintInstinct();
    await (await t.dev1.at(T0 + HOUR)).forget('instinct-lint');
    expect(await t.dev1.store.listForgotten('s')).toEqual([
      { id: 'instinct-lint', kind: 'instinct', name: 'lint', at: T0 + HOUR },
    ]);
    const file = join(t.dev2.root, '.credence/instincts/lint.md');
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, '# Lint\n<!-- credence:begin (x) -->\n- lint first\n<!-- credence:end -->\n');
    // A session start takes out skills only (what the agent loads), even with a skill folder of that name.
    mkdirSync(join(t.dev2.root, '.claude/skills/lint'), { recursive: true });
    writeFileSync(join(t.dev2.root, '.claude/skills/lint/SKILL.md'), '# lint\nmine\n');
    expect((await t.sessionStart(t.dev2.root, T0 + 2 * HOUR)).stderr).toBe('');
    expect(existsSync(file)).toBe(true);
    const report = await (await t.dev2.at(T0 + 3 * HOUR)).evolve();
    expect(report.forgotten?.map((f) => [f.kind, f.path, f.outcome])).toEqual([
      ['instinct', '.credence/instincts/lint.md', 'removed'],
    ]);
    expect(existsSync(file)).toBe(false);
  });

  it('forget of an instinct keeps its file when it has no Credence markers (written by hand)', async () => {
    // Before: forget removed .credence/instincts/<slug>.md whatever it held.
    const t = await teamWithLintInstinct();
    const file = join(t.dev1.root, '.credence/instincts/lint.md');
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, '# Lint\nMy own notes.\n');
    const r = await (await t.dev1.at(T0 + HOUR)).forget('instinct-lint');
    expect(r.files).toEqual([]);
    expect(readFileSync(file, 'utf8')).toBe('# Lint\nMy own notes.\n');
  });

  it('a session start leaves instinct files even when the store lists an instinct tombstone', async () => {
    const root = join(base, `kinds-${(n += 1)}`);
    mkdirSync(join(root, '.claude/skills/lint'), { recursive: true });
    writeFileSync(join(root, '.claude/skills/lint/SKILL.md'), '# lint\nmine\n');
    const file = join(root, '.credence/instincts/lint.md');
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, '# Lint\n<!-- credence:begin (x) -->\n- lint first\n<!-- credence:end -->\n');
    const store = {
      listForgotten: async () => [{ id: 'instinct-lint', kind: 'instinct' as const, name: 'lint', at: T0 }],
    };
    expect(await withdrawForgottenSkillsAtStart({ store, scope: 's', root })).toEqual([]);
    expect(existsSync(file)).toBe(true);
  });

  it('a dry run does not list the file of a skill it would learn again (its upsert clears the tombstone)', async () => {
    const t = team();
    const { id } = await bothLearned(t);
    await (await t.dev1.at(T0 + 2 * HOUR)).forget(id);
    await (await t.dev1.at(T0 + 8 * HOUR)).observe(said(RUFF, T0 + 8 * HOUR));
    const dry = await (await t.dev2.at(T0 + 9 * HOUR)).evolve({ dryRun: true });
    expect(dry.skillsUpdated.map((k) => k.name)).toContain('ruff');
    expect(dry.forgotten).toBeUndefined();
  });

  it('a skill learned again after it was forgotten is written again, on every machine, and stays', async () => {
    const t = team();
    const { id, file } = await bothLearned(t);
    await (await t.dev1.at(T0 + 2 * HOUR)).forget(id);
    await t.sessionStart(t.dev2.root, T0 + 3 * HOUR);
    expect(existsSync(join(t.dev2.root, file))).toBe(false);
    expect((await t.dev1.store.listForgotten('s')).map((f) => f.id)).toEqual([id]);

    const later = T0 + 30 * HOUR;
    const c1 = await t.dev1.at(later);
    await c1.observe(said(RUFF, later));
    await c1.evolve();
    expect((await t.dev1.store.listSkills('s')).map((k) => k.id)).toEqual([id]);
    expect(await t.dev1.store.listForgotten('s')).toEqual([]);
    expect(existsSync(join(t.dev1.root, file))).toBe(true);
    const report = await (await t.dev2.at(later + HOUR)).evolve();
    expect(report.forgotten).toBeUndefined();
    expect(existsSync(join(t.dev2.root, file))).toBe(true);
    expect((await t.sessionStart(t.dev2.root, later + 2 * HOUR)).stderr).toBe('');
    expect(existsSync(join(t.dev2.root, file))).toBe(true);
  });

  it('only the folders Credence writes in the project are looked in: a file elsewhere of that name stays', async () => {
    const t = team();
    const { id, file } = await bothLearned(t);
    const elsewhere = join(t.dev2.root, 'docs', 'skills', 'ruff', 'SKILL.md');
    mkdirSync(join(elsewhere, '..'), { recursive: true });
    writeFileSync(elsewhere, readFileSync(join(t.dev2.root, file), 'utf8'));
    await (await t.dev1.at(T0 + 2 * HOUR)).forget(id);
    await (await t.dev2.at(T0 + 3 * HOUR)).evolve();
    expect(existsSync(join(t.dev2.root, file))).toBe(false);
    expect(existsSync(elsewhere)).toBe(true);
  });
});

/**
 * `store` with `write` run right after its `method` (deleteSkill, deleteInstinct) returns: a teammate's evolve, which
 * read the item before the forget, writing it back at that moment.
 */
function writingAfter(store: Store, method: 'deleteSkill' | 'deleteInstinct', write: () => Promise<unknown>): Store {
  return new Proxy(store, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      const call = value as (...args: unknown[]) => unknown;
      if (property !== method) return call.bind(target);
      return async (...args: unknown[]) => {
        const deleted = await call.apply(target, args);
        await write();
        return deleted;
      };
    },
  });
}

// Review D: forget deleted the row and wrote its tombstone after; a teammate's evolve writing in between found no
// tombstone and brought the item back, for good (its tombstone hidden by the live row, so no file was taken out).
describe('a forget racing a teammate evolve that read the item before it', () => {
  it('a skill written back right after its row is deleted stays forgotten, its tombstone listed', async () => {
    const t = team();
    const { id } = await bothLearned(t);
    const read = (await t.dev2.store.listSkills('s')).find((k) => k.id === id) as SkillRecord;
    // The teammate's evolve also learned from a correction said since: the skill it writes holds one more.
    const { ids } = await (await t.dev2.at(T0 + HOUR)).observe(said(['No, use ruff, not flake8 (5)'], T0 + HOUR));
    const racing = writingAfter(t.dev1.store, 'deleteSkill', () =>
      t.dev2.store.upsertSkill('s', { ...read, evidence: [...read.evidence, ...ids], updatedAt: T0 + HOUR }),
    );
    const c1 = await openCredence({ store: racing, scope: 's', now: () => T0 + 2 * HOUR, cwd: t.dev1.root });
    await c1.forget(id);
    expect(await t.dev1.store.listSkills('s')).toEqual([]);
    expect((await t.dev1.store.listForgotten('s')).map((f) => f.id)).toContain(id);
  });

  it('an instinct written back right after its row is deleted stays forgotten, its tombstone listed', async () => {
    const t = team();
    await (await t.dev1.at(T0)).observe(said(['lint first', 'lint before push', 'run lint'], T0));
    const evidence = (await t.dev1.store.listObservations('s')).map((o) => o.id);
    const instinct = {
      id: 'instinct-lint',
      slug: 'lint',
      text: 'lint first',
      confidence: 0.6,
      status: 'active' as const,
      evidence,
      createdAt: T0,
      updatedAt: T0,
    };
    await t.dev1.store.upsertInstinct('s', instinct);
    const { ids } = await (await t.dev2.at(T0 + HOUR)).observe(said(['lint on save'], T0 + HOUR));
    const racing = writingAfter(t.dev1.store, 'deleteInstinct', () =>
      t.dev2.store.upsertInstinct('s', {
        ...instinct,
        confidence: 0.7,
        evidence: [...evidence, ...ids],
        updatedAt: T0 + HOUR,
      }),
    );
    const c1 = await openCredence({ store: racing, scope: 's', now: () => T0 + 2 * HOUR, cwd: t.dev1.root });
    await c1.forget('instinct-lint');
    expect(await t.dev1.store.listInstincts('s')).toEqual([]);
    expect((await t.dev1.store.listForgotten('s')).map((f) => f.id)).toEqual(['instinct-lint']);
  });
});
