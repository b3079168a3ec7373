import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { storeArgs } from '../pg.js';

const bin = fileURLToPath(new URL('../../bin/credence.cjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'credence-learning-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
/** A fresh project (a git folder) with its own database. */
function project(): {
  root: string;
  run: (args: string[], input?: string) => { code: number | null; stdout: string; stderr: string };
  db: string;
} {
  const root = join(dir, `p${(n += 1)}`);
  mkdirSync(join(root, '.git'), { recursive: true });
  writeFileSync(join(root, '.git', 'config'), '[core]\n');
  const db = join(root, 'credence.db');
  return {
    root,
    db,
    run: (args, input) => {
      const r = spawnSync(process.execPath, [bin, ...storeArgs(db), '--now', '2026-02-02T09:00:00Z', ...args], {
        cwd: root,
        encoding: 'utf8',
        input,
        env: { ...process.env, HOME: dir, CREDENCE_EMBEDDINGS: '' },
      });
      return { code: r.status, stdout: r.stdout, stderr: r.stderr };
    },
  };
}

const line = (o: Record<string, unknown>) => JSON.stringify(o);
const camelCase = [
  line({
    timestamp: '2026-02-01T10:00:00Z',
    type: 'correction',
    observation: 'User asks for camelCase naming',
    confidence: 0.4,
  }),
  line({
    timestamp: '2026-02-01T14:00:00Z',
    type: 'correction',
    observation: 'Correction: snake_case → camelCase',
    confidence: 0.5,
  }),
  line({
    timestamp: '2026-02-02T09:00:00Z',
    type: 'pattern',
    observation: 'All the code uses camelCase',
    confidence: 0.6,
  }),
];
const testsBeforeCommit = [
  line({ timestamp: '2026-02-02T07:00:00Z', type: 'success', observation: 'Tests run before commit', confidence: 0.7 }),
  line({ timestamp: '2026-02-02T07:30:00Z', type: 'success', observation: 'CI green after commit', confidence: 0.7 }),
  line({
    timestamp: '2026-02-02T08:00:00Z',
    type: 'error',
    observation: 'Commit without tests turned CI red',
    confidence: 0.8,
  }),
];

describe('continuous learning through the CLI (issue 6)', () => {
  it('seed example 1: three camelCase observations become one instinct at 0.65', () => {
    const p = project();
    writeFileSync(join(p.root, 'obs.jsonl'), `${camelCase.join('\n')}\n`);
    expect(p.run(['import', 'obs.jsonl']).code).toBe(0);
    const report = JSON.parse(p.run(['evolve', '--json']).stdout);
    expect(report.newInstincts).toHaveLength(1);
    expect(report.newInstincts[0].confidence.toFixed(2)).toBe('0.65');
    expect(report.skillsUpdated).toEqual([]);
    const file = join(p.root, report.newInstincts[0].file);
    expect(readFileSync(file, 'utf8')).toMatch(/camelCase/);
    // Recall returns the instinct with its stored confidence.
    const recalled = JSON.parse(p.run(['recall', 'camelCase naming', '--json']).stdout) as {
      kind: string;
      parts: { confidence: number };
    }[];
    expect(recalled.find((r) => r.kind === 'instinct')?.parts.confidence.toFixed(2)).toBe('0.65');
  });

  it('seed example 2: tests before commit becomes a skill rule in a SKILL.md Claude Code loads', () => {
    const p = project();
    expect(p.run(['import', '-'], `${testsBeforeCommit.join('\n')}\n`).code).toBe(0);
    const report = JSON.parse(p.run(['evolve', '--json', '--skills-dir', '.claude/skills']).stdout);
    expect(report.skillsUpdated).toHaveLength(1);
    const skill = report.skillsUpdated[0];
    expect(skill.confidence).toBeGreaterThanOrEqual(0.7);
    const text = readFileSync(join(p.root, skill.file), 'utf8');
    expect(skill.file).toMatch(/^\.claude\/skills\/[a-z0-9-]+\/SKILL\.md$/);
    expect(text).toMatch(/^---\nname: [a-z0-9-]+\ndescription: .+\n---/);
  });

  it('evolve reads month-old corrections of the user beside its window (their own words, at any age)', () => {
    const p = project();
    // The seed's camelCase corrections, made a month before --now (2026-02-02T09:00Z): outside the 7-day default.
    const lastMonth = camelCase.map((l) => l.replace(/"2026-02-0[12]T/, '"2026-01-01T'));
    expect(p.run(['import', '-'], `${lastMonth.join('\n')}\n`).code).toBe(0);
    // The user's own words are read at any age inside the 90-day purge, beside the window.
    const own = JSON.parse(p.run(['evolve', '--json', '--dry-run']).stdout);
    expect(own.ownWordsRead).toEqual({ observations: 3, window: '7 days' });
    expect(own.notRead).toBeUndefined();
  });

  it("evolve says how many observations not the user's fell before its window and the --since that reads them", () => {
    const p = project();
    // The seed's camelCase lines a month before --now, as an agent's notes: read only inside the window.
    const lastMonth = camelCase.map((l) =>
      l.replace(/"2026-02-0[12]T/, '"2026-01-01T').replace(/^\{/, '{"tags":["source:agent"],'),
    );
    expect(p.run(['import', '-'], `${lastMonth.join('\n')}\n`).code).toBe(0);
    const report = JSON.parse(p.run(['evolve', '--json']).stdout);
    expect(report.observations).toBe(0);
    expect(report.newInstincts).toEqual([]);
    expect(report.notRead).toEqual({ observations: 3, window: '7 days', since: '33d' });
    const text = p.run(['evolve', '--dry-run']).stdout;
    expect(text).toContain('3 observations older than 7 days were not read; pass --since 33d to include them.');
    const wider = JSON.parse(p.run(['evolve', '--json', '--since', report.notRead.since]).stdout);
    expect(wider.observations).toBe(3);
    expect(wider.notRead).toBeUndefined();
    // One old observation beside a window that reads the others: counted alone, in the singular.
    expect(
      p.run([
        'observe',
        '--type',
        'pattern',
        '--observation',
        'Old note',
        '--tag',
        'source:agent',
        '--at',
        '2025-12-01T09:00:00Z',
      ]).code,
    ).toBe(0);
    const one = p.run(['evolve', '--dry-run', '--since', '33d']).stdout;
    expect(one).toContain('1 observation older than 33 days was not read; pass --since 64d to include it.');
  });

  it('evolve --dry-run writes nothing, and a second evolve on the same data changes nothing', () => {
    const p = project();
    p.run(['import', '-'], `${camelCase.join('\n')}\n`);
    const dry = JSON.parse(p.run(['evolve', '--dry-run', '--json']).stdout);
    expect(dry.newInstincts).toHaveLength(1);
    expect(existsSync(join(p.root, '.credence'))).toBe(false);
    expect(JSON.parse(p.run(['status', '--json']).stdout).counts.instincts).toBe(0);
    p.run(['evolve']);
    const files = () =>
      readdirSync(join(p.root, '.credence', 'instincts')).map((f) =>
        readFileSync(join(p.root, '.credence', 'instincts', f), 'utf8'),
      );
    const log = () => readFileSync(join(p.root, '.credence', 'evolution.log.jsonl'), 'utf8');
    const before = { files: files(), log: log(), status: p.run(['status', '--json']).stdout };
    const second = JSON.parse(p.run(['evolve', '--json']).stdout);
    expect(second.files.every((f: { changed: boolean }) => !f.changed)).toBe(true);
    expect({ files: files(), log: log(), status: p.run(['status', '--json']).stdout }).toEqual(before);
  });

  it('keeps a hand edit outside the section Credence owns', () => {
    const p = project();
    p.run(['import', '-'], `${camelCase.join('\n')}\n`);
    const file = join(p.root, JSON.parse(p.run(['evolve', '--json']).stdout).newInstincts[0].file);
    writeFileSync(file, `${readFileSync(file, 'utf8')}\nHand-written note: applies to TypeScript only.\n`);
    p.run(
      ['import', '-'],
      `${line({
        timestamp: '2026-02-02T08:30:00Z',
        type: 'preference',
        observation: 'Prefer camelCase for variable names',
        confidence: 0.6,
      })}\n`,
    );
    const again = JSON.parse(p.run(['evolve', '--json']).stdout);
    // The same instinct, updated in place (no duplicate): the file now lists the new evidence and keeps the hand edit.
    expect(again.newInstincts).toEqual([]);
    expect(again.updatedInstincts.map((i: { file: string }) => join(p.root, i.file))).toEqual([file]);
    expect(readFileSync(file, 'utf8')).toContain('Prefer camelCase for variable names');
    expect(readFileSync(file, 'utf8')).toContain('Hand-written note: applies to TypeScript only.');
    // Recall reads the instinct's file, hand edits included, inside the project only.
    const recalled = JSON.parse(p.run(['recall', 'hand-written note TypeScript', '--json']).stdout) as {
      kind: string;
    }[];
    expect(recalled[0]?.kind).toBe('instinct');
    writeFileSync(join(dir, 'outside.md'), 'zanzibar quokka\n');
    rmSync(file);
    symlinkSync(join(dir, 'outside.md'), file);
    // A file swapped for a link out of the project is not read: its words do not reach the instinct.
    const outside = JSON.parse(p.run(['recall', 'zanzibar quokka', '--json']).stdout) as {
      kind: string;
      parts: { termShare: number };
    }[];
    expect(outside.filter((r) => r.kind === 'instinct').every((r) => r.parts.termShare === 0)).toBe(true);
  });

  it('imports field for field, reports bad lines by number, adds nothing twice, and exports with context', () => {
    const p = project();
    const lines = [
      camelCase[0],
      '{not json',
      line({ timestamp: 'yesterday', type: 'pattern', observation: 'x', confidence: 0.5 }),
      line({ timestamp: '2026-02-01T10:00:00Z', type: 'hunch', observation: 'x', confidence: 0.5 }),
      line({ timestamp: '2026-02-01T10:00:00Z', type: 'pattern', observation: 'x', confidence: 1.5 }),
      line({ timestamp: '2026-02-01T10:00:00Z', type: 'pattern', confidence: 0.5 }),
      line({
        timestamp: '2026-02-01T11:00:00Z',
        type: 'success',
        context: { task: 'refactor', file: 'src/a.ts', phase: 'review' },
        observation: 'Refactor kept behaviour',
        evidence: ['tests green'],
        confidence: 0.6,
        tags: ['refactor'],
      }),
    ];
    const first = p.run(['import', '-', '--json'], `${lines.join('\n')}\n`);
    expect(first.code).toBe(1);
    expect(JSON.parse(first.stdout)).toMatchObject({
      inserted: 2,
      duplicates: 0,
      rejected: [{ line: 2 }, { line: 3 }, { line: 4 }, { line: 5 }, { line: 6 }],
    });
    expect(first.stderr).toMatch(/line 3: .*timestamp/);
    expect(first.stderr).toMatch(/line 4: .*type/);
    expect(first.stderr).toMatch(/line 5: .*confidence/);
    expect(first.stderr).toMatch(/line 6: .*observation/);
    expect(JSON.parse(p.run(['import', '-', '--json'], `${lines.join('\n')}\n`).stdout)).toMatchObject({
      inserted: 0,
      duplicates: 2,
    });
    const exported = p
      .run(['export'])
      .stdout.trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(exported).toHaveLength(2);
    expect(exported[0]).toMatchObject({
      timestamp: '2026-02-01T10:00:00.000Z',
      type: 'correction',
      context: {},
      observation: 'User asks for camelCase naming',
      evidence: [],
      confidence: 0.4,
      tags: [],
    });
    expect(exported[1].context).toEqual({ task: 'refactor', file: 'src/a.ts', phase: 'review' });
    // The export imports back as the same observations: nothing new.
    expect(
      JSON.parse(p.run(['import', '-', '--json'], `${exported.map((e) => JSON.stringify(e)).join('\n')}\n`).stdout),
    ).toMatchObject({ inserted: 0 });
  });

  it('never lets a secret in any field reach the store, the index, the export or the instinct files', () => {
    const p = project();
    const key = ['sk', 'ant', 'api03', 'Q1w2E3r4T5y6U7i8O9p0A1s2D3f4G5h6J7k8'].join('-');
    const pat = 'ghp_' + 'R4nd0mT0k3nV4lu3F0rT3st1ngPurp0s3s12';
    const secretLines = [0, 1, 2].map((i) =>
      line({
        timestamp: `2026-02-02T0${i + 6}:00:00Z`,
        type: 'correction',
        context: {
          task: `deploy with ANTHROPIC_API_KEY=${key}`,
          file: `https://me:${pat}@github.com/o/r`,
          phase: 'implementation',
        },
        observation: `User asks for camelCase naming, token ${pat}`,
        evidence: [`export ANTHROPIC_API_KEY=${key}`],
        confidence: 0.6,
        tags: [`auth=${pat}`],
      }),
    );
    p.run(['import', '-'], `${secretLines.join('\n')}\n`);
    p.run(['evolve']);
    const everywhere = [
      p.run(['export']).stdout,
      p.run(['recall', 'camelCase naming token', '--json']).stdout,
      ...readdirSync(join(p.root, '.credence'), { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => readFileSync(join(e.parentPath, e.name), 'utf8')),
    ].join('\n');
    expect(everywhere).not.toContain(key);
    expect(everywhere).not.toContain(pat);
    // Every stored row: on SQLite every table read raw, full-text index tables included; on
    // PostgreSQL (CREDENCE_E2E_STORE) the whole store as `credence dump` writes it.
    let dump: string;
    if (process.env.CREDENCE_E2E_STORE === 'postgres') dump = p.run(['dump', '-']).stdout;
    else {
      const raw = new Database(p.db, { readonly: true });
      dump = raw
        .prepare(`SELECT name FROM sqlite_master WHERE type IN ('table') AND name NOT LIKE 'sqlite_%'`)
        .all()
        .map((r) => JSON.stringify(raw.prepare(`SELECT * FROM "${(r as { name: string }).name}"`).all()))
        .join('\n');
      raw.close();
    }
    // What was stored in place of the secrets is there: the dump is the real store.
    expect(dump).toContain('[REDACTED:');
    expect(dump).not.toContain(key);
    expect(dump).not.toContain(pat);
  });

  it('forget removes an observation and what was derived only from it, files included', () => {
    const p = project();
    p.run(['import', '-'], `${camelCase.join('\n')}\n`);
    const report = JSON.parse(p.run(['evolve', '--json']).stdout);
    const file = join(p.root, report.newInstincts[0].file);
    const ids = p
      .run(['export'])
      .stdout.trim()
      .split('\n')
      .map((l) => JSON.parse(l).id as string);
    for (const [i, id] of ids.entries()) {
      const r = JSON.parse(p.run(['forget', id, '--json']).stdout);
      if (i < ids.length - 1) expect(r.derivedUpdated).toEqual([report.newInstincts[0].id]);
      else expect(r.derivedRemoved).toEqual([report.newInstincts[0].id]);
    }
    expect(existsSync(file)).toBe(false);
    expect(JSON.parse(p.run(['status', '--json']).stdout).counts).toMatchObject({ observations: 0, instincts: 0 });
    expect(p.run(['forget', 'no-such-id']).code).toBe(1);
  });

  it('feedback moves an instinct once per event id, and metrics count it all', () => {
    const p = project();
    p.run(['import', '-'], `${camelCase.join('\n')}\n`);
    const id = JSON.parse(p.run(['evolve', '--json']).stdout).newInstincts[0].id as string;
    expect(p.run(['feedback', id, '--accepted', '--event', 'ev-1']).code).toBe(0);
    expect(p.run(['feedback', id, '--accepted', '--event', 'ev-1']).stdout).toMatch(/already recorded/);
    const after = JSON.parse(p.run(['evolve', '--json']).stdout);
    // 0.65 + 0.3 explicit feedback = 0.95: the pattern is now a skill (a permanent rule), its instinct promoted.
    expect(after.skillsUpdated[0].confidence.toFixed(2)).toBe('0.95');
    expect(after.skillsUpdated[0].promotedFrom).toBeDefined();
    const search = JSON.parse(p.run(['recall', 'camelCase', '--json']).stdout) as { shownId: string }[];
    p.run(['feedback', search[0]?.shownId ?? '', '--rejected']);
    const m = JSON.parse(p.run(['metrics', '--json']).stdout);
    expect(m.observations.byType).toMatchObject({ correction: 2, pattern: 1 });
    expect(m.instincts).toMatchObject({ total: 1, promoted: 1 });
    expect(m.conversionRate).toBe(1);
    expect(m.suggestions.rejected).toBe(1);
    expect(m.suggestions.shown).toBeGreaterThan(0);
  });
});
