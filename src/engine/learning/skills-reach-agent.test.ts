import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ObservationType } from '../../core/types.js';
import { openCredence } from '../engine.js';
import { openSqliteStore } from '../../store/sqlite/index.js';

const T0 = Date.parse('2026-02-02T09:00:00Z');
const base = mkdtempSync(join(tmpdir(), 'credence-reach-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

let n = 0;
function setup(options: { claude?: boolean } = {}) {
  const root = join(base, `p${(n += 1)}`);
  mkdirSync(join(root, '.git'), { recursive: true });
  if (options.claude === true) mkdirSync(join(root, '.claude'));
  const store = openSqliteStore({ path: ':memory:' });
  const open = () => openCredence({ store, scope: 's', now: () => T0, cwd: root });
  return { root, store, open };
}

const obs = (text: string, hoursBefore: number, type: ObservationType = 'preference', confidence = 0.7) => ({
  timestamp: new Date(T0 - hoursBefore * 3_600_000).toISOString(),
  type,
  observation: text,
  confidence,
});

const camelCase = [
  obs('Use camelCase for variable names', 3),
  obs('Name variables in camelCase', 2),
  obs('Variables are written in camelCase', 1),
];

describe('skills go where the agent reads them', () => {
  it('writes skills to .claude/skills/<name>/SKILL.md in a project with a .claude folder', async () => {
    const { root, open } = setup({ claude: true });
    const c = await open();
    await c.observe(camelCase);
    const report = await c.evolve();
    const skill = report.skillsUpdated[0];
    expect(skill?.file).toBe(`.claude/skills/${skill?.name}/SKILL.md`);
    const text = readFileSync(join(root, skill?.file ?? ''), 'utf8');
    expect(text).toMatch(new RegExp(`^---\\nname: ${skill?.name}\\ndescription: "`));
    expect(existsSync(join(root, '.credence/skills'))).toBe(false);
    // Instincts and the log stay in .credence (Claude Code reads only skills).
    expect(existsSync(join(root, '.credence/evolution.log.jsonl'))).toBe(true);
  });

  it('writes skills to the configured folder without Claude Code, and to --skills-dir when given', async () => {
    const plain = setup();
    const c = await plain.open();
    await c.observe(camelCase);
    expect((await c.evolve()).skillsUpdated[0]?.file).toMatch(/^\.credence\/skills\//);

    const given = setup({ claude: true });
    const g = await given.open();
    await g.observe(camelCase);
    expect((await g.evolve({ skillsDir: 'agent/skills' })).skillsUpdated[0]?.file).toMatch(/^agent\/skills\//);
  });

  it('moves a skill written before to .claude/skills once the project uses Claude Code', async () => {
    const { root, store, open } = setup();
    const c = await open();
    await c.observe(camelCase);
    const name = (await c.evolve()).skillsUpdated[0]?.name ?? '';
    mkdirSync(join(root, '.claude'));
    const again = await (await open()).evolve();
    expect(again.files.map((f) => f.path)).toContain(`.claude/skills/${name}/SKILL.md`);
    expect((await store.getMemory('s', `skill-${name}`))?.path).toBe(`.claude/skills/${name}/SKILL.md`);
    // The file left behind held only Credence's text: it goes, with its folder.
    expect(existsSync(join(root, '.credence/skills', name, 'SKILL.md'))).toBe(false);
    expect(existsSync(join(root, '.credence/skills', name))).toBe(false);
  });

  it('keeps the file left behind when someone wrote in it', async () => {
    const { root, open } = setup();
    const c = await open();
    await c.observe(camelCase);
    const name = (await c.evolve()).skillsUpdated[0]?.name ?? '';
    const old = join(root, '.credence/skills', name, 'SKILL.md');
    writeFileSync(old, `${readFileSync(old, 'utf8')}\nMy own note.\n`);
    mkdirSync(join(root, '.claude'));
    await (await open()).evolve();
    expect(readFileSync(old, 'utf8')).toContain('My own note.');
    expect(existsSync(join(root, '.claude/skills', name, 'SKILL.md'))).toBe(true);
  });
});

describe('evolve updates a skill written by hand on the same topic', () => {
  const mine =
    '---\nname: code-style\ndescription: How we write code here. Use when naming things.\n---\n' +
    '# Code style\n\n- Use camelCase for variables and functions\n- Keep files short\n';

  /** The hand-written skill `mine` in the project's .claude/skills; its path. */
  const handWritten = (root: string): string => {
    mkdirSync(join(root, '.claude/skills/code-style'), { recursive: true });
    writeFileSync(join(root, '.claude/skills/code-style/SKILL.md'), mine);
    return join(root, '.claude/skills/code-style/SKILL.md');
  };

  it('puts the rule into the hand-written SKILL.md as marked additions and makes no second skill', async () => {
    const { root, store, open } = setup({ claude: true });
    const file = handWritten(root);
    const c = await open();
    await c.observe(camelCase);
    const report = await c.evolve();
    expect(report.skillsUpdated.map((s) => [s.name, s.handWritten])).toEqual([['code-style', true]]);
    const text = readFileSync(file, 'utf8');
    expect(text.startsWith(`${mine}\n<!-- credence:begin`)).toBe(true);
    expect(text).toContain('## Learned by Credence');
    expect((await store.listSkills('s')).map((s) => [s.name, s.description])).toEqual([
      ['code-style', 'How we write code here. Use when naming things.'],
    ]);
    // Nothing else in the skills folder.
    expect(report.files.filter((f) => f.path.startsWith('.claude/skills/')).map((f) => f.path)).toEqual([
      '.claude/skills/code-style/SKILL.md',
    ]);

    // The next rule on the topic goes to the same file; the writer's text stays byte for byte.
    await c.observe([obs('Functions are named in camelCase too', 0.5)]);
    const next = await c.evolve();
    expect(next.skillsUpdated.map((s) => s.name)).toEqual(['code-style']);
    expect(readFileSync(file, 'utf8').startsWith(`${mine}\n<!-- credence:begin`)).toBe(true);
    expect(await store.listSkills('s')).toHaveLength(1);
  });

  it('forgetting the skill takes out only what Credence added: the hand-written file stays as written', async () => {
    const { root, store, open } = setup({ claude: true });
    const file = handWritten(root);
    const c = await open();
    await c.observe(camelCase);
    await c.evolve();
    expect(readFileSync(file, 'utf8')).toContain('## Learned by Credence');
    const [skill] = await store.listSkills('s');
    // Recall shows the file as a reader would: no front matter, no markers.
    const [hit] = (await c.recall('camelCase variables', { track: false })).filter((h) => h.kind === 'skill');
    expect(hit?.snippet).toContain('camelCase');
    expect(hit?.snippet).not.toMatch(/credence:begin|^---|name: code-style/m);
    // A file whose markers someone broke is refused, saying so, and nothing stored goes.
    writeFileSync(file, readFileSync(file, 'utf8').replace(/<!-- credence:end -->/, ''));
    await expect(c.forget(skill?.id as string)).rejects.toThrow(/credence:begin and 0 credence:end markers/);
    expect(await store.listSkills('s')).toHaveLength(1);
    writeFileSync(file, `${mine}\n<!-- credence:begin (x) -->\n## Learned by Credence\n<!-- credence:end -->\n`);
    const forgotten = await c.forget(skill?.id as string);
    expect(forgotten.files).toEqual(['.claude/skills/code-style/SKILL.md']);
    expect(readFileSync(file, 'utf8')).toBe(mine);
    expect(await store.listSkills('s')).toEqual([]);
  });

  it('leaves a hand-written skill on another topic alone and makes its own', async () => {
    const { root, open } = setup({ claude: true });
    mkdirSync(join(root, '.claude/skills/deploying'), { recursive: true });
    const other =
      '---\nname: deploying\ndescription: How to deploy.\n---\nDeploy with the release script on Fridays.\n';
    writeFileSync(join(root, '.claude/skills/deploying/SKILL.md'), other);
    const c = await open();
    await c.observe(camelCase);
    const report = await c.evolve();
    expect(report.skillsUpdated.map((s) => s.handWritten)).toEqual([undefined]);
    expect(report.skillsUpdated[0]?.name).not.toBe('deploying');
    expect(readFileSync(join(root, '.claude/skills/deploying/SKILL.md'), 'utf8')).toBe(other);
  });
});

describe('pattern categories', () => {
  it('carries the category of a pattern in the report, the instinct file and the skill file', async () => {
    const { root, open } = setup();
    const c = await open();
    await c.observe([
      obs('Tests run before commit', 3, 'success', 0.5),
      obs('Ran the tests before committing', 2, 'success', 0.5),
      obs('Tests were run before the commit', 1, 'success', 0.5),
      ...camelCase,
    ]);
    const report = await c.evolve();
    expect(report.newInstincts.map((i) => i.category)).toEqual(['workflow']);
    expect(report.skillsUpdated.map((s) => s.category)).toEqual(['code']);
    const instinct = readFileSync(join(root, report.newInstincts[0]?.file ?? ''), 'utf8');
    expect(instinct).toMatch(/\ncategory: workflow\n/);
    expect(readFileSync(join(root, report.skillsUpdated[0]?.file ?? ''), 'utf8')).toContain('Category: code.');
  });
});
