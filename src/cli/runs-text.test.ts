import { describe, expect, it } from 'vitest';
import { openCredence } from '../engine/engine.js';
import type { RunListing, RunNodeInput } from '../engine/runs.js';
import { openSqliteStore } from '../store/sqlite/index.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliIn } from '../../test/cli.js';
import { formatRuns, formatRunSteps, oneLine } from './runs-text.js';

const node = (tool: string, status: 'success' | 'failure' = 'success', retries = 0) => ({ tool, status, retries });

describe('formatRunSteps', () => {
  it('lists a short run in full', () => {
    expect(formatRunSteps([node('Read'), node('Edit'), node('Bash', 'failure', 2)])).toBe(
      'Read success → Edit success → Bash failure (2 retries)',
    );
  });

  it('folds consecutive repeats of one tool and outcome', () => {
    expect(formatRunSteps([node('Read'), node('Read'), node('Read'), node('Bash', 'failure'), node('Bash')])).toBe(
      'Read success ×3 → Bash failure → Bash success',
    );
  });

  it('shows the first steps of a run of hundreds of calls, then how many more, on one short line', () => {
    const nodes = Array.from({ length: 300 }, (_, i) => node(`tool_${i % 7}`));
    const line = formatRunSteps(nodes, { maxSteps: 3 });
    expect(line).toBe(
      'tool_0 success → tool_1 success → tool_2 success → … +297 more steps (300 calls; --json lists all)',
    );
  });

  it('shows fewer steps when long tool names would pass the width, one at least', () => {
    const long = (i: number) => node(`mcp__some_server__a_rather_long_tool_name_${i}`);
    expect(formatRunSteps([long(1), long(2), long(3), long(4)], { maxWidth: 120 })).toBe(
      'mcp__some_server__a_rather_long_tool_name_1 success → mcp__some_server__a_rather_long_tool_name_2 success → ' +
        '… +2 more steps (4 calls; --json lists all)',
    );
    expect(formatRunSteps([long(1), long(2)], { maxWidth: 10 })).toBe(
      'mcp__some_server__a_rather_long_tool_name_1 success → … +1 more step (2 calls; --json lists all)',
    );
  });

  it('says when a run has no calls', () => {
    expect(formatRunSteps([])).toBe('(no calls)');
  });
});

describe('formatRuns', () => {
  it('prints one header line and one line of calls per run, the intent on one line and cut', () => {
    const run = {
      startedAt: '2026-02-02T06:00:00.000Z',
      confidence: 0.5,
      quality: 0.5,
      succeeded: true,
      intent: `fix the\nflaky test ${'x'.repeat(300)}`,
      intentKind: null,
      id: 'c0ffee00-0000-4000-8000-000000000001',
      nodes: Array.from({ length: 500 }, (_, i) => node(`t${i}`)),
    } as unknown as RunListing;
    const lines = formatRuns([run, run]).split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^2026-02-02T06:00:00.000Z {2}0\.50 success {2}fix the flaky test x+… {2}id /);
    expect(lines[0]?.endsWith('…  id c0ffee00-0000-4000-8000-000000000001')).toBe(true);
    expect([...(lines[0] ?? '')].length).toBeLessThanOrEqual(160 + '  id '.length + 36);
    expect(lines[1]).toMatch(/^ {4}t0 success → .* → … \+49\d more steps \(500 calls; --json lists all\)$/);
    expect([...(lines[1] ?? '')].length).toBeLessThan(200);
  });

  it('prints a failure under 0.5 with a number under 0.50, never "0.50 failure" (walk 16, item 8)', () => {
    const run = (quality: number, succeeded: boolean) =>
      ({
        startedAt: '2026-02-02T06:00:00.000Z',
        confidence: null,
        quality,
        succeeded,
        intent: 'fix the failing auth test',
        intentKind: null,
        nodes: [node('Grep', 'failure'), node('Read')],
      }) as unknown as RunListing;
    const header = (quality: number, succeeded: boolean) => formatRuns([run(quality, succeeded)]).split('\n')[0];
    expect(header(0.49999999999999994, false)).toContain('  0.49 failure  ');
    expect(header(0.496, false)).toContain('  0.49 failure  ');
    expect(header(0.5, true)).toContain('  0.50 success  ');
    expect(header(0.42, false)).toContain('  0.42 failure  ');
    expect(header(0.999, true)).toContain('  1.00 success  ');
  });
});

describe('formatRuns with a run summary', () => {
  const T0 = Date.parse('2026-02-02T06:00:00Z');
  const flowNode = (name: string, extra: Partial<RunNodeInput> = {}): RunNodeInput => ({
    ...{ name, intent: 'general', intentRule: 'default', status: 'success', retries: 0 },
    ...{ startedAt: T0, durationMs: 5, consumes: [], ...extra },
  });

  it('prints a summary that says more than the calls (a failed task), never one that restates them', async () => {
    const credence = await openCredence({ store: openSqliteStore({ path: ':memory:' }), scope: 'p', now: T0 });
    try {
      // execute_dag's run whose task b failed on an unresolved reference: b never reached its tool.
      await credence.recordExecution({
        intent: 'shout a greeting',
        startedAt: T0,
        summary: '1 of 2 tasks succeeded; b failed',
        confidence: 0,
        calls: [{ tool: 'down:echo', status: 'success' }],
      });
      // A workflow run (the PocketFlow adapter) is stored with a summary that only restates its calls.
      await credence.recordRun({
        intent: 'fetch and\nparse',
        startedAt: T0 + 1000,
        endedAt: T0 + 2000,
        nodes: [flowNode('fetch', { retries: 1 }), flowNode('parse', { status: 'failure', consumes: [0] })],
      });
      await credence.recordExecution({
        intent: 'a blank summary',
        startedAt: T0 + 3000,
        summary: '  ',
        calls: [{ tool: 'Read', status: 'success' }],
      });
      await credence.recordExecution({
        intent: 'a summary of my own',
        startedAt: T0 + 4000,
        summary: `deployed to staging,\n then rolled back ${'y'.repeat(300)}`,
        calls: [{ tool: 'deploy', status: 'success' }],
      });
      const runs = await credence.runs();
      expect(runs.find((r) => r.intent === 'fetch and\nparse')?.summary).toMatch(/^fetch and\nparse: fetch success/);
      const lines = formatRuns(runs).split('\n');
      const id = (intent: string) => runs.find((r) => r.intent === intent)?.id;
      expect(lines).toEqual([
        `2026-02-02T06:00:04.000Z  1.00 success  a summary of my own  id ${id('a summary of my own')}`,
        '    deploy success',
        expect.stringMatching(/^ {4}summary: deployed to staging, then rolled back y+…$/),
        `2026-02-02T06:00:03.000Z  1.00 success  a blank summary  id ${id('a blank summary')}`,
        '    Read success',
        expect.stringMatching(
          /^2026-02-02T06:00:01.000Z {2}0\.\d\d (success|failure) {2}fetch and parse \[general\] {2}id [\w-]+$/,
        ),
        '    fetch success (1 retry) → parse failure',
        `2026-02-02T06:00:00.000Z  0.00 failure  shout a greeting  id ${id('shout a greeting')}`,
        '    down:echo success',
        '    summary: 1 of 2 tasks succeeded; b failed',
      ]);
      expect([...(lines[2] ?? '')].length).toBe(4 + 'summary: '.length + 140);
    } finally {
      await credence.close();
    }
  });

  it('prints no summary for a workflow run whose stored summary was shortened to fit (… +K more steps)', async () => {
    const credence = await openCredence({ store: openSqliteStore({ path: ':memory:' }), scope: 'p', now: T0 });
    try {
      const nodes = Array.from({ length: 700 }, (_, i) => flowNode(`fetch_page_number_${i}`));
      await credence.recordRun({ intent: 'crawl the site', startedAt: T0, endedAt: T0 + 700, nodes });
      const runs = await credence.runs();
      expect(runs[0]?.summary).toMatch(/ → … \+\d+ more steps; confidence 0\.70$/);
      expect(formatRuns(runs)).not.toContain('summary:');
    } finally {
      await credence.close();
    }
  });

  it('prints the summary of a workflow run that stopped: why, and its nodes’ mean beside confidence 0', async () => {
    const credence = await openCredence({ store: openSqliteStore({ path: ':memory:' }), scope: 'p', now: T0 });
    try {
      await credence.recordRun({
        intent: 'call the API',
        startedAt: T0,
        endedAt: T0 + 2000,
        nodes: [flowNode('search'), flowNode('call', { status: 'failure', consumes: [0] })],
        error: 'the API is down\n    at call (flow.js:3:9)',
      });
      const [run] = await credence.runs();
      expect(formatRuns(run === undefined ? [] : [run]).split('\n')).toEqual([
        `2026-02-02T06:00:00.000Z  0.00 failure  call the API [general]  id ${run?.id}`,
        '    search success → call failure',
        '    summary: call the API: stopped (the API is down): search success → call failure; confidence 0.00 (a run ' +
          "that stopped did not succeed; its nodes' mea…",
      ]);
    } finally {
      await credence.close();
    }
  });
});

// Walk 14, item 6: a run recorded with its calls alone printed "—" (no confidence), and the quality that makes it a
// success or a failure of its workflow was printed nowhere: `workflows` said 100% of runs whose last step failed.
describe('formatRuns: the quality that decides a run’s success', () => {
  it('is printed for every run, with whether it counts as a success of its workflow', async () => {
    const T0 = Date.parse('2026-02-02T06:00:00Z');
    const credence = await openCredence({ store: openSqliteStore({ path: ':memory:' }), scope: 'p', now: T0 });
    try {
      const translate = (at: number, ...statuses: ('success' | 'failure')[]) =>
        credence.recordExecution({
          intent: 'translate the weather report',
          startedAt: at,
          calls: [
            { tool: 'fetch_weather', status: 'success' },
            ...statuses.map((status) => ({ tool: 'translate_text', status, consumes: [0] })),
          ],
        });
      await translate(T0, 'failure');
      await translate(T0 + 1000, 'failure', 'success');
      const runs = await credence.runs();
      expect(runs.map((r) => [r.confidence, r.quality, r.succeeded])).toEqual([
        [null, expect.closeTo(2 / 3, 12), true],
        [null, 0, false],
      ]);
      expect(
        formatRuns(runs)
          .split('\n')
          .filter((l) => l.startsWith('2026')),
      ).toEqual([
        `2026-02-02T06:00:01.000Z  0.67 success  translate the weather report  id ${runs[0]?.id}`,
        `2026-02-02T06:00:00.000Z  0.00 failure  translate the weather report  id ${runs[1]?.id}`,
      ]);
    } finally {
      await credence.close();
    }
  });
});

// Walk 16, item 15: `runs --help` said it shows each run's confidence, which the text no longer prints.
describe('credence runs --help', () => {
  it('names what the text prints: the id, the quality and whether it is a success', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'credence-runs-help-'));
    try {
      const { stdout } = await cliIn(dir, ['runs', '--help']);
      const description = stdout.split('\n').find((l) => l.startsWith('recent runs')) ?? '';
      expect(description).toContain('quality (success or failure)');
      expect(description).toContain('id');
      expect(description).not.toContain('confidence');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('oneLine', () => {
  it('keeps a short text and cuts a long one by characters, not UTF-16 units', () => {
    expect(oneLine('a  b\tc')).toBe('a b c');
    expect(oneLine('🧠'.repeat(10), 5)).toBe('🧠🧠🧠🧠…');
  });
});
