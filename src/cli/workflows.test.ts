/**
 * `credence workflows --now` before a workflow's last use (walk 14, item 9): the store keeps no history of a workflow,
 * so its figures then include the later runs; the command says so on stderr, as `edges` does of edges.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliIn } from '../../test/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'credence-workflows-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const at = (now: string) => (argv: string[]) =>
  cliIn(dir, ['--db', join(dir, 'w.db'), '--scope', 'p', '--now', now, ...argv]);

const run = (day: string, tools: string[]) =>
  JSON.stringify({
    intent: `job of ${tools.join(' and ')}`,
    startedAt: `2026-03-0${day}T09:00:00Z`,
    calls: tools.map((tool, i) => ({ tool, status: 'success', ...(i > 0 ? { consumes: [i - 1] } : {}) })),
  });

describe('credence workflows --now', () => {
  it('says when a workflow was used after --now, and first used after it: no view of the past', async () => {
    const file = join(dir, 'runs.jsonl');
    writeFileSync(
      file,
      `${[run('1', ['read_file', 'parse_json']), run('3', ['read_file', 'parse_json'])].join('\n')}\n`,
    );
    writeFileSync(join(dir, 'more.jsonl'), `${run('4', ['fetch', 'send'])}\n`);
    const late = at('2026-03-05T00:00:00Z');
    expect((await late(['record', '--jsonl', file])).code).toBe(0);
    expect((await late(['record', '--jsonl', join(dir, 'more.jsonl')])).code).toBe(0);
    expect((await late(['workflows'])).stderr).toBe('');
    const early = await at('2026-03-02T00:00:00Z')(['workflows']);
    expect(early.code).toBe(0);
    expect(early.stderr).toBe(
      'credence: 2 workflow(s) were last used after 2026-03-02T00:00:00.000Z ' +
        '(up to 2026-03-04T09:00:00.000Z; 1 first used after it): the store keeps no history of a workflow, so ' +
        'their runs, success rate and confidence include those later runs (no decay at a time before them); ' +
        'this is not a view of the workflows as they were then\n',
    );
    expect((await at('2026-03-02T00:00:00Z')(['workflows', '--json'])).stderr).toContain('2 workflow(s) were');
  });
});
