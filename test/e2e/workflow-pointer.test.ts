/**
 * The documented `pointer.txt` workflow end to end (issue 17): `credence serve --stdio --gateway` in
 * front of the real `@modelcontextprotocol/server-filesystem` on a project folder, a pointer file
 * written by the guide's `echo` command (so it ends in a newline), and the guide's two tasks as
 * written, both read from docs/mcp.md (moved there from the README).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { nodeModules, stdioClient, structured, textOf } from '../mcp-helpers.js';

const project = mkdtempSync(join(tmpdir(), 'credence-pointer-'));
afterAll(() => rmSync(project, { recursive: true, force: true }));

const NOTES = '# Notes\n\nThe pointer led here.\n';

const guide = readFileSync(fileURLToPath(new URL('../../docs/mcp.md', import.meta.url)), 'utf8');

/**
 * The guide's example: the first ```json block after its **`execute_dag`.** paragraph, and its `echo … > pointer.txt`.
 */
function documentedExample(): { arguments: { workflow: { tasks: unknown[] } }; echo: string } {
  const from = guide.indexOf('**`execute_dag`.**');
  const block = /```json\n([\s\S]*?)\n```/.exec(guide.slice(from));
  const echo = /`(echo [^`]+ > pointer\.txt)`/.exec(guide.slice(from));
  if (from < 0 || block === null || echo === null)
    throw new Error('docs/mcp.md has no pointer.txt workflow after **`execute_dag`.**');
  return { arguments: JSON.parse(block[1] as string), echo: echo[1] as string };
}

describe("the MCP guide's pointer.txt workflow", () => {
  it('reads the file named by `echo docs/notes.md > pointer.txt`: the final newline is not in the path', async () => {
    mkdirSync(join(project, 'docs'));
    mkdirSync(join(project, '.credence'));
    writeFileSync(join(project, 'docs', 'notes.md'), NOTES);
    const example = documentedExample();
    expect(example.echo).toBe('echo docs/notes.md > pointer.txt');
    const echo = spawnSync('sh', ['-c', example.echo], { cwd: project });
    expect(echo.status).toBe(0);
    // As the guide's servers.json, with the installed server in place of npx.
    const servers = {
      mcpServers: {
        filesystem: {
          command: process.execPath,
          args: [join(nodeModules, '@modelcontextprotocol/server-filesystem/dist/index.js'), '.'],
        },
      },
    };
    writeFileSync(join(project, '.credence', 'servers.json'), JSON.stringify(servers));
    const { client, close } = await stdioClient(
      [
        '--db',
        join(project, 'c.db'),
        '--now',
        '2026-03-01T09:00:00Z',
        'serve',
        '--stdio',
        '--gateway',
        '.credence/servers.json',
      ],
      { cwd: project },
    );
    try {
      expect(example.arguments.workflow.tasks).toHaveLength(2);
      const result = await client.callTool({ name: 'execute_dag', arguments: example.arguments });
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
