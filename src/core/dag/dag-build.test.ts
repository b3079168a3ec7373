import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildDag, type DagCandidate, type DagEdgeInput } from './dag-build.js';

const cand = (tool: string, score: number, part = 0, sources: DagCandidate['sources'] = ['search']): DagCandidate => ({
  tool,
  score,
  part,
  sources,
});
const edge = (
  from: string,
  to: string,
  confidence: number,
  type: DagEdgeInput['type'] = 'dependency',
): DagEdgeInput => ({ from, to, type, confidence });

describe('buildDag', () => {
  it('keeps the candidates near the top score, not blindly the top k', () => {
    // 0.9 × the part's top (0.81) and 0.8 × the overall top (0.72): b stays, c and d go.
    const dag = buildDag([cand('a', 0.9), cand('b', 0.82), cand('c', 0.8), cand('d', 0.3)], []);
    expect(dag.tasks.map((t) => t.tool)).toEqual(['a', 'b']);
    expect(dag.leftOut.map((l) => l.tool)).toEqual(['c', 'd']);
  });

  it('orders the tools by confident edges, dependency first', () => {
    const dag = buildDag(
      [cand('write', 0.9), cand('read', 0.85), cand('parse', 0.82)],
      [edge('read', 'parse', 1), edge('parse', 'write', 0.7), edge('write', 'read', 0.35, 'sequence')],
    );
    expect(dag.tasks).toEqual([
      { id: 't1', tool: 'read', dependsOn: [] },
      { id: 't2', tool: 'parse', dependsOn: ['t1'] },
      { id: 't3', tool: 'write', dependsOn: ['t2'] },
    ]);
    // write → read would close a cycle: skipped.
    expect(dag.links.map((l) => `${l.from}>${l.to}`)).toEqual(['read>parse', 'parse>write']);
  });

  it("breaks a loop of equal edges at the one back the runs made, not by the tools' names (walk 18, item 3)", () => {
    const tools = [cand('extract', 0.9), cand('fetch', 0.9)];
    for (const back of [0, 0.25]) {
      const dag = buildDag(tools, [
        { ...edge('extract', 'fetch', 1), inOrder: back },
        { ...edge('fetch', 'extract', 1), inOrder: 1 - back },
      ]);
      expect(dag.tasks.map((t) => [t.tool, t.dependsOn])).toEqual([
        ['fetch', []],
        ['extract', ['t1']],
      ]);
    }
    // Told nothing of the runs' order, the names still decide, as before.
    expect(buildDag(tools, [edge('extract', 'fetch', 1), edge('fetch', 'extract', 1)]).tasks[0]?.tool).toBe('extract');
  });

  it('ignores edges below 0.3 and alternatives for ordering', () => {
    const dag = buildDag([cand('a', 0.9), cand('b', 0.9)], [edge('a', 'b', 0.2), edge('b', 'a', 0.6, 'alternative')]);
    expect(dag.links).toEqual([]);
  });

  it('with ties on, adds a weaker candidate that a strong learned edge ties to a selected tool', () => {
    const candidates = [cand('search_airport', 0.9), cand('flight_search', 0.4), cand('unrelated', 0.4)];
    const edges = [edge('search_airport', 'flight_search', 1)];
    expect(buildDag(candidates, edges).chosen.map((c) => c.tool)).toEqual(['search_airport']);
    const dag = buildDag(candidates, edges, { ties: true });
    expect(dag.chosen.map((c) => [c.tool, c.reason])).toEqual([
      ['search_airport', 'candidate'],
      ['flight_search', 'tied'],
    ]);
    expect(dag.tasks[1]).toEqual({ id: 't2', tool: 'flight_search', dependsOn: ['t1'] });
  });

  it('selects per part and orders unconnected parts as the intent states them', () => {
    const dag = buildDag(
      [
        cand('hotel_search', 0.95, 1),
        cand('flight_search', 0.8, 0),
        cand('car_rental', 0.3, 1),
        cand('weak_part', 0.5, 2),
      ],
      [],
    );
    expect(dag.tasks.map((t) => [t.tool, t.dependsOn])).toEqual([
      ['flight_search', []],
      ['hotel_search', ['t1']],
    ]);
    expect(dag.links).toEqual([{ from: 'flight_search', to: 'hotel_search', type: 'intent-order', confidence: null }]);
  });

  it('places a boosted tool in the part the search matched it best, not the earlier one the cap ties it to', () => {
    // "manage a course's content. Delete the content. Retrieve the course content": a boost of past runs lifts
    // get_content to the cap 1 in parts 0 and 2; the search matched it better in part 2 (0.97 vs 0.95).
    const boosted = (tool: string, part: number, search: number): DagCandidate => ({
      ...cand(tool, 1, part, ['search', 'memory']),
      placeBy: search,
    });
    const dag = buildDag(
      [boosted('get_content', 0, 0.95), cand('delete_content', 0.94, 1), boosted('get_content', 2, 0.97)],
      [],
    );
    expect(dag.chosen.map((c) => [c.tool, c.part])).toEqual([
      ['get_content', 2],
      ['delete_content', 1],
    ]);
    expect(dag.links).toEqual([{ from: 'delete_content', to: 'get_content', type: 'intent-order', confidence: null }]);
  });

  it('links a part by the tool the search matched best there, not one a boost lifted above it', () => {
    const dag = buildDag(
      [
        { ...cand('drug_side_effects', 0.99, 0, ['search', 'memory']), placeBy: 0.85 },
        cand('medication_side_effects', 0.95, 0),
        cand('toxicity', 0.9, 1),
      ],
      [],
      { keepRatio: 0.8 },
    );
    expect(dag.chosen.map((c) => c.tool)).toEqual(['drug_side_effects', 'medication_side_effects', 'toxicity']);
    expect(dag.links).toEqual([
      { from: 'medication_side_effects', to: 'toxicity', type: 'intent-order', confidence: null },
    ]);
    // Without a placing score, the part's best-scored tool heads it, as before.
    const plain = buildDag([cand('a', 0.99, 0), cand('b', 0.95, 0), cand('c', 0.9, 1)], [], { keepRatio: 0.8 });
    expect(plain.links.map((l) => `${l.from}>${l.to}`)).toEqual(['a>c']);
  });

  it('caps the DAG at maxTools', () => {
    const many = Array.from({ length: 12 }, (_, i) => cand(`t${String(i).padStart(2, '0')}`, 0.9));
    expect(buildDag(many, []).tasks).toHaveLength(8);
  });

  it('never returns a cycle, for any edges', () => {
    const tools = ['a', 'b', 'c', 'd', 'e'];
    const arbEdges = fc.array(
      fc.record({
        from: fc.constantFrom(...tools),
        to: fc.constantFrom(...tools),
        type: fc.constantFrom('dependency', 'contains', 'sequence', 'alternative'),
        confidence: fc.double({ min: 0, max: 1, noNaN: true }),
      }),
      { maxLength: 25 },
    );
    fc.assert(
      fc.property(
        arbEdges,
        fc.array(fc.double({ min: 0.5, max: 1, noNaN: true }), { minLength: 5, maxLength: 5 }),
        (edges, scores) => {
          const dag = buildDag(
            tools.map((t, i) => cand(t, scores[i] ?? 1, i % 2)),
            edges as DagEdgeInput[],
            { keepRatio: 0 },
          );
          const position = new Map(dag.tasks.map((t, i) => [t.id, i]));
          for (const [i, task] of dag.tasks.entries())
            for (const dep of task.dependsOn) expect(position.get(dep)).toBeLessThan(i);
          expect(new Set(dag.tasks.map((t) => t.tool)).size).toBe(dag.tasks.length);
          // Every chosen tool is a task: a cycle cannot hide by dropping tools out of the order.
          expect(dag.tasks.map((t) => t.tool).sort()).toEqual(dag.chosen.map((c) => c.tool).sort());
          // Every link is an edge between tasks, from an earlier task to a later one.
          const at = new Map(dag.tasks.map((t, i) => [t.tool, i]));
          for (const l of dag.links) expect(at.get(l.from) as number).toBeLessThan(at.get(l.to) as number);
        },
      ),
    );
  });

  it('ignores the input order of candidates and edges: ties are broken by data (issue 17, property)', () => {
    const tools = ['a', 'b', 'c', 'd', 'e'];
    // Few distinct values, so that equal scores and equal confidences are common.
    const level = fc.constantFrom(0.3, 0.5, 0.7, 0.9, 1);
    const arbCandidates = fc.array(
      fc.record({
        tool: fc.constantFrom(...tools),
        score: level,
        part: fc.nat(2),
        sources: fc.constant(['search'] as const),
      }),
      { maxLength: 12 },
    );
    const arbEdges = fc.uniqueArray(
      fc.record({
        from: fc.constantFrom(...tools),
        to: fc.constantFrom(...tools),
        type: fc.constantFrom('dependency', 'contains', 'sequence', 'alternative'),
        confidence: level,
      }),
      { maxLength: 20, selector: (e) => `${e.from}>${e.to}:${e.type}` },
    );
    const shuffle = <T>(items: readonly T[], keys: readonly number[]): T[] =>
      items
        .map((item, i) => ({ item, key: keys[i % Math.max(1, keys.length)] ?? 0, i }))
        .sort((x, y) => x.key - y.key || y.i - x.i)
        .map((x) => x.item);
    fc.assert(
      fc.property(
        arbCandidates,
        arbEdges,
        fc.array(fc.nat(), { minLength: 1, maxLength: 30 }),
        (candidates, edges, keys) => {
          const once = buildDag(candidates as DagCandidate[], edges as DagEdgeInput[]);
          expect(buildDag(shuffle(candidates as DagCandidate[], keys), shuffle(edges as DagEdgeInput[], keys))).toEqual(
            once,
          );
          expect(buildDag([...candidates].reverse() as DagCandidate[], [...edges].reverse() as DagEdgeInput[])).toEqual(
            once,
          );
        },
      ),
    );
  });
});
