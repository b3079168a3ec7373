import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { storeArgs } from '../pg.js';

const bin = fileURLToPath(new URL('../../bin/credence.cjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'credence-remember-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function credence(args: string[]) {
  const r = spawnSync(process.execPath, [bin, ...storeArgs(join(dir, 'files.db')), ...args], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, HOME: dir, CREDENCE_EMBEDDINGS: '' },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
const file = (name: string, lines: [string, string][]): string => {
  const path = join(dir, name);
  writeFileSync(path, lines.map(([speaker, text]) => `${JSON.stringify({ speaker, session: 's1', text })}\n`).join(''));
  return path;
};

describe('remember --jsonl: a second file of a session without places', () => {
  it('continues the session (a line repeating an earlier one kept), and the first file again merges', () => {
    const f1 = file('f1.jsonl', [
      ['alice', 'Morning, what is on the list?'],
      ['bob', 'The release notes.'],
    ]);
    const f2 = file('f2.jsonl', [
      ['alice', 'Sounds good.'],
      ['bob', 'Then we ship on Friday.'],
      ['alice', 'Sounds good.'],
      ['bob', 'And the changelog goes in docs.'],
    ]);
    const ids = (path: string): string[] => {
      const r = credence(['remember', '--jsonl', path, '--json']);
      expect(r.code, r.stderr).toBe(0);
      return (JSON.parse(r.stdout) as { ids: string[] }).ids.map((id) => id.replace(/^turn-[0-9a-f]+-/, ''));
    };
    expect(ids(f1)).toEqual(['0', '1']);
    expect(ids(f2)).toEqual(['2', '3', '4', '5']);
    expect(ids(f1)).toEqual(['0', '1']);
    expect(credence(['status']).stdout).toMatch(/memories\s+6\b/);
  });

  it('a line naming a file that does not exist is told by its number; the lines after it are remembered', () => {
    const path = join(dir, 'notes.jsonl');
    const notes = [
      { title: 'first', text: 'the first note' },
      { title: 'missing', path: 'missing.md' },
      { title: 'third', text: 'the third note' },
    ];
    writeFileSync(path, notes.map((n) => `${JSON.stringify(n)}\n`).join(''));
    const r = credence(['remember', '--jsonl', path, '--json']);
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout) as { remembered: number; rejected: { line: number; reason: string }[] };
    expect(out.remembered).toBe(2);
    expect(out.rejected.map((p) => p.line)).toEqual([2]);
    expect(out.rejected[0]?.reason).toMatch(/missing\.md/);
  });
});
