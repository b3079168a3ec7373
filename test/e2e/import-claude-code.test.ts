/**
 * `credence import --claude-code [DIR]` as a person runs it (issue 22 item 3): the real binary over
 * transcripts in Claude Code's format; counts on stdout, progress and problems on stderr, a second
 * import adding nothing, the default folder under ~/.claude/projects/, and a 50 MB transcript read
 * line by line in a process whose heap could not hold it whole.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { bashFailed, bashOk, TranscriptWriter } from '../claude-transcripts.js';
import { storeArgs, storeEnv } from '../pg.js';

const bin = fileURLToPath(new URL('../../bin/credence.cjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'credence-import-e2e-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
function project() {
  const root = join(dir, `p${(n += 1)}`);
  mkdirSync(join(root, '.git'), { recursive: true });
  writeFileSync(join(root, '.git', 'config'), '[core]\n');
  const db = join(root, 'credence.db');
  const home = join(dir, `home${n}`);
  mkdirSync(home);
  const run = (args: string[], nodeOptions = '') => {
    const r = spawnSync(process.execPath, [bin, ...storeArgs(db), '--now', '2026-04-01T00:00:00Z', ...args], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, HOME: home, CLAUDE_CONFIG_DIR: '', CREDENCE_EMBEDDINGS: '', NODE_OPTIONS: nodeOptions },
    });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  return { root, home, run };
}

const S1 = '11110000-1111-4222-8333-444455556666';
const S2 = '22220000-1111-4222-8333-444455556666';

describe('credence import --claude-code', () => {
  it('imports this project’s folder under ~/.claude/projects/ by default, prints the counts, adds 0 again', () => {
    const p = project();
    const folder = join(p.home, '.claude', 'projects', p.root.replace(/[^A-Za-z0-9]/g, '-'));
    mkdirSync(folder, { recursive: true });
    const one = new TranscriptWriter(S1, p.root, '2026-03-01T10:00:00Z')
      .prompt('run the tests')
      .call('Bash', { command: 'npm test' }, bashFailed(1, 'FAIL x.test.ts'))
      .prompt('No, use pnpm instead of npm here.')
      .call('Bash', { command: 'pnpm test' }, bashOk('ok'))
      .raw('{"type":"assistant","message":{"content":[{"type":"tool_use","id":"toolu_cut"');
    const two = new TranscriptWriter(S2, p.root, '2026-03-02T10:00:00Z')
      .prompt('add a readme')
      .call('Write', { file_path: `${p.root}/README.md`, content: '# x' }, { content: 'File created' });
    writeFileSync(join(folder, `${S1}.jsonl`), one.text());
    writeFileSync(join(folder, `${S2}.jsonl`), two.text());

    const first = p.run(['import', '--claude-code']);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^files +2 \(10 lines\)$/m);
    expect(first.stdout).toMatch(/^sessions +2$/m);
    expect(first.stdout).toMatch(/^prompts +3$/m);
    expect(first.stdout).toMatch(/^tool calls +3 \(1 failed\)$/m);
    expect(first.stdout).toMatch(/^corrections +1$/m);
    // A month old: every evolve reads the user's own words inside the purge age (review F, 3), nothing to say.
    expect(first.stdout).not.toContain('of them older than');
    expect(first.stdout).toContain(`${S1}.jsonl:7: not JSON`);

    const again = p.run(['--json', 'import', '--claude-code']);
    expect(again.code).toBe(0);
    const summary = JSON.parse(again.stdout);
    expect(summary).toMatchObject({ files: 2, sessions: 2, prompts: 0, toolCalls: 0, observations: 0 });
    expect(summary.alreadyImported).toBe(6);

    const runs = p.run(['--json', 'runs']);
    expect(
      JSON.parse(runs.stdout)
        .map((r: { intent: string }) => r.intent)
        .sort(),
    ).toEqual(['No, use pnpm instead of npm here.', 'add a readme', 'run the tests']);
  });

  // Review G, item 1: one transcript dated 2099 made the import exit 2 and learn nothing, left its events queued for
  // every later SessionStart to fail on, and called the machine's clock "the clock now sets".
  it('skips the lines dated more than a day ahead, named by file and line; the sound session is imported', () => {
    const p = project();
    const folder = join(p.home, '.claude', 'projects', p.root.replace(/[^A-Za-z0-9]/g, '-'));
    mkdirSync(folder, { recursive: true });
    const far = new TranscriptWriter(S1, p.root, '2099-03-01T10:00:00Z')
      .prompt('run the tests')
      .call('Bash', { command: 'npm test' }, bashOk('ok'));
    const sound = new TranscriptWriter(S2, p.root, '2026-03-02T10:00:00Z')
      .prompt('add a readme')
      .call('Write', { file_path: `${p.root}/README.md`, content: '# x' }, { content: 'File created' });
    writeFileSync(join(folder, `${S1}.jsonl`), far.text());
    writeFileSync(join(folder, `${S2}.jsonl`), sound.text());
    const first = p.run(['import', '--claude-code']);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('sessions       1\nprompts        1\ntool calls     1 (0 failed)');
    expect(first.stdout).toContain('skipped        3 timestamp ahead of the clock');
    expect(first.stdout).toContain(
      `  ${S1}.jsonl:1: a user line dated 2099-03-01T10:00:30.000Z, more than a day after the clock --now sets ` +
        '(2026-04-01T00:00:00.000Z): what it taught would not decay until then',
    );
    const runs = JSON.parse(p.run(['--json', 'runs']).stdout) as { id: string }[];
    expect(runs.map((r) => r.id)).toEqual([`cc-${S2}-1`]);
    // Nothing of it left queued: the next SessionStart has nothing to fail on.
    const { env } = storeEnv(join(p.root, 'credence.db'));
    const start = spawnSync(process.execPath, [bin, 'hook', 'claude-code'], {
      cwd: p.root,
      encoding: 'utf8',
      env: {
        ...process.env,
        HOME: p.home,
        CLAUDE_CONFIG_DIR: '',
        CREDENCE_EMBEDDINGS: '',
        CREDENCE_HOOK_WAIT: '1',
        ...env,
      },
      input: JSON.stringify({ session_id: 'live-1', cwd: p.root, hook_event_name: 'SessionStart', source: 'startup' }),
    });
    expect([start.status, start.stderr]).toEqual([0, '']);
    // Without --now the clock is named as the machine's.
    const plain = spawnSync(process.execPath, [bin, '--db', join(p.root, 'other.db'), 'import', '--claude-code'], {
      cwd: p.root,
      encoding: 'utf8',
      env: { ...process.env, HOME: p.home, CLAUDE_CONFIG_DIR: '', CREDENCE_EMBEDDINGS: '', CREDENCE_NOW: '' },
    });
    expect(plain.status).toBe(0);
    expect(plain.stdout).toContain(
      `${S1}.jsonl:1: a user line dated 2099-03-01T10:00:30.000Z, more than a day after this machine's clock (`,
    );
  });

  it('names a missing folder (exit 2, as a file that cannot be read) and stores nothing', () => {
    const p = project();
    const r = p.run(['import', '--claude-code', join(p.root, 'nowhere')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(join(p.root, 'nowhere'));
    // Not even a store was made: status, which only reads, finds none at the --db.
    const status = p.run(['--json', 'status']);
    expect(status.code).toBe(2);
    expect(status.stderr).toMatch(/^credence: no store at /);
  });

  it('reads a 50 MB transcript line by line, in a process whose heap could not hold it whole', () => {
    const p = project();
    const folder = join(p.root, 'transcripts');
    mkdirSync(folder);
    const file = join(folder, `${S1}.jsonl`);
    const fd = openSync(file, 'w');
    const body = 'x'.repeat(10_000);
    let calls = 0;
    let prompts = 0;
    const w = new TranscriptWriter(S1, p.root, '2026-03-01T00:00:00Z');
    for (let turn = 0; statSync(file).size < 50 * 1024 * 1024; turn += 1) {
      w.prompt(`read the files of part ${turn}`);
      prompts += 1;
      for (let i = 0; i < 50; i += 1) {
        const path = `${p.root}/src/part${turn}/f${i}.ts`;
        w.call(
          'Read',
          { file_path: path },
          { content: body, toolUseResult: { type: 'text', file: { filePath: path, content: body } } },
          1,
        );
        calls += 1;
      }
      writeSync(fd, w.take());
    }
    closeSync(fd);
    const r = p.run(['--json', 'import', '--claude-code', folder], '--max-old-space-size=48');
    expect(r.stderr).not.toContain('heap');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ files: 1, sessions: 1, prompts, toolCalls: calls, skipped: {} });
  }, 60_000);
});
