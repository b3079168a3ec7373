/**
 * Where a library user's `evolve()` writes besides the store (walk 7, item 5): under the project root, skills in
 * `.claude/skills` when the root has `.claude/` (the user's own skills when a program runs from the home folder),
 * elsewhere when `dir` / `skillsDir` say so. docs/library.md's "Files evolve writes" names every place a run wrote.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openCredence } from '../src/index.js';

const repo = fileURLToPath(new URL('../', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'credence-evolve-files-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The guide's section on evolve's files, up to the next heading. */
const section = /^### Files evolve writes\n([\s\S]*?)(?=^#|(?![\s\S]))/m.exec(
  readFileSync(join(repo, 'docs', 'library.md'), 'utf8'),
)?.[1];

/** The files one evolve of three alike corrections writes, from a folder, as a library user opens Credence. */
async function evolveFrom(cwd: string, options: { dir?: string; skillsDir?: string } = {}): Promise<string[]> {
  const credence = await openCredence({ db: ':memory:', scope: 'agent', cwd, now: '2026-02-02T09:00:00Z' });
  try {
    for (const n of [1, 2, 3]) {
      const observation = `No, use pnpm install instead of npm install (${n})`;
      await credence.observeNow({ type: 'correction', observation, evidence: ['user'], context: { task: 'deps' } });
    }
    const report = await credence.evolve(options);
    const log = `${options.dir ?? '.credence'}/evolution.log.jsonl`;
    return [...report.files.map((f) => f.path), ...(existsSync(join(cwd, log)) ? [log] : [])];
  } finally {
    await credence.close();
  }
}

describe('the files evolve writes outside the store, as docs/library.md says (walk 7, item 5)', () => {
  it('from a home folder with .claude/: a skill in its Claude Code skills, the log in .credence', async () => {
    const home = join(root, 'home');
    mkdirSync(join(home, '.claude'), { recursive: true });
    const files = await evolveFrom(home);
    expect(files).toContainEqual(expect.stringMatching(/^\.claude\/skills\/[^/]+\/SKILL\.md$/));
    expect(files).toContain('.credence/evolution.log.jsonl');
    expect(files.filter((f) => !/^\.(claude\/skills|credence)\//.test(f))).toEqual([]);
    expect(section, 'docs/library.md has no "### Files evolve writes"').toBeDefined();
    expect(section).toContain('`.claude/skills/<name>/SKILL.md`');
    expect(section).toContain('`.credence/evolution.log.jsonl`');
    expect(section).toMatch(/home folder/);
  });

  it('with dir and skillsDir: everything under the folder given; the guide shows both options', async () => {
    const project = join(root, 'project');
    mkdirSync(join(project, '.claude'), { recursive: true });
    const files = await evolveFrom(project, { dir: 'learned', skillsDir: 'learned/skills' });
    expect(files).toContainEqual(expect.stringMatching(/^learned\/skills\/[^/]+\/SKILL\.md$/));
    expect(files).toContain('learned/evolution.log.jsonl');
    expect(files.filter((f) => !f.startsWith('learned/'))).toEqual([]);
    expect(existsSync(join(project, '.claude', 'skills'))).toBe(false);
    expect(section).toMatch(/evolve\(\{ dir: 'learned', skillsDir: 'learned\/skills' \}\)/);
    expect(section).toContain('`.credence/skills/<name>/SKILL.md`');
  });
});
