/**
 * The command line's messages, as a newcomer meets them: every error starts `credence:` and names the flag and the
 * value; a folder that cannot be read is bad usage (exit 2) like any other file; two conflicting notes of one title
 * name each other apart in the agent's context; an empty calibration says how outcomes get recorded. Drives the
 * real binary.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCredence } from '../helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'credence-messages-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const credence = (db: string, args: string[]) =>
  runCredence(['--db', join(dir, db), ...args], dir, { env: { CREDENCE_NOW: '2026-05-02T09:00:00Z' } });

describe('command line messages', () => {
  it('import --claude-code of a folder that does not exist exits 2, naming it', () => {
    const missing = join(dir, 'no-such-folder');
    const r = credence('import.db', ['import', '--claude-code', missing]);
    expect(r.code).toBe(2);
    expect(r.stderr.startsWith(`credence: no transcript folder at ${missing}: `)).toBe(true);
  });

  it('an unknown --format is a credence: error naming the flag, the value and the allowed ones', () => {
    const r = credence('format.db', ['recall', 'tea', '--format', 'xml']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('credence: --format must be text, json or context (recall), got "xml"\n');
  });

  it('observe --at with no date names --at and the value; a date goes in', () => {
    const r = credence('observe.db', ['observe', '--type', 'pattern', '--observation', 'x', '--at', 'notadate']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('credence: --at must be an ISO 8601 date such as 2026-02-02T06:00:00Z, got "notadate"\n');
    const ok = credence('observe.db', ['observe', '--type', 'pattern', '--observation', 'x', '--at', '2026-05-01']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/^observed /);
  });

  it('recall --all marks each of two conflicting notes of one title with the other one, by id', () => {
    const add = (text: string) => {
      const r = credence('conflict.db', ['remember', '--title', 'Deploy target', text, '--json']);
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout) as { ids: string[]; conflicts: { id: string; with: string }[] };
    };
    const first = add('We deploy to staging first').ids[0];
    const second = add('We never deploy to staging, always straight to production');
    expect(second.conflicts).toEqual([expect.objectContaining({ id: second.ids[0], with: first })]);
    const r = credence('conflict.db', ['recall', 'deploy target', '--all']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split('\n').filter((l) => l.startsWith('- [NOTE] Deploy target'));
    expect(lines).toHaveLength(2);
    // Each line names the other note: the first the second, the second the first.
    for (const [id, other] of [
      [first, second.ids[0]],
      [second.ids[0], first],
    ])
      expect(
        lines.filter((l) => l.includes(`(in conflict with ${other}: Deploy target)`)),
        id,
      ).toHaveLength(1);
  });

  it('calibration of a scope with no outcomes says once, at the end, how outcomes get recorded', () => {
    expect(credence('calibration.db', ['init']).code).toBe(0);
    const r = credence('calibration.db', ['calibration']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.filter((l) => l.includes('no outcomes recorded yet'))).toHaveLength(6);
    expect(lines.filter((l) => l.includes('credence feedback'))).toHaveLength(1);
    expect(lines.at(-1)).toMatch(/credence feedback .*hooks.*gateway/);
  });
});
