import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDemo } from '../demo/demo.js';
import { openCredence, type Credence } from '../engine.js';
import { openSqliteStore } from '../../store/sqlite/sqlite-store.js';
import { graphPayload } from '../../web/api.js';

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
