import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { codeOf } from '../../../test/helpers.js';
import { slugify } from '../../core/learning/slug.js';
import { FileWrites } from './atomic-files.js';
import {
  appendEvolutionLog,
  readInstinctFile,
  readSkillFile,
  removeInstinctFile,
  removeSkillFile,
  renderInstinct,
  renderSkill,
  skillFileLayout,
  writeInstinctFile,
  writeSkillFile,
  type InstinctFileData,
  type SkillFileData,
} from './skill-files.js';

const AT = Date.parse('2026-02-02T09:00:00Z');
const DAY = 86_400_000;

const camelCase: InstinctFileData = {
  slug: 'use-camelcase-for-variables',
  text: 'Use camelCase for variables',
  confidence: 0.65,
  band: 'probable',
  evidence: [
    { id: 'obs-3', text: 'All the code uses camelCase', at: AT },
    { id: 'obs-1', text: 'Asked again for camelCase', at: AT - 2 * DAY },
    { id: 'obs-2', text: 'Correction: snake_case → camelCase', at: AT - DAY },
  ],
  updatedAt: AT,
};

const testsBeforeCommit: SkillFileData = {
  name: 'session-recovery',
  description: 'Workflow rules learned from commits and CI runs. Use when committing.',
  rules: [{ text: 'Always run the tests before a commit', confidence: 0.8, addedAt: AT }],
  confidence: 0.8,
  updatedAt: AT,
};

let base: string;
let root: string;

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'credence-skill-files-')));
  root = join(base, 'project');
  mkdirSync(root);
  mkdirSync(join(base, 'outside'));
});

afterEach(() => {
  rmSync(base, { recursive: true, force: true });
});

/** The front matter of a Markdown file as key → raw value (enough for these flat test files). */
function frontMatter(text: string): Map<string, string> {
  const match = /^---\n([\s\S]*?)\n---\n/.exec(text);
  if (match === null) throw new Error(`no front matter in:\n${text}`);
  const map = new Map<string, string>();
  for (const line of (match[1] ?? '').split('\n')) {
    const kv = /^([\w-]+):\s?(.*)$/.exec(line);
    if (kv !== null) map.set(kv[1] ?? '', kv[2] ?? '');
  }
  return map;
}

describe('skillFileLayout', () => {
  it('puts everything under .credence by default, or under the folders given', () => {
    expect(skillFileLayout({ root })).toEqual({
      root,
      instinctsDir: '.credence/instincts',
      skillsDir: '.credence/skills',
      logFile: '.credence/evolution.log.jsonl',
    });
    expect(skillFileLayout({ root, dir: 'learn/', skillsDir: './.claude//skills' })).toEqual({
      root,
      instinctsDir: 'learn/instincts',
      skillsDir: '.claude/skills',
      logFile: 'learn/evolution.log.jsonl',
    });
    expect(skillFileLayout({ root, skillsDir: join(root, '.claude', 'skills') }).skillsDir).toBe('.claude/skills');
  });

  it('refuses .. in a folder, an absolute folder outside the root and the root itself', () => {
    expect(codeOf(() => skillFileLayout({ root, skillsDir: '../skills' }))).toBe('PATH_OUTSIDE_ROOT');
    expect(codeOf(() => skillFileLayout({ root, dir: 'a/../../b' }))).toBe('PATH_OUTSIDE_ROOT');
    expect(codeOf(() => skillFileLayout({ root, instinctsDir: 'a\\..\\b' }))).toBe('PATH_OUTSIDE_ROOT');
    expect(codeOf(() => skillFileLayout({ root, skillsDir: join(base, 'outside') }))).toBe('PATH_OUTSIDE_ROOT');
    expect(codeOf(() => skillFileLayout({ root, skillsDir: 'C:\\skills' }))).toBe('PATH_OUTSIDE_ROOT');
    expect(codeOf(() => skillFileLayout({ root, skillsDir: '.' }))).toBe('INVALID_INPUT');
    expect(codeOf(() => skillFileLayout({ root, skillsDir: '' }))).toBe('INVALID_INPUT');
  });
});

describe('renderSkill', () => {
  it('writes the front matter Claude Code loads: name and a one-line description', () => {
    const text = renderSkill(testsBeforeCommit);
    expect(
      text.startsWith(
        '---\nname: session-recovery\n' +
          'description: "Workflow rules learned from commits and CI runs. Use when committing."\n---\n',
      ),
    ).toBe(true);
    expect(text).toContain('<!-- credence:begin');
    expect(text).toContain('- Always run the tests before a commit (confidence 0.80, added 2026-02-02)');
    expect(text).toContain('Confidence: 0.80 (certain: apply).');
    expect(text.trimEnd().endsWith('<!-- credence:end -->')).toBe(true);
  });

  it('escapes the description: quotes, colons, hashes and newlines stay one double-quoted line', () => {
    const description = 'Run tests: before "commit" # always\nthen push \\ deploy\ttoo';
    const text = renderSkill({ ...testsBeforeCommit, description });
    const line = text.split('\n').find((l) => l.startsWith('description:'));
    expect(line).toBe('description: "Run tests: before \\"commit\\" # always then push \\\\ deploy too"');
    // A YAML double-quoted scalar of this form is a JSON string: it reads back as the one-line text.
    expect(JSON.parse(line?.slice('description: '.length) ?? '')).toBe(
      'Run tests: before "commit" # always then push \\ deploy too',
    );
  });

  it('cuts the description to 1024 characters and neutralises XML tags', () => {
    const text = renderSkill({ ...testsBeforeCommit, description: `<rule>${'x'.repeat(2000)}</rule>` });
    const value = JSON.parse(frontMatter(text).get('description') ?? '') as string;
    expect(Array.from(value).length).toBe(1024);
    expect(value.startsWith('‹rule›xxx')).toBe(true);
    expect(value.endsWith('…')).toBe(true);
  });

  it('refuses an invalid name, an empty description and a bad confidence', () => {
    for (const name of ['Session-Recovery', 'a--b', '-a', 'x'.repeat(65), 'claude-rules', '../evil']) {
      expect(codeOf(() => renderSkill({ ...testsBeforeCommit, name }))).toBe('INVALID_INPUT');
    }
    expect(codeOf(() => renderSkill({ ...testsBeforeCommit, description: ' \n ' }))).toBe('INVALID_INPUT');
    expect(codeOf(() => renderSkill({ ...testsBeforeCommit, confidence: 1.2 }))).toBe('INVALID_INPUT');
    expect(codeOf(() => renderSkill({ ...testsBeforeCommit, updatedAt: Number.NaN }))).toBe('INVALID_INPUT');
  });

  it('names a skill made by slugify validly, quoting a name YAML would read as something else', () => {
    expect(frontMatter(renderSkill({ ...testsBeforeCommit, name: slugify('Tests before commit!') })).get('name')).toBe(
      'tests-before-commit',
    );
    expect(frontMatter(renderSkill({ ...testsBeforeCommit, name: 'null' })).get('name')).toBe('"null"');
    expect(frontMatter(renderSkill({ ...testsBeforeCommit, name: '1234' })).get('name')).toBe('"1234"');
  });

  it('redacts a secret that reached a rule', () => {
    const text = renderSkill({
      ...testsBeforeCommit,
      rules: [{ text: 'export GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789', confidence: 0.8, addedAt: AT }],
    });
    expect(text).not.toContain('ghp_abcdefghijklmnopqrstuvwxyz0123456789');
    expect(text).toContain('[REDACTED:');
  });
});

describe('renderInstinct', () => {
  it('writes status front matter, the text, the confidence and the evidence oldest first', () => {
    const text = renderInstinct(camelCase);
    const fm = frontMatter(text);
    expect(fm.get('confidence')).toBe('0.65');
    expect(fm.get('band')).toBe('probable');
    expect(fm.get('status')).toBe('active');
    expect(fm.get('updated')).toBe('"2026-02-02T09:00:00.000Z"');
    expect(fm.has('skill')).toBe(false);
    expect(text).toContain('# Use camelCase for variables');
    const evidence = text.split('\n').filter((line) => line.startsWith('- '));
    expect(evidence).toEqual([
      '- Asked again for camelCase (2026-01-31T09:00:00.000Z, `obs-1`)',
      '- Correction: snake_case → camelCase (2026-02-01T09:00:00.000Z, `obs-2`)',
      '- All the code uses camelCase (2026-02-02T09:00:00.000Z, `obs-3`)',
    ]);
  });

  it('links a promoted instinct to its skill, relative to the real folders', () => {
    const promoted = { ...camelCase, promotedTo: 'naming-style' };
    const text = renderInstinct(promoted);
    expect(frontMatter(text).get('status')).toBe('promoted');
    expect(frontMatter(text).get('skill')).toBe('naming-style');
    expect(text).toContain('Promoted to the skill [naming-style](../skills/naming-style/SKILL.md).');
    expect(renderInstinct(promoted, { skillsDir: '.claude/skills' })).toContain(
      '[naming-style](../../.claude/skills/naming-style/SKILL.md)',
    );
    expect(codeOf(() => renderInstinct({ ...camelCase, promotedTo: 'Not A Name' }))).toBe('INVALID_INPUT');
  });
});

describe('writeSkillFile and writeInstinctFile', () => {
  it('creates the folders and files inside the root, atomically (no temporary file left)', () => {
    expect(writeSkillFile({ root }, testsBeforeCommit)).toEqual({
      path: '.credence/skills/session-recovery/SKILL.md',
      changed: true,
    });
    expect(writeInstinctFile({ root }, camelCase)).toEqual({
      path: '.credence/instincts/use-camelcase-for-variables.md',
      changed: true,
    });
    expect(readFileSync(join(root, '.credence/skills/session-recovery/SKILL.md'), 'utf8')).toBe(
      renderSkill(testsBeforeCommit),
    );
    expect(readFileSync(join(root, '.credence/instincts/use-camelcase-for-variables.md'), 'utf8')).toBe(
      renderInstinct(camelCase),
    );
    expect(readdirSync(join(root, '.credence/skills/session-recovery'))).toEqual(['SKILL.md']);
    expect(readdirSync(join(root, '.credence/instincts'))).toEqual(['use-camelcase-for-variables.md']);
  });

  it('keeps hand edits outside the owned section and updates the owned part', () => {
    const layout = { root, skillsDir: '.claude/skills' };
    const { path } = writeSkillFile(layout, testsBeforeCommit);
    const file = join(root, path);
    const original = readFileSync(file, 'utf8');
    const edited = original
      .replace('description:', 'allowed-tools: Read Grep\n# a comment the user wrote\ndescription:')
      .replace('<!-- credence:begin', 'My own notes before.\n\n<!-- credence:begin')
      .concat('\n## My section\n\nKeep this, please.\n');
    writeFileSync(file, edited);

    const updated: SkillFileData = {
      ...testsBeforeCommit,
      confidence: 0.86,
      rules: [
        ...testsBeforeCommit.rules,
        { text: 'Wait for CI to go green before merging', confidence: 0.75, addedAt: AT + DAY },
      ],
      updatedAt: AT + DAY,
    };
    expect(writeSkillFile(layout, updated)).toEqual({ path, changed: true });
    const after = readFileSync(file, 'utf8');
    expect(after).toContain('allowed-tools: Read Grep\n# a comment the user wrote\n');
    expect(after).toContain('My own notes before.\n\n<!-- credence:begin');
    expect(after.endsWith('<!-- credence:end -->\n\n## My section\n\nKeep this, please.\n')).toBe(true);
    expect(after).toContain('Confidence: 0.86 (certain: apply).');
    expect(after).toContain('- Wait for CI to go green before merging (confidence 0.75, added 2026-02-03)');
    expect(after).not.toContain('Confidence: 0.80');
    expect(frontMatter(after).get('name')).toBe('session-recovery');
    expect(after.match(/credence:begin/g)).toHaveLength(1);
  });

  it('keeps a description edited by hand in a file it made, and updates one it finds as it wrote it', () => {
    const { path } = writeSkillFile({ root }, testsBeforeCommit);
    const file = join(root, path);
    const described = (text: string) => ({ ...testsBeforeCommit, description: text, updatedAt: AT + DAY });
    // Untouched: Credence's new description goes into the front matter and its section.
    expect(writeSkillFile({ root }, described('Rules for committing.')).changed).toBe(true);
    expect(frontMatter(readFileSync(file, 'utf8')).get('description')).toBe('"Rules for committing."');
    const edited = readFileSync(file, 'utf8').replace(/^description: .*$/m, 'description: Our commit policy');
    writeFileSync(file, edited);
    // Edited: the writer's front matter stays, byte for byte, whatever Credence would write.
    expect(writeSkillFile({ root }, described('Rules for committing.'))).toEqual({ path, changed: false });
    expect(writeSkillFile({ root }, described('Rules for commits and CI.')).changed).toBe(true);
    const after = readFileSync(file, 'utf8');
    expect(after.split('\n').slice(0, 4)).toEqual(edited.split('\n').slice(0, 4));
    expect(after).toContain('\nRules for commits and CI.\n');
  });

  it('keeps an instinct file hand edit when its confidence changes, and its unknown front-matter keys', () => {
    const { path } = writeInstinctFile({ root }, camelCase);
    const file = join(root, path);
    writeFileSync(
      file,
      readFileSync(file, 'utf8')
        .replace('status: active', 'status: active\nowner: alice')
        .concat('Note: only for TypeScript files.\n'),
    );
    expect(writeInstinctFile({ root }, { ...camelCase, confidence: 0.68, updatedAt: AT + DAY }).changed).toBe(true);
    const after = readFileSync(file, 'utf8');
    expect(frontMatter(after).get('confidence')).toBe('0.68');
    expect(frontMatter(after).get('owner')).toBe('alice');
    expect(frontMatter(after).get('updated')).toBe('"2026-02-03T09:00:00.000Z"');
    expect(after.endsWith('<!-- credence:end -->\nNote: only for TypeScript files.\n')).toBe(true);
  });

  it('leaves the file untouched (same bytes, same mtime) when nothing it owns changed', () => {
    const { path } = writeSkillFile({ root }, testsBeforeCommit);
    const file = join(root, path);
    writeFileSync(file, `${readFileSync(file, 'utf8')}\nhand edit\n`);
    const old = new Date('2020-01-01T00:00:00Z');
    utimesSync(file, old, old);
    const before = readFileSync(file, 'utf8');
    // Same data; then the same data with only a later time: neither is a change.
    expect(writeSkillFile({ root }, testsBeforeCommit)).toEqual({ path, changed: false });
    expect(writeSkillFile({ root }, { ...testsBeforeCommit, updatedAt: AT + 7 * DAY })).toEqual({
      path,
      changed: false,
    });
    expect(statSync(file).mtimeMs).toBe(old.getTime());
    expect(readFileSync(file, 'utf8')).toBe(before);

    const instinct = writeInstinctFile({ root }, camelCase);
    const instinctFile = join(root, instinct.path);
    utimesSync(instinctFile, old, old);
    expect(
      writeInstinctFile({ root }, { ...camelCase, evidence: [...camelCase.evidence].reverse(), updatedAt: AT + DAY })
        .changed,
    ).toBe(false);
    expect(statSync(instinctFile).mtimeMs).toBe(old.getTime());
  });

  it('marks an instinct promoted with a link to the skill file, and unmarks it', () => {
    const layout = { root, skillsDir: '.claude/skills' };
    writeSkillFile(layout, { ...testsBeforeCommit, name: 'naming-style' });
    const { path } = writeInstinctFile(layout, { ...camelCase, promotedTo: 'naming-style' });
    const text = readFileSync(join(root, path), 'utf8');
    const link = /\[naming-style\]\(([^)]+)\)/.exec(text)?.[1];
    expect(link).toBe('../../.claude/skills/naming-style/SKILL.md');
    expect(existsSync(join(root, '.credence/instincts', link ?? ''))).toBe(true);
    expect(frontMatter(text).get('status')).toBe('promoted');

    writeInstinctFile(layout, camelCase);
    const back = readFileSync(join(root, path), 'utf8');
    expect(frontMatter(back).get('status')).toBe('active');
    expect(frontMatter(back).has('skill')).toBe(false);
    expect(back).not.toContain('Promoted to');
  });

  it("appends its rules to a hand-written SKILL.md as marked additions, keeping the writer's text", () => {
    mkdirSync(join(root, '.credence/skills/session-recovery'), { recursive: true });
    const file = join(root, '.credence/skills/session-recovery/SKILL.md');
    const mine =
      '---\nname: session-recovery\ndescription: mine\nlicense: MIT\n---\n# Mine\n\nHand-written guidance.\n';
    writeFileSync(file, mine);
    expect(writeSkillFile({ root }, testsBeforeCommit).changed).toBe(true);
    const text = readFileSync(file, 'utf8');
    // The writer's front matter and body, byte for byte, then Credence's marked section.
    expect(text.startsWith(`${mine}\n<!-- credence:begin`)).toBe(true);
    const section = text.slice(text.indexOf('<!-- credence:begin'));
    expect(section).toContain('## Learned by Credence');
    expect(section).toContain('- Always run the tests before a commit');
    expect(section).not.toContain('# Session recovery');
    expect(writeSkillFile({ root }, testsBeforeCommit).changed).toBe(false);
    // A later rule rewrites the section only; the writer's text stays as it was.
    const rule = { text: 'Push after the CI is green', confidence: 0.8, addedAt: AT + DAY };
    writeSkillFile({ root }, { ...testsBeforeCommit, rules: [...testsBeforeCommit.rules, rule] });
    const again = readFileSync(file, 'utf8');
    expect(again.startsWith(`${mine}\n<!-- credence:begin`)).toBe(true);
    expect(again).toContain('## Learned by Credence');
    expect(again).toContain('- Push after the CI is green');
  });

  it('adds name and description to a hand-written SKILL.md that has neither, keeping its other keys', () => {
    mkdirSync(join(root, '.credence/skills/session-recovery'), { recursive: true });
    const file = join(root, '.credence/skills/session-recovery/SKILL.md');
    writeFileSync(file, '---\nlicense: MIT\n---\nHand-written guidance.\n');
    writeSkillFile({ root }, testsBeforeCommit);
    const text = readFileSync(file, 'utf8');
    expect(frontMatter(text).get('name')).toBe('session-recovery');
    expect(frontMatter(text).get('license')).toBe('MIT');
    expect(text).toContain('Hand-written guidance.\n\n<!-- credence:begin');
  });

  it('keeps CRLF line endings of a file edited on Windows', () => {
    const { path } = writeInstinctFile({ root }, camelCase);
    const file = join(root, path);
    writeFileSync(file, readFileSync(file, 'utf8').replace(/\n/g, '\r\n'));
    expect(writeInstinctFile({ root }, camelCase).changed).toBe(false);
    writeInstinctFile({ root }, { ...camelCase, confidence: 0.6 });
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('confidence: 0.60\r\n');
    expect(text.replace(/\r\n/g, '')).not.toContain('\n');
  });

  it('refuses to guess when the section markers are broken', () => {
    const { path } = writeInstinctFile({ root }, camelCase);
    const file = join(root, path);
    writeFileSync(file, readFileSync(file, 'utf8').replace('<!-- credence:end -->', ''));
    const before = readFileSync(file, 'utf8');
    expect(codeOf(() => writeInstinctFile({ root }, { ...camelCase, confidence: 0.6 }))).toBe('INVALID_INPUT');
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it('refuses a skills folder that is a symbolic link pointing outside the root', () => {
    mkdirSync(join(root, '.claude'));
    symlinkSync(join(base, 'outside'), join(root, '.claude', 'skills'));
    expect(codeOf(() => writeSkillFile({ root, skillsDir: '.claude/skills' }, testsBeforeCommit))).toBe(
      'PATH_OUTSIDE_ROOT',
    );
    expect(codeOf(() => readSkillFile({ root, skillsDir: '.claude/skills' }, 'session-recovery'))).toBe(
      'PATH_OUTSIDE_ROOT',
    );
    expect(readdirSync(join(base, 'outside'))).toEqual([]);
  });

  it('refuses a file that is a symbolic link pointing outside the root, and writes through one inside', () => {
    writeFileSync(join(base, 'outside', 'target.md'), 'outside\n');
    mkdirSync(join(root, '.credence/instincts'), { recursive: true });
    symlinkSync(join(base, 'outside', 'target.md'), join(root, '.credence/instincts/use-camelcase-for-variables.md'));
    expect(codeOf(() => writeInstinctFile({ root }, camelCase))).toBe('PATH_OUTSIDE_ROOT');
    expect(readFileSync(join(base, 'outside', 'target.md'), 'utf8')).toBe('outside\n');

    mkdirSync(join(root, 'docs'));
    writeFileSync(join(root, 'docs', 'mine.md'), 'hand\n');
    symlinkSync(join(root, 'docs', 'mine.md'), join(root, '.credence/instincts/linked.md'));
    expect(writeInstinctFile({ root }, { ...camelCase, slug: 'linked' }).changed).toBe(true);
    expect(lstatSync(join(root, '.credence/instincts/linked.md')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(root, 'docs', 'mine.md'), 'utf8')).toContain('hand\n\n<!-- credence:begin');
  });

  it('refuses .. in a folder before touching the disk', () => {
    expect(codeOf(() => writeSkillFile({ root, skillsDir: '../outside' }, testsBeforeCommit))).toBe(
      'PATH_OUTSIDE_ROOT',
    );
    expect(codeOf(() => writeInstinctFile({ root, dir: '.credence/../../outside' }, camelCase))).toBe(
      'PATH_OUTSIDE_ROOT',
    );
    expect(
      codeOf(() =>
        appendEvolutionLog(
          { root, logFile: '../outside/log.jsonl' },
          { scope: 'p', at: AT, kind: 'x', id: 'y', detail: '' },
        ),
      ),
    ).toBe('PATH_OUTSIDE_ROOT');
    expect(readdirSync(join(base, 'outside'))).toEqual([]);
  });

  it('refuses an invalid slug, which could otherwise name a path', () => {
    expect(codeOf(() => writeInstinctFile({ root }, { ...camelCase, slug: '../../outside/x' }))).toBe('INVALID_INPUT');
    expect(codeOf(() => readInstinctFile({ root }, '../x'))).toBe('INVALID_INPUT');
  });
});

describe('reading and removing', () => {
  it('reads a skill and an instinct back inside the root', () => {
    writeSkillFile({ root }, testsBeforeCommit);
    writeInstinctFile({ root }, camelCase);
    expect(readSkillFile({ root }, 'session-recovery')).toBe(renderSkill(testsBeforeCommit));
    expect(readInstinctFile({ root }, camelCase.slug)).toBe(renderInstinct(camelCase));
    expect(codeOf(() => readSkillFile({ root }, 'missing'))).toBe('NOT_FOUND');
  });

  it('removes an instinct file (for forget) and says when there was none', () => {
    const { path } = writeInstinctFile({ root }, camelCase);
    expect(removeInstinctFile({ root }, camelCase.slug)).toEqual({ path, removed: true });
    expect(existsSync(join(root, path))).toBe(false);
    expect(removeInstinctFile({ root }, camelCase.slug)).toEqual({ path, removed: false });
    expect(removeInstinctFile({ root, dir: 'nothing-here' }, camelCase.slug).removed).toBe(false);
  });

  it('removes a link in the instincts folder, never what it points to', () => {
    writeFileSync(join(base, 'outside', 'keep.md'), 'keep\n');
    mkdirSync(join(root, '.credence/instincts'), { recursive: true });
    symlinkSync(join(base, 'outside', 'keep.md'), join(root, '.credence/instincts/x.md'));
    expect(removeInstinctFile({ root }, 'x').removed).toBe(true);
    expect(readFileSync(join(base, 'outside', 'keep.md'), 'utf8')).toBe('keep\n');
  });

  it('refuses to remove through an instincts folder linked outside the root', () => {
    writeFileSync(join(base, 'outside', 'x.md'), 'keep\n');
    mkdirSync(join(root, '.credence'));
    symlinkSync(join(base, 'outside'), join(root, '.credence', 'instincts'));
    expect(codeOf(() => removeInstinctFile({ root }, 'x'))).toBe('PATH_OUTSIDE_ROOT');
    expect(existsSync(join(base, 'outside', 'x.md'))).toBe(true);
  });

  it('removes a skill file and its folder when left empty', () => {
    const { path } = writeSkillFile({ root }, testsBeforeCommit);
    expect(removeSkillFile({ root }, 'session-recovery')).toEqual({ path, removed: true });
    expect(existsSync(join(root, '.credence/skills/session-recovery'))).toBe(false);
  });
});

describe('appendEvolutionLog', () => {
  it('appends one JSON line per entry, with its scope and the time as ISO 8601', () => {
    appendEvolutionLog(
      { root },
      {
        scope: 'p',
        at: AT,
        kind: 'instinct-created',
        id: 'use-camelcase-for-variables',
        detail: 'confidence 0.65\nfrom 3 observations',
      },
    );
    appendEvolutionLog(
      { root },
      { scope: 'p', at: AT + 1000, kind: 'skill-rule-added', id: 'session-recovery', detail: 'password=hunter2secret' },
    );
    const lines = readFileSync(join(root, '.credence/evolution.log.jsonl'), 'utf8').split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe('');
    expect(JSON.parse(lines[0] ?? '')).toEqual({
      scope: 'p',
      at: '2026-02-02T09:00:00.000Z',
      kind: 'instinct-created',
      id: 'use-camelcase-for-variables',
      detail: 'confidence 0.65\nfrom 3 observations',
    });
    const second = JSON.parse(lines[1] ?? '') as { detail: string };
    expect(second.detail).not.toContain('hunter2secret');
  });

  it('refuses a bad entry and a log that is a link out of the root', () => {
    expect(
      codeOf(() => appendEvolutionLog({ root }, { scope: 'p', at: Number.NaN, kind: 'x', id: 'y', detail: '' })),
    ).toBe('INVALID_INPUT');
    expect(codeOf(() => appendEvolutionLog({ root }, { scope: 'p', at: AT, kind: '', id: 'y', detail: '' }))).toBe(
      'INVALID_INPUT',
    );
    expect(codeOf(() => appendEvolutionLog({ root }, { scope: '', at: AT, kind: 'x', id: 'y', detail: '' }))).toBe(
      'INVALID_INPUT',
    );
    writeFileSync(join(base, 'outside', 'log.jsonl'), '');
    symlinkSync(join(base, 'outside', 'log.jsonl'), join(root, 'log.jsonl'));
    expect(
      codeOf(() =>
        appendEvolutionLog({ root, logFile: 'log.jsonl' }, { scope: 'p', at: AT, kind: 'x', id: 'y', detail: '' }),
      ),
    ).toBe('PATH_OUTSIDE_ROOT');
    expect(readFileSync(join(base, 'outside', 'log.jsonl'), 'utf8')).toBe('');
  });
});

describe('files written together (FileWrites)', () => {
  /** Every file under `dir` with its text, paths relative to it. */
  const tree = (dir: string): Record<string, string> =>
    Object.fromEntries(
      (readdirSync(dir, { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
        .filter((e) => e.isFile())
        .map((e) => {
          const path = join(e.parentPath, e.name);
          return [path.slice(dir.length + 1), readFileSync(path, 'utf8')];
        }),
    );

  it('leaves the same files as writing each at once, a later write or removal seeing the pending ones', async () => {
    const [once, together] = [join(base, 'once'), join(base, 'together')];
    const files = new FileWrites();
    const handEdited = `${renderSkill(testsBeforeCommit)}\nA line of my own.\n`;
    const results = [once, together].map((dir) => {
      mkdirSync(join(dir, '.credence/skills/session-recovery'), { recursive: true });
      writeFileSync(join(dir, '.credence/skills/session-recovery/SKILL.md'), handEdited);
      const layout = dir === once ? { root: dir } : { root: dir, files };
      const other = { ...camelCase, slug: 'other', text: 'Another habit' };
      const moreRules = {
        ...testsBeforeCommit,
        rules: [...testsBeforeCommit.rules, { text: 'Squash before merging', confidence: 0.8, addedAt: AT }],
      };
      return [
        writeSkillFile(layout, moreRules),
        writeInstinctFile(layout, camelCase),
        writeInstinctFile(layout, { ...camelCase, confidence: 0.66 }),
        writeInstinctFile(layout, camelCase),
        writeInstinctFile(layout, other),
        removeInstinctFile(layout, 'other'),
        writeSkillFile(layout, { ...testsBeforeCommit, name: 'gone' }),
        removeSkillFile(layout, 'gone'),
        writeSkillFile(layout, moreRules),
      ];
    });
    expect(results[1]).toEqual(results[0]);
    // Nothing is in place before the commit: the hand-edited file is as it was, the new ones are not there.
    expect(readFileSync(join(together, '.credence/skills/session-recovery/SKILL.md'), 'utf8')).toBe(handEdited);
    expect(existsSync(join(together, '.credence/instincts/use-camelcase-for-variables.md'))).toBe(false);
    await files.commit();
    expect(tree(together)).toEqual(tree(once));
    expect(Object.keys(tree(together)).sort()).toEqual([
      '.credence/instincts/use-camelcase-for-variables.md',
      '.credence/skills/session-recovery/SKILL.md',
    ]);
    await files.commit();
    expect(tree(together)).toEqual(tree(once));
  });

  it.skipIf(!existsSync('/proc/self/fd'))('holds no descriptor open between a write and the commit', async () => {
    const layout = { root, files: new FileWrites() };
    const open = () => readdirSync('/proc/self/fd').length;
    const before = open();
    for (let i = 0; i < 40; i += 1) writeSkillFile(layout, { ...testsBeforeCommit, name: `skill-${i}` });
    expect(open()).toBe(before);
    await layout.files.commit();
    expect(readdirSync(join(root, '.credence/skills')).length).toBe(40);
    expect(readdirSync(join(root, '.credence/skills/skill-39'))).toEqual(['SKILL.md']);
  });

  it('keeps the mode of the file it replaces, and a discarded run leaves no temp file', async () => {
    const layout = { root, files: new FileWrites() };
    writeSkillFile({ root }, testsBeforeCommit);
    const file = join(root, '.credence/skills/session-recovery/SKILL.md');
    chmodSync(file, 0o600);
    writeSkillFile(layout, { ...testsBeforeCommit, confidence: 0.9 });
    await layout.files.commit();
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toContain('0.90');
    writeSkillFile(layout, { ...testsBeforeCommit, confidence: 0.5 });
    layout.files.discard();
    await layout.files.commit();
    expect(readFileSync(file, 'utf8')).toContain('0.90');
    expect(readdirSync(join(root, '.credence/skills/session-recovery'))).toEqual(['SKILL.md']);
  });
});
