import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeArgs } from '../pg.js';

const bin = fileURLToPath(new URL('../../bin/credence.cjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'credence-recall-'));
const project = join(dir, 'project');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(() => {
  mkdirSync(join(project, '.git'), { recursive: true });
  writeFileSync(join(project, '.git', 'config'), '[core]\n');
  writeFileSync(join(project, 'path'), 'the JWT refresh code lives here\n');
  mkdirSync(join(project, 'docs'));
  writeFileSync(
    join(project, 'docs', 'auth.md'),
    'Refresh tokens rotate on every use; access tokens last fifteen minutes.\n',
  );
  writeFileSync(join(dir, 'outside-secret.txt'), 'not yours\n');
  symlinkSync(join(dir, 'outside-secret.txt'), join(project, 'docs', 'link.txt'));
});

function credence(args: string[], input?: string, options: { db?: string; scope?: string[] } = {}) {
  const r = spawnSync(
    process.execPath,
    [bin, ...storeArgs(join(dir, options.db ?? 'recall.db')), ...(options.scope ?? []), ...args],
    {
      cwd: project,
      encoding: 'utf8',
      input,
      env: { ...process.env, HOME: dir, CREDENCE_EMBEDDINGS: '' },
    },
  );
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('remember and recall (issue 5)', () => {
  it("prints the seed's line from a real remember then recall", () => {
    expect(
      credence([
        'remember',
        '--category',
        'decision',
        '--title',
        'JWT token refresh flow',
        '--tags',
        'auth,jwt',
        '--path',
        'path',
        'Access tokens are refreshed by the auth middleware five minutes before they expire.',
      ]).code,
    ).toBe(0);
    credence([
      'remember',
      '--title',
      'Session storage',
      '--tags',
      'auth,redis',
      'Sessions live in Redis with a 24 hour time to live.',
    ]);
    credence([
      'remember',
      '--title',
      'CI pipeline',
      '--tags',
      'ci',
      'Lint, unit tests and the end-to-end suite run on every push.',
    ]);
    const r = credence(['recall', 'how do we refresh JWT tokens here?']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toBe('<memory-context source="credence">');
    // The seed's line, with the memory's date and its text around the query's words (issue 23).
    expect(lines[1]).toMatch(/^- \[DECISION\] JWT token refresh flow, \d{4}-\d\d-\d\d: Access tokens are /);
    expect(lines[1]).toContain(
      ': Access tokens are refreshed by the auth middleware five minutes before they expire. ' +
        '-> path #tags:auth,jwt [confidence:high]',
    );
    // The block, then why its lines carry no learned probability (docs/cli.md): this store has no recall outcome.
    expect(lines.at(-2)).toBe('</memory-context>');
    expect(lines.at(-1)).toBe('no learned probability yet: 0 recall outcomes of the 30 a learned probability needs');
    expect(lines.filter((l) => l.includes('[confidence:high]'))).toHaveLength(1);
  });

  it('gives no "high" to a query that no memory answers', () => {
    const results = JSON.parse(
      credence(['recall', 'banana smoothie recipe with oat milk', '--format', 'json']).stdout,
    ) as { label: string }[];
    expect(results.every((r) => r.label !== 'high')).toBe(true);
  });

  it('prints every result with the parts of its score in JSON', () => {
    const [top] = JSON.parse(credence(['recall', 'JWT refresh', '--json']).stdout);
    expect(Object.keys(top)).toEqual([
      'id',
      'kind',
      'category',
      'title',
      'path',
      'tags',
      'snippet',
      'times',
      'status',
      'score',
      'label',
      'parts',
      // No outcomes in this store: why there is no learned probability (issue 24).
      'probabilityWhy',
      'shownId',
    ]);
    expect(top.parts).toMatchObject({ bm25Relative: 1, bm25Weight: expect.any(Number), seedLabel: 'high' });
    const { fused, confidenceFactor, recencyFactor, lifeFactor, speakerFactor } = top.parts;
    expect(top.score).toBeCloseTo(fused * confidenceFactor * recencyFactor * lifeFactor * speakerFactor, 12);
  });

  it('never errors on hostile query text, and never returns another scope', () => {
    credence(
      ['remember', '--title', 'Other project secret plan', 'Tokens refresh nightly in the other project.'],
      undefined,
      { scope: ['--scope', 'other'] },
    );
    const hostile = [
      '"',
      '""',
      "'",
      'NEAR(a b)',
      'a NEAR/2 b',
      '*',
      'a*',
      '-',
      '-token',
      ':',
      'title:jwt',
      '(',
      ')',
      '((',
      'AND',
      'OR NOT',
      '^jwt',
      '{a b}',
      '\\',
      '%',
      ';DROP TABLE memories;--',
      'é😀中文',
      '\u0007\u001b',
      'the of and',
      '   ',
    ];
    for (const q of hostile) {
      const r = credence(['recall', '--json', '--', q]);
      if (q.trim() === '') {
        expect(r.code).toBe(2);
        continue;
      }
      expect(r.code, q).toBe(0);
      const results = JSON.parse(r.stdout) as { title: string }[];
      expect(
        results.some((x) => x.title.includes('Other project')),
        q,
      ).toBe(false);
    }
  });

  it('answers a batch, one JSON line each', () => {
    const r = credence(
      ['recall', '--batch', '-'],
      '{"query":"JWT refresh"}\n{"q":"wrong"}\n{"query":"redis sessions"}\n',
    );
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.line)).toEqual([1, 2, 3]);
    expect(lines[0].results[0].title).toBe('JWT token refresh flow');
    expect(lines[1].error).toBeDefined();
    expect(lines[2].results[0].title).toBe('Session storage');
    expect(r.code).toBe(1);
  });

  it('reads a file-backed memory inside the project, and refuses paths that lead outside', () => {
    const db = { db: 'files.db' };
    expect(credence(['remember', '--title', 'Token lifetimes', '--path', 'docs/auth.md'], undefined, db).code).toBe(0);
    const [hit] = JSON.parse(credence(['recall', 'fifteen minutes access tokens', '--json'], undefined, db).stdout);
    expect(hit).toMatchObject({ title: 'Token lifetimes', path: 'docs/auth.md' });
    for (const bad of [
      '../outside-secret.txt',
      join(dir, 'outside-secret.txt'),
      'docs/link.txt',
      'docs/../../outside-secret.txt',
    ]) {
      const r = credence(['remember', '--title', 'bad', '--path', bad], undefined, db);
      expect(r.code, bad).toBe(2);
      expect(r.stderr, bad).toMatch(/outside|absolute|root/i);
    }
    expect(JSON.parse(credence(['status', '--json'], undefined, db).stdout).counts.memories).toBe(1);
  });

  it('adds memories from JSON lines, reporting bad lines by number', () => {
    const lines = [
      JSON.stringify({ title: 'Deploys', text: 'Deploys go out on Tuesdays.', category: 'decision', tags: ['ops'] }),
      '{broken',
      JSON.stringify({ title: 'No text and no path' }),
      JSON.stringify({ title: 'x', text: 'y', colour: 'red' }),
    ].join('\n');
    const r = credence(['remember', '--jsonl', '-', '--json'], lines, { db: 'bulk.db' });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ remembered: 1, rejected: [{ line: 2 }, { line: 3 }, { line: 4 }] });
    expect(r.stderr).toMatch(/line 4: .*colour/);
  });
});
