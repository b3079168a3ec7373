import { afterAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../store/sqlite/index.js';
import type { ExecutionRecord, ObservationRecord } from '../store/types.js';
import { sessionSummary } from './session-summary.js';

const NOW = Date.parse('2026-03-04T10:00:00Z');
const HOUR = 3_600_000;

const run = (id: string, at: number, prompt = `the prompt of ${id}`): ExecutionRecord => ({
  id,
  intent: prompt,
  startedAt: at,
  endedAt: at + 60_000,
  calls: [{ tool: 'Bash', status: 'success', retries: 0, consumes: [], input: '{"command":"ls"}', at }],
});
const said = (id: string, at: number, text: string): ObservationRecord => ({
  id,
  timestamp: at,
  type: 'correction',
  context: {},
  observation: text,
  evidence: [],
  confidence: 0.7,
  tags: ['hook', 'source:user', 'claude-code'],
});

async function decisionsOf(runs: readonly ExecutionRecord[], observations: readonly ObservationRecord[]) {
  const store = openSqliteStore({ path: ':memory:' });
  afterAll(() => store.close());
  for (const r of runs) await store.insertExecution('s', r);
  await store.insertObservations('s', observations);
  const lines = (await sessionSummary({ store, scope: 's', now: NOW })).split('\n');
  const at = lines.indexOf('Decisions (the user said):');
  return at < 0 ? [] : lines.slice(at + 1).filter((l) => l.startsWith('- '));
}

describe("the session start summary's decisions: from the session's first prompt", () => {
  it("a single session's correction, said in its prompt before its first tool call, is a decision", async () => {
    const first = NOW - 2 * HOUR;
    const decisions = await decisionsOf(
      [run('cc-a-1', first, 'No, use pnpm.')],
      [said('o1', first - 9000, 'No, use pnpm.')],
    );
    expect(decisions).toEqual(['- No, use pnpm.']);
    // Said before it, not in its prompt: another session's (the review's old correction), not told.
    expect(await decisionsOf([run('cc-a-1', first)], [said('o1', first - 90 * 24 * HOUR, 'No, use pnpm.')])).toEqual(
      [],
    );
  });

  it("the oldest shown session's prompt counts; what was said before the one before it ended, not", async () => {
    // Four sessions: the oldest (w) is not shown (three are); x's prompt precedes x's first call.
    const prompts = ['Said in w: keep the old lockfile.', 'Said in x: no, use pnpm.', 'y', 'z'];
    const runs = ['w', 'x', 'y', 'z'].map((s, i) => run(`cc-${s}-1`, NOW - (8 - i) * HOUR, prompts[i]));
    const decisions = await decisionsOf(runs, [
      said('o1', NOW - 8 * HOUR - 5000, 'Said in w: keep the old lockfile.'),
      said('o2', NOW - 7 * HOUR - 5000, 'Said in x: no, use pnpm.'),
    ]);
    expect(decisions).toEqual(['- Said in x: no, use pnpm.']);
  });
});
