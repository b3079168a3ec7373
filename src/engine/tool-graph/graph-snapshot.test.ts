import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDemo } from '../demo/demo.js';
import { openCredence, type Credence } from '../engine.js';
import { openSqliteStore } from '../../store/sqlite/sqlite-store.js';
import { graphPayload } from '../../web/api.js';
import { patchCatalogue } from './graph-snapshot.js';
import type { ToolRecord } from '../../store/types.js';

const NOW = '2026-02-02T09:00:00Z';
const dir = mkdtempSync(join(tmpdir(), 'credence-snapshot-'));
let credence: Credence;

beforeAll(async () => {
  credence = await openCredence({ store: openSqliteStore({ path: ':memory:' }), now: NOW, scope: 'demo', cwd: dir });
  await runDemo(credence);
});
afterAll(async () => {
  await credence.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('one graph snapshot (issue 18)', () => {
  it('status, the dashboard graph and tool search give the same PageRank for the same tool', async () => {
    // Each surface reads from an engine of its own over the one store, as the CLI, the dashboard and an MCP server
    // would.
    const [forStatus, forDashboard, forSearch] = await Promise.all([1, 2, 3].map(() => credence.forScope('demo')));
    const status = await (forStatus as Credence).status();
    const central = status.graph.central;
    expect(central.length).toBeGreaterThanOrEqual(3);
    const max = (central[0] as { pageRank: number }).pageRank;

    const graph = await graphPayload(forDashboard as Credence);
    const drawn = new Map(graph.nodes.id.map((id, i) => [id, graph.nodes.pageRank[i] as number]));

    for (const { tool, pageRank } of central) {
      expect(drawn.get(tool)).toBeCloseTo(pageRank, 6);
      const found = (await (forSearch as Credence).searchTools(tool, { limit: 50, track: false })).find(
        (r) => r.tool === tool,
      );
      expect(found, `tool search finds ${tool}`).toBeDefined();
      // Search's graph part is the tool's PageRank over the most central tool's.
      expect(found?.parts.centrality).toBeCloseTo(pageRank / max, 12);
    }
    // The most central tool is drawn first.
    expect(graph.nodes.id[0]).toBe(central[0]?.tool);
  });
});

describe('the catalogue patched with what was written since (issue 20)', () => {
  it('equals the catalogue listed again: tools rewritten, added anywhere in id order, and removed', () => {
    const ids = ['b_tool', 'a_tool', 'Z_upper', 'é_accent', 'z_last', '𝒳_astral', '\uffee_high', 'm_mid', 'a_tool_2'];
    const byteOrder = (list: ToolRecord[]) =>
      [...list].sort((x, y) => Buffer.compare(Buffer.from(x.id), Buffer.from(y.id)));
    let seed = 5;
    const next = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed / 2 ** 32;
    };
    let held: ToolRecord[] = [];
    let catalogue: ToolRecord[] = [];
    for (let step = 0; step < 200; step += 1) {
      const changed: ToolRecord[] = [];
      const removed: string[] = [];
      const id = ids[Math.floor(next() * ids.length)] as string;
      if (next() < 0.3 && held.some((t) => t.id === id)) removed.push(id);
      else changed.push({ id, description: `step ${step}` });
      held = byteOrder([...held.filter((t) => t.id !== id), ...changed]);
      catalogue = patchCatalogue(catalogue, changed, removed);
      expect(catalogue).toEqual(held);
    }
  });
});
