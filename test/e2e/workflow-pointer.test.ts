/**
 * The README's `pointer.txt` workflow end to end (issue 17): `credence serve --stdio --gateway` in
 * front of the real `@modelcontextprotocol/server-filesystem` on a project folder, a pointer file
 * written by a shell's `echo` (so it ends in a newline), and the README's two tasks as written.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { nodeModules, stdioClient, structured, textOf } from '../mcp-helpers.js';

const project = mkdtempSync(join(tmpdir(), 'credence-pointer-'));
afterAll(() => rmSync(project, { recursive: true, force: true }));

const NOTES = '# Notes\n\nThe pointer led here.\n';

describe("the README's pointer.txt workflow", () => {
  it('reads the file a pointer written by `echo docs/notes.md > pointer.txt` names: the final newline is not part of the path', async () => {
    mkdirSync(join(project, 'docs'));
    mkdirSync(join(project, '.credence'));
    writeFileSync(join(project, 'docs', 'notes.md'), NOTES);
    const echo = spawnSync('sh', ['-c', 'echo docs/notes.md > pointer.txt'], { cwd: project });
    expect(echo.status).toBe(0);
    // As the README's servers.json, with the installed server in place of npx.
    const servers = { mcpServers: { filesystem: { command: process.execPath, args: [join(nodeModules, '@modelcontextprotocol/server-filesystem/dist/index.js'), '.'] } } };
    writeFileSync(join(project, '.credence', 'servers.json'), JSON.stringify(servers));
    const { client, close } = await stdioClient(['--db', join(project, 'c.db'), '--now', '2026-03-01T09:00:00Z', 'serve', '--stdio', '--gateway', '.credence/servers.json'], { cwd: project });
    try {
      const result = await client.callTool({
        name: 'execute_dag',
        arguments: {
          workflow: {
            tasks: [
              { id: 'task_1', tool: 'filesystem:read_text_file', arguments: { path: 'pointer.txt' } },
              { id: 'task_2', tool: 'filesystem:read_text_file', arguments: { path: '$task_1' } },
            ],
          },
        },
      });
      const run = structured(result);
      expect(run.tasks.map((t: { status: string }) => t.status)).toEqual(['success', 'success']);
      expect(result.isError).toBeUndefined();
      expect(textOf(run.tasks[0].result)).toBe('docs/notes.md\n');
      expect(run.tasks[1].arguments).toEqual({ path: 'docs/notes.md' });
      expect(textOf(run.tasks[1].result)).toBe(NOTES);
    } finally {
      await close();
    }
  });
});
