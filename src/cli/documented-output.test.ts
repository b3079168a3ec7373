import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliIn } from '../../test/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'credence-documented-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
mkdirSync(join(dir, '.git'));

const credence = (...argv: string[]) =>
  cliIn(dir, ['--db', join(dir, 'd.db'), '--now', '2026-05-02T09:00:00Z', ...argv]);

describe('what the command line prints is what docs/cli.md says', () => {
  it('every error line of an invalid workflow starts "credence:", exit 1', async () => {
    const file = join(dir, 'bad.json');
    writeFileSync(
      file,
      JSON.stringify({
        tasks: [
          { id: 'a', tool: 'no_such_tool', dependsOn: ['b'] },
          { id: 'b', tool: 'no_such_tool', dependsOn: ['a'] },
        ],
      }),
    );
    expect((await credence('init')).code).toBe(0);
    const r = await credence('dag', '--validate', file);
    expect(r.code).toBe(1);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).toMatch(/^credence: invalid workflow: /);
  });

  it("import's help names a guide, not a source module", async () => {
    const help = (await credence('import', '--help')).stdout.replace(/\s+/g, ' ');
    expect(help).toContain('learn from past Claude Code sessions (docs/claude-code.md)');
    expect(help).not.toMatch(/\(cli\/[a-z-]+\)/);
  });
});
