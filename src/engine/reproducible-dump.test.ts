/**
 * Walk 18, item 5: a fixed `now` did not make the store reproducible. Tools' `created_at`/`updated_at` and fits'
 * `fitted_at` came from the machine clock, so two identical runs dumped different bytes, and a tool first called in a
 * run of the engine's `now` was created months after it.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openCredence } from './engine.js';

const NOW = Date.parse('2026-02-02T09:00:00Z');

/** The same writes, every way a tool or a fit is written, dumped; the machine clock set to `machine` meanwhile. */
async function dumpAt(machine: string): Promise<string> {
  vi.useFakeTimers({ toFake: ['Date'], now: Date.parse(machine) });
  let n = 0;
  const c = await openCredence({ db: ':memory:', scope: 'dd', now: NOW, newId: () => `id-${(n += 1)}` });
  await c.addTools([
    { id: 'read_file', description: 'Read a file' },
    { id: 'parse_json', description: 'Parse JSON' },
  ]);
  // Re-adding updates a tool.
  await c.addTools([{ id: 'read_file', description: 'Read a whole file' }]);
  for (let i = 0; i < 6; i += 1)
    await c.recordExecution({
      id: `r${i}`,
      intent: `read the config ${i}`,
      calls: [
        { tool: 'read_file', status: 'success' },
        { tool: 'parse_json', status: 'success', consumes: [0] },
        { tool: 'new_tool', status: 'success' },
      ],
    });
  await c.appendCalls({ id: 's1', intent: 'a session' }, [{ tool: 'appended_tool', status: 'success' }]);
  await c.declareEdge({ from: 'read_file', to: 'declared_tool', type: 'sequence' });
  await c.suggestDag('read the config');
  const lines: string[] = [];
  await c.dump((s) => {
    lines.push(s);
  });
  await c.close();
  vi.useRealTimers();
  return lines.join('');
}

afterEach(() => {
  vi.useRealTimers();
});

describe('a fixed now (walk 18, item 5)', () => {
  it("dumps two identical runs byte for byte, whatever the machine's clock says", async () => {
    const first = await dumpAt('2030-05-05T00:00:00Z');
    const second = await dumpAt('2031-07-07T12:34:56Z');
    expect(second).toBe(first);
    const rows = first
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as { t: string; r: Record<string, unknown> });
    const tools = rows.filter((row) => row.t === 'tools').map((row) => row.r);
    expect(tools.map((t) => t.id).sort()).toEqual([
      'appended_tool',
      'declared_tool',
      'new_tool',
      'parse_json',
      'read_file',
    ]);
    for (const t of tools) expect([t.id, t.created_at, t.updated_at]).toEqual([t.id, NOW, NOW]);
    const fits = rows.filter((row) => row.t === 'fits').map((row) => row.r);
    expect(fits.length).toBeGreaterThan(0);
    for (const f of fits) expect([f.name, f.fitted_at]).toEqual([f.name, NOW]);
  });
});
