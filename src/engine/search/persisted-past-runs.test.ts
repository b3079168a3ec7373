import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { openCredence, type Credence } from '../engine.js';
import { openSqliteStore } from '../../store/sqlite/sqlite-store.js';
import type { Store } from '../../store/types.js';

// Issue 20: the scope's past runs are persisted (migration 11), so a new process reads them and the runs written
// since instead of listing every run and call, and answers as a process that listed them all.

const NOW = '2026-03-03T10:00:00Z';
const dir = mkdtempSync(join(tmpdir(), 'credence-past-runs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const STEPS = ['fetch', 'parse', 'store', 'send', 'render', 'resize'];
const THINGS = ['invoice', 'image', 'email', 'report'];
const ASKED = ['parse and send the email', 'render and resize the image', 'fetch the invoice then store it'];

async function open(path: string): Promise<{ credence: Credence; store: Store }> {
  const store = openSqliteStore({ path });
  return { store, credence: await openCredence({ store, now: NOW, scope: 'runs', cwd: dir }) };
}

async function record(credence: Credence, count: number, from: number): Promise<void> {
  for (let i = from; i < from + count; i += 1) {
    const thing = THINGS[i % THINGS.length] as string;
    const steps = [STEPS[i % STEPS.length], STEPS[(i + 3) % STEPS.length], STEPS[(i * 7) % 5]] as string[];
    const at = new Date(Date.parse(NOW) - ((i * 37) % 900) * 60_000).toISOString();
    await credence.recordExecution({
      intent: `${steps.join(' then ')} the ${thing} ${i % 3 === 0 ? 'quickly' : ''}`,
      startedAt: at,
      calls: steps.map((s, j) => ({
        tool: `${s}_${thing}`,
        status: i % 5 === 0 && j === 2 ? 'failure' : 'success',
        at,
        ...(j > 0 ? { consumes: [j - 1] } : {}),
      })),
    });
  }
}

/** Everything the memory of runs shows: DAGs, tool searches and similar runs for a few intents. */
async function answers(credence: Credence) {
  const out = [];
  for (const intent of ASKED)
    out.push({
      dag: await credence.suggestDag(intent, { track: false }),
      tools: await credence.searchTools(intent, { track: false }),
      similar: await credence.similarExecutions(intent),
    });
  return out;
}

describe('past runs persisted for a new process (issue 20)', () => {
  it('a new process reads them and the runs written since, and answers as one that lists every run', async () => {
    const path = join(dir, 'runs.db');
    const first = await open(path);
    await first.credence.addTools(
      STEPS.flatMap((s) => THINGS.map((t) => ({ id: `${s}_${t}`, description: `${s} one ${t}` }))),
    );
    await record(first.credence, 50, 0);
    await first.credence.suggestDag(ASKED[0] as string, { track: false });
    const persisted = await first.store.readPastRuns('runs');
    expect(persisted?.revision).toBe(await first.store.revision('runs'));
    // Another process writes more runs: the persisted ones are now behind.
    await record(first.credence, 12, 50);
    await first.credence.close();

    const second = await open(path);
    const listed = vi.spyOn(second.store, 'listExecutions');
    const read = await answers(second.credence);
    expect(listed).not.toHaveBeenCalled();
    // Found a few runs behind: brought up to date in the process, the persisted copy left as it was.
    expect((await second.store.readPastRuns('runs'))?.revision).toBe(persisted?.revision);
    await second.credence.close();

    // A process with nothing persisted it can use (a later revision than the store's) lists every run.
    const third = await open(path);
    await third.store.writePastRuns('runs', 1e9, new Uint8Array([1, 2, 3]));
    const listing = vi.spyOn(third.store, 'listExecutions');
    expect(await answers(third.credence)).toEqual(read);
    expect(listing).toHaveBeenCalled();
    await third.credence.close();
  }, 60_000);

  it('read in pieces that two later writes took away, they are read again and answer the same', async () => {
    const path = join(dir, 'outrun.db');
    const first = await open(path);
    await first.credence.addTools(
      STEPS.flatMap((s) => THINGS.map((t) => ({ id: `${s}_${t}`, description: `${s} one ${t}` }))),
    );
    // Enough runs for their bytes to span many pieces: a query reads a few of them.
    await record(first.credence, 300, 0);
    const expected = await answers(first.credence);
    await first.credence.close();

    const reader = await open(path);
    // One answer read from the pieces, then another process writes the runs again twice (a new generation each).
    const intent = ASKED[0] as string;
    expect(await reader.credence.suggestDag(intent, { track: false })).toEqual(expected[0]?.dag);
    const other = openSqliteStore({ path: join(dir, 'outrun.db') });
    const kept = (await other.readPastRuns('runs')) as { revision: number; data: Uint8Array };
    expect(await other.writePastRuns('runs', kept.revision, kept.data)).toBe(true);
    expect(await other.writePastRuns('runs', kept.revision, kept.data)).toBe(true);
    await other.close();
    expect(await answers(reader.credence)).toEqual(expected);
    await reader.credence.close();
  }, 60_000);
});
