import { describe, expect, it } from 'vitest';
import {
  buildGraphIndex,
  patchGraphIndex,
  type GraphEdge,
  type GraphEdgeChange,
  type GraphIndex,
} from './graph-index.js';

// Issue 20: a recorded call changes an edge or two of the tool graph; its index is patched at those pairs and must
// equal the one built from every edge (ids, rows, weights and out-weights to the bit).

const plain = (g: GraphIndex) => ({
  ids: [...g.ids],
  indexOf: [...g.indexOf.entries()],
  offsets: [...g.offsets],
  targets: [...g.targets],
  weights: [...g.weights],
  outWeight: [...g.outWeight],
  undirected: g.undirected,
});

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const NAMES = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'B', 'é', '𝒳', 'a_1', 'z', 'zz', 'm', 'n'];

describe('patchGraphIndex', () => {
  for (const undirected of [false, true]) {
    const kind = undirected ? 'undirected' : 'directed';
    it(`equals a build from every edge after pairs are set, added and new nodes come (${kind})`, () => {
      const random = rng(undirected ? 7 : 3);
      const pick = (n: number) => NAMES[Math.floor(random() * n)] as string;
      for (let round = 0; round < 60; round += 1) {
        // Parallel edges too (merged by their max weight), over the first names only: the others come later.
        let edges: GraphEdge[] = Array.from({ length: 3 + Math.floor(random() * 20) }, () => ({
          from: pick(8),
          to: pick(8),
          weight: Math.round(random() * 100) / 97,
        }));
        let index = buildGraphIndex(edges, { undirected });
        for (let step = 0; step < 6; step += 1) {
          const changes: GraphEdgeChange[] = [];
          for (let k = 1 + Math.floor(random() * 3); k > 0; k -= 1) {
            const from = pick(random() < 0.3 ? NAMES.length : 8);
            const to = pick(random() < 0.3 ? NAMES.length : 8);
            const weight = random() < 0.1 ? 0 : random();
            const samePair = (e: GraphEdge) =>
              (e.from === from && e.to === to) || (undirected && e.from === to && e.to === from);
            edges = [...edges.filter((e) => !samePair(e)), { from, to, weight }];
            changes.push({ from, to, weight });
            if (undirected) changes.push({ from: to, to: from, weight });
          }
          const patched = patchGraphIndex(index, changes);
          const built = buildGraphIndex(edges, { undirected });
          expect(patched).toBeDefined();
          expect(plain(patched as GraphIndex)).toEqual(plain(built));
          index = patched as GraphIndex;
        }
      }
    });
  }

  it('leaves a pair that had no edge as it was, and gives up on one that loses its last edge', () => {
    const graph = buildGraphIndex([
      { from: 'a', to: 'b', weight: 0.5 },
      { from: 'b', to: 'c', weight: 0.7 },
    ]);
    expect(plain(patchGraphIndex(graph, [{ from: 'c', to: 'a', weight: undefined }]) as GraphIndex)).toEqual(
      plain(graph),
    );
    expect(patchGraphIndex(graph, [{ from: 'a', to: 'b', weight: undefined }])).toBeUndefined();
    expect(patchGraphIndex(graph, [{ from: 'a', to: 'c', weight: Number.NaN }])).toBeUndefined();
  });
});
