import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openCredence, type Credence } from '../engine.js';
import { openSqliteStore } from '../../store/sqlite/sqlite-store.js';
import { GATE_RULE } from '../../core/experience/dag-gate.js';
import type { Store } from '../../store/types.js';

// Issue 20: the DAG's calibration and the way it is chosen, measured by replaying the scope's past runs, are kept
// in the store, so a new process over the same file reads them instead of replaying again.

const NOW = '2026-03-03T10:00:00Z';
const dir = mkdtempSync(join(tmpdir(), 'credence-fits-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const STEPS = ['fetch', 'parse', 'store', 'send', 'render', 'resize'];
const THINGS = ['invoice', 'image', 'email', 'report'];

async function open(path: string): Promise<{ credence: Credence; store: Store }> {
  const store = openSqliteStore({ path });
  return { store, credence: await openCredence({ store, now: NOW, scope: 'fits', cwd: dir }) };
}

async function record(credence: Credence, count: number, from: number): Promise<void> {
  for (let i = from; i < from + count; i += 1) {
    const thing = THINGS[i % THINGS.length] as string;
    const steps = [STEPS[i % STEPS.length], STEPS[(i + 2) % STEPS.length]] as string[];
    const at = new Date(Date.parse(NOW) - (5000 - i) * 60_000).toISOString();
    await credence.recordExecution({
      intent: `${steps.join(' and ')} the ${thing}`,
      startedAt: at,
      calls: steps.map((s, j) => ({
        tool: `${s}_${thing}`,
        status: 'success',
        at,
        ...(j > 0 ? { consumes: [0] } : {}),
      })),
    });
  }
}

describe('fits measured on replays (issue 20)', () => {
  it('a new process reads the stored fits and answers as the process that measured them', async () => {
    const path = join(dir, 'reuse.db');
    const first = await open(path);
    await first.credence.addTools(
      STEPS.flatMap((s) => THINGS.map((t) => ({ id: `${s}_${t}`, description: `${s} one ${t}` }))),
    );
    await record(first.credence, 40, 0);
    const measured = await first.credence.suggestDag('parse and send the email', { track: false });
    expect(measured.replays).toBeGreaterThan(0);
    const stored = await first.store.getFit('fits', 'calibration');
    expect(stored).toMatchObject({ runs: 40, tools: STEPS.length * THINGS.length });
    expect(JSON.parse(stored?.value ?? '{}').replays).toBe(measured.replays);
    const way = await first.store.getFit('fits', `dag-way-v${GATE_RULE}`);
    expect(way).toBeDefined();
    // A verdict kept under the gate's first rule (its fit named without a number) is not read as one of this rule.
    const planted = { ...JSON.parse(way?.value ?? '{}'), way: 'search', why: 'kept under the first rule' };
    await first.store.putFit('fits', {
      ...(way as NonNullable<typeof way>),
      name: 'dag-way',
      value: JSON.stringify(planted),
    });
    await first.credence.close();

    const second = await open(path);
    try {
      expect(await second.credence.suggestDag('parse and send the email', { track: false })).toEqual(measured);
      // What the second process used is the stored fit: one changed in the store shows in its answer.
      const fit = JSON.parse(stored?.value ?? '{}');
      await second.store.putFit('fits', {
        ...(stored as NonNullable<typeof stored>),
        value: JSON.stringify({ ...fit, replays: 4321 }),
      });
      const third = await open(path);
      expect((await third.credence.suggestDag('render and resize the image', { track: false })).replays).toBe(4321);
      await third.credence.close();
    } finally {
      await second.credence.close();
    }
  }, 60_000);

  it('past runs grown by more than a tenth are measured again, and the new fit replaces the stored one', async () => {
    const path = join(dir, 'refit.db');
    const first = await open(path);
    await first.credence.addTools(
      STEPS.flatMap((s) => THINGS.map((t) => ({ id: `${s}_${t}`, description: `${s} one ${t}` }))),
    );
    await record(first.credence, 40, 0);
    await first.credence.suggestDag('parse and send the email', { track: false });
    const before = await first.store.getFit('fits', 'calibration');
    await first.store.putFit('fits', { ...(before as NonNullable<typeof before>), value: '{"replays":4321}' });
    await first.credence.close();

    const second = await open(path);
    try {
      await record(second.credence, 20, 40);
      const dag = await second.credence.suggestDag('parse and send the email', { track: false });
      expect(dag.replays).not.toBe(4321);
      expect(await second.store.getFit('fits', 'calibration')).toMatchObject({ runs: 60 });
    } finally {
      await second.credence.close();
    }
  }, 60_000);
});
