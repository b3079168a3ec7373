/**
 * One question, four surfaces (issue 23): the CLI's context block, the MCP recall tool's context, the MCP `recall`
 * prompt and the prompt hook choose and mark recall's results alike (core/recall/agent-context). A question in the
 * present leaves the replaced memory out; a question about before keeps it, marked superseded.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bin, stdioClient, structured } from '../mcp-helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'credence-recall-surfaces-'));
const project = join(dir, 'project');
const db = join(dir, 'memory.db');
const NOW = '2026-05-02T09:00:00Z';
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const env = (now: string) => ({ PATH: process.env.PATH ?? '', HOME: dir, CREDENCE_DB: db, CREDENCE_NOW: now });
const credence = (args: string[], now = NOW) => {
  const r = spawnSync(process.execPath, [bin, ...args], { cwd: project, env: env(now), encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};
const hook = (prompt: string): string => {
  const r = spawnSync(process.execPath, [bin, 'hook', 'claude-code'], {
    cwd: project,
    env: env(NOW),
    encoding: 'utf8',
    input: JSON.stringify({
      session_id: 's-1',
      transcript_path: join(dir, 't.jsonl'),
      cwd: project,
      hook_event_name: 'UserPromptSubmit',
      prompt,
    }),
  });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
};

/** What each surface gives the agent for `query`. */
async function surfaces(query: string): Promise<Record<'cli' | 'tool' | 'prompt' | 'hook', string>> {
  const cli = credence(['recall', query]);
  expect(cli.code, cli.stderr).toBe(0);
  const { client, close } = await stdioClient(['serve', '--stdio'], { cwd: project, env: env(NOW) });
  try {
    const tool = structured(await client.callTool({ name: 'recall', arguments: { query } })).context as string;
    const got = await client.getPrompt({ name: 'recall', arguments: { query } });
    const prompt = got.messages.map((m) => (m.content.type === 'text' ? m.content.text : '')).join('\n');
    return { cli: cli.stdout, tool, prompt, hook: hook(query) };
  } finally {
    await close();
  }
}

beforeAll(() => {
  mkdirSync(join(project, '.git'), { recursive: true });
  writeFileSync(join(project, '.git', 'config'), '[core]\n');
  const remember = (now: string, title: string, text: string) =>
    expect(credence(['remember', '--title', title, text], now).code).toBe(0);
  remember('2026-04-01T09:00:00Z', 'Deploy checks', 'Before deploy we run npm test');
  remember('2026-04-20T09:00:00Z', 'Deploy checks', 'Before deploy we now run the e2e suite instead of npm test');
  remember('2026-04-01T09:00:00Z', 'Postgres for the main store', 'We use Postgres for the main store');
  remember('2026-05-01T09:00:00Z', 'Main store on MySQL', 'We moved the main store to MySQL');
});

describe('the date a context line shows', () => {
  it('is when the memory became true (--valid-from), not when it was written', () => {
    const args = ['remember', '--title', 'Staging region', 'Staging runs in eu-west-3', '--valid-from', '2026-02-14'];
    expect(credence(args).code).toBe(0);
    expect(credence(['recall', 'which region does staging run in?']).stdout).toContain(
      '- [NOTE] Staging region, 2026-02-14: Staging runs in eu-west-3',
    );
  });
});

describe('the four surfaces agree on one question (issue 23)', () => {
  it('"what do we run before deploy?" asks the present: the replaced check is left out everywhere', async () => {
    const all = await surfaces('what do we run before deploy?');
    for (const [surface, text] of Object.entries(all)) {
      // One line of the two "Deploy checks", unmarked; where a surface prints the text, the newer one's.
      expect([surface, text.split('\n').filter((l) => l.includes('Deploy checks')).length]).toEqual([surface, 1]);
      expect([surface, text.includes('superseded')]).toEqual([surface, false]);
      expect([surface, text.includes('we run npm test')]).toEqual([surface, false]);
    }
    for (const text of [all.cli, all.tool, all.hook]) expect(text).toContain('we now run the e2e suite');
  });

  it('"which database was the main store on before?" keeps Postgres everywhere, marked superseded', async () => {
    const all = await surfaces('which database was the main store on before?');
    const mark = 'superseded by Main store on MySQL, 2026-05-01';
    // The note follows the title (CLI, MCP) or stands beside the label before it (the hook's `[NOTE, medium; …]`).
    const title = 'Postgres for the main store';
    const marked = new RegExp(`${title}[^\\n]*${mark}|${mark}[^\\n]*\\] ${title}`);
    for (const [surface, text] of Object.entries(all)) expect([surface, marked.test(text)]).toEqual([surface, true]);
  });
});
