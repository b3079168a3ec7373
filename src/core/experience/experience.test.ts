import { describe, expect, it } from 'vitest';
import { IntentIndex, intentTerms } from './intent-index.js';
import { taskText } from './task-text.js';
import { beyondSupport, fitIsotonic, predictIsotonic, SUPPORT_MARGIN } from './isotonic.js';
import { setF1, voteNeighbours, type Neighbour } from './neighbour-vote.js';
import { edgeKey, loneLinks, shapeKey, workedShape, workflowId, workflowShape } from './workflow-shape.js';

describe('workflowShape', () => {
  it('keeps distinct tools in first-use order and links consumes, else the call before', () => {
    const shape = workflowShape([
      { tool: 'search' },
      { tool: 'details', consumes: [0] },
      { tool: 'details', consumes: [0] },
      { tool: 'reviews' },
    ]);
    expect(shape.tools).toEqual(['search', 'details', 'reviews']);
    expect(shape.edges).toEqual([
      ['search', 'details'],
      ['details', 'reviews'],
    ]);
  });

  it("follows a run's known dependencies: a task with none is a root, never linked to a sibling", () => {
    // An explicit DAG run layer by layer: read and stat side by side, then write after read (no reference).
    const dag = workflowShape([
      { tool: 'read', dependsOn: [] },
      { tool: 'stat', dependsOn: [] },
      { tool: 'write', dependsOn: [0] },
      { tool: 'log', consumes: [2], dependsOn: [1] },
    ]);
    expect(dag.edges).toEqual([
      ['read', 'write'],
      ['stat', 'log'],
      ['write', 'log'],
    ]);
    // The same calls without known dependencies stay a sequence (hooks' calls).
    const plain = workflowShape([{ tool: 'read' }, { tool: 'stat' }, { tool: 'write' }]);
    expect(plain.edges).toEqual([
      ['read', 'stat'],
      ['stat', 'write'],
    ]);
  });

  it('gives runs of the same tools and edges one key and one id, whatever the order or repeats', () => {
    const a = workflowShape([{ tool: 'a' }, { tool: 'b', consumes: [0] }, { tool: 'c', consumes: [0] }]);
    const b = workflowShape([{ tool: 'a' }, { tool: 'c', consumes: [0] }, { tool: 'b', consumes: [0] }]);
    const other = workflowShape([{ tool: 'a' }, { tool: 'b' }, { tool: 'c' }]);
    expect(a.key).toBe(b.key);
    expect(workflowId(a.key)).toBe(workflowId(b.key));
    expect(workflowId(a.key)).toMatch(/^wf-[0-9a-f]{12}$/);
    expect(other.key).not.toBe(a.key);
    expect(shapeKey(['x'], [])).not.toBe(shapeKey(['x', 'y'], []));
  });

  it('ignores a consumes index that does not point to an earlier call, and self links', () => {
    const shape = workflowShape([
      { tool: 'a', consumes: [3] },
      { tool: 'a', consumes: [0] },
      { tool: 'b', consumes: [5] },
    ]);
    expect(shape.edges).toEqual([]);
  });
});

describe('workedShape', () => {
  it('leaves out a tool whose every call failed but keeps the order through it (review F, item 6)', () => {
    const ok = (tool: string, more: object = {}) => ({ tool, status: 'success', ...more });
    const failed = (tool: string, more: object = {}) => ({ tool, status: 'failure', ...more });
    // Read, Grep failed, its fallback search_files: search_files still comes after Read.
    const fallback = workedShape([ok('Read'), failed('Grep'), ok('filesystem:search_files')]);
    expect(fallback.tools).toEqual(['Read', 'filesystem:search_files']);
    expect(fallback.edges).toEqual([['Read', 'filesystem:search_files']]);
    expect(fallback.key).toBe(shapeKey(['Read', 'filesystem:search_files'], [['Read', 'filesystem:search_files']]));
    // Through a run of failed tools, and to each tool after them in a DAG; a root that failed links nothing.
    const dag = workedShape([
      failed('lint'),
      ok('write'),
      failed('check', { dependsOn: [1] }),
      failed('verify', { dependsOn: [2] }),
      ok('read', { dependsOn: [3] }),
      ok('mail', { dependsOn: [3] }),
      ok('stat', { dependsOn: [] }),
    ]);
    expect(dag.tools).toEqual(['write', 'read', 'mail', 'stat']);
    expect(dag.edges).toEqual([
      ['write', 'read'],
      ['write', 'mail'],
    ]);
    // A tool that failed once and worked once keeps its place and links.
    expect(workedShape([ok('a'), failed('b'), ok('b'), ok('c')]).edges).toEqual([
      ['a', 'b'],
      ['b', 'c'],
    ]);
  });
});

describe('loneLinks', () => {
  it('names the links of a run that no other run made, for its replay to hide', () => {
    const shape = workflowShape([{ tool: 'a' }, { tool: 'b', consumes: [0] }, { tool: 'c', consumes: [1] }]);
    const counts = new Map([
      [edgeKey('a', 'b'), 3],
      [edgeKey('b', 'c'), 1],
    ]);
    const linked = (from: string, to: string) => counts.get(edgeKey(from, to)) ?? 0;
    expect([...loneLinks(shape, linked)]).toEqual([edgeKey('b', 'c')]);
    counts.set(edgeKey('b', 'c'), 2);
    expect(loneLinks(shape, linked).size).toBe(0);
  });
});

describe('IntentIndex', () => {
  const index = new IntentIndex([
    'find the movies of Sofia Coppola',
    'show the reviews of a movie',
    'who directed the top rated movie',
  ]);

  it('ranks the intent sharing the rarer words first, and treats movie / movies as one term', () => {
    const hits = index.search('list the movies directed by Greta Gerwig', 3);
    expect(hits[0]?.index).toBe(2);
    expect(hits.map((h) => h.index)).toContain(0);
  });

  it('after texts are added and removed, answers as an index built from the texts it holds (issue 20)', () => {
    const { next, text } = draws(
      ['movie', 'review', 'director', 'actor', 'rating', 'poster', 'trailer', 'award', 'studio'],
      11,
    );
    const kept = new IntentIndex();
    const held: { slot: number; text: string }[] = [];
    for (let step = 0; step < 120; step += 1) {
      if (held.length > 0 && next() < 0.35) {
        const [gone] = held.splice(Math.floor(next() * held.length), 1);
        kept.remove(gone?.slot as number, gone?.text as string);
      } else {
        const t = text();
        held.push({ slot: kept.add(t), text: t });
      }
      const rebuilt = new IntentIndex(held.map((h) => h.text));
      const query = text();
      const position = new Map(held.map((h, i) => [h.slot, i]));
      const answer = kept.search(query, 5, undefined, (slot) => position.get(slot) as number);
      expect(answer.map((h) => ({ index: position.get(h.index), score: h.score }))).toEqual(rebuilt.search(query, 5));
      expect(kept.size).toBe(held.length);
    }
  });

  it('answers as one rebuilt after texts added again as they were (a recorded call: the same mean length)', () => {
    const { next, text } = draws(
      ['send', 'email', 'team', 'weather', 'forecast', 'book', 'flight', 'report', 'summary'],
      23,
    );
    const kept = new IntentIndex();
    const held: { slot: number; text: string }[] = [];
    let again = 0;
    for (let step = 0; step < 150; step += 1) {
      const r = next();
      if (held.length > 0 && r < 0.5) {
        // The same text out of its slot and into a new one: the norms of the slots held stay as they were.
        const [moved] = held.splice(Math.floor(next() * held.length), 1);
        kept.remove(moved?.slot as number, moved?.text as string);
        held.push({ slot: kept.add(moved?.text as string), text: moved?.text as string });
        again += 1;
      } else if (held.length > 0 && r < 0.6) {
        const [gone] = held.splice(Math.floor(next() * held.length), 1);
        kept.remove(gone?.slot as number, gone?.text as string);
      } else {
        const t = text();
        held.push({ slot: kept.add(t), text: t });
      }
      const rebuilt = new IntentIndex(held.map((h) => h.text));
      const position = new Map(held.map((h, i) => [h.slot, i]));
      for (const query of [text(), text()]) {
        const answer = kept.search(query, 5, undefined, (slot) => position.get(slot) as number);
        expect(answer.map((h) => ({ index: position.get(h.index), score: h.score }))).toEqual(rebuilt.search(query, 5));
      }
    }
    expect(again).toBeGreaterThan(50);
  });

  it('keeps the best `limit` hits by score, ties by rank, skip left out: a search of every text, cut', () => {
    const words = ['movie', 'review', 'director', 'actor', 'rating', 'poster'];
    let seed = 5;
    const next = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed / 2 ** 32;
    };
    // Few words, short texts: many equal scores, so the order of ties decides most of the answer.
    const text = () =>
      Array.from({ length: 1 + Math.floor(next() * 3) }, () => words[Math.floor(next() * 6)]).join(' ');
    const texts = Array.from({ length: 60 }, text);
    const all = new IntentIndex(texts);
    const ranks = Array.from({ length: 60 }, () => Math.floor(next() * 1000));
    const rank = (slot: number) => ranks[slot] as number;
    for (let round = 0; round < 40; round += 1) {
      const query = text();
      const skip = round % 3 === 0 ? Math.floor(next() * 60) : undefined;
      const every = all.search(query, 1000, skip, rank);
      const terms = new Set(intentTerms(query));
      const holding = texts.flatMap((t, i) => (i !== skip && intentTerms(t).some((w) => terms.has(w)) ? [i] : []));
      expect(every.map((h) => h.index).sort((a, b) => a - b)).toEqual(holding);
      for (let i = 1; i < every.length; i += 1) {
        const [a, b] = [every[i - 1], every[i]] as [{ index: number; score: number }, { index: number; score: number }];
        expect(a.score > b.score || (a.score === b.score && rank(a.index) <= rank(b.index))).toBe(true);
      }
      for (const limit of [1, 3, 7]) expect(all.search(query, limit, skip, rank)).toEqual(every.slice(0, limit));
    }
    expect(all.search('movie', 0)).toEqual([]);
  });

  it('scores by Okapi BM25 (k1 1.2, b 0.75) over its terms, as computed by hand', () => {
    const texts = [
      'find the movies of Sofia Coppola',
      'show the reviews of a movie',
      'who directed the top rated movie',
    ];
    const terms = texts.map(intentTerms);
    const mean = terms.reduce((t, x) => t + x.length, 0) / terms.length;
    const query = [...new Set(intentTerms('movie reviews directed'))];
    const expected = terms.map((doc) =>
      query.reduce((score, term) => {
        const tf = doc.filter((t) => t === term).length;
        const df = terms.filter((d) => d.includes(term)).length;
        if (tf === 0) return score;
        const idf = Math.log(1 + (terms.length - df + 0.5) / (df + 0.5));
        return score + (idf * tf * 2.2) / (tf + 1.2 * (1 - 0.75 + (0.75 * doc.length) / mean));
      }, 0),
    );
    for (const hit of new IntentIndex(texts).search('movie reviews directed', 3))
      expect(hit.score).toBeCloseTo(expected[hit.index] as number, 12);
  });

  it('leaves one text out when asked, and finds nothing for unknown words', () => {
    expect(index.search('who directed', 3, 2).map((h) => h.index)).not.toContain(2);
    expect(index.search('zebra', 3)).toEqual([]);
    expect(index.idf('zebra')).toBe(0);
  });
});

describe('fitIsotonic', () => {
  it('is non-decreasing, pools violators and shrinks small blocks toward the mean', () => {
    const fit = fitIsotonic([
      { x: 0.1, y: 0 },
      { x: 0.2, y: 1 },
      { x: 0.3, y: 0 },
      { x: 0.8, y: 1 },
      { x: 0.9, y: 1 },
    ]);
    for (let i = 1; i < fit.ys.length; i += 1) expect(fit.ys[i]).toBeGreaterThanOrEqual(fit.ys[i - 1] as number);
    expect(predictIsotonic(fit, 0.1)).toBeLessThan(predictIsotonic(fit, 1));
    expect(predictIsotonic(fit, 1)).toBeLessThan(1);
    expect(predictIsotonic(fit, 0.1)).toBeGreaterThan(0);
    expect(fit.n).toBe(5);
  });

  it('below the weakest strength it has seen, claims less than its first block', () => {
    const fit = fitIsotonic([0.5, 0.6, 0.7].map((x) => ({ x, y: 1 })));
    expect(predictIsotonic(fit, 0.125)).toBeCloseTo(predictIsotonic(fit, 0.5) / 2, 12);
    expect(predictIsotonic(fit, 0)).toBe(0);
  });

  it('is beyond its support only below the weakest strength it has seen by more than the margin', () => {
    const repeats = fitIsotonic([1, 1, 1].map((x) => ({ x, y: 1 })));
    expect(beyondSupport(repeats, 1 - SUPPORT_MARGIN)).toBe(false);
    expect(beyondSupport(repeats, 0.74)).toBe(true);
    const spread = fitIsotonic([0.3, 0.9].map((x) => ({ x, y: 1 })));
    expect(beyondSupport(spread, 0.1)).toBe(false);
    expect(beyondSupport(spread, 0.04)).toBe(true);
    expect(beyondSupport(fitIsotonic([]), 0)).toBe(false);
  });

  it('with no point says one half, and with a few perfect points stays below 1', () => {
    expect(predictIsotonic(fitIsotonic([]), 0.4)).toBe(0);
    const three = fitIsotonic([0.5, 0.6, 0.7].map((x) => ({ x, y: 1 })));
    expect(predictIsotonic(three, 0.6)).toBeGreaterThan(0.8);
    expect(predictIsotonic(three, 0.6)).toBeLessThan(1);
  });
});

const near = (id: string, similarity: number, tools: string[], quality = 1): Neighbour => ({
  id,
  intent: id,
  similarity,
  quality,
  shape: workflowShape(tools.map((tool, i) => ({ tool, ...(i > 0 ? { consumes: [i - 1] } : {}) }))),
});

describe('voteNeighbours', () => {
  it('proposes the tools and edges holding half the weight, with how much the neighbours agree', () => {
    const p = voteNeighbours([
      near('r1', 0.9, ['search', 'credits']),
      near('r2', 0.8, ['search', 'credits']),
      near('r3', 0.4, ['popular']),
    ]);
    expect(p.tools.map((t) => t.tool)).toEqual(['credits', 'search']);
    expect(p.edges).toEqual([{ from: 'search', to: 'credits', vote: expect.closeTo(1.45 / 1.61, 6), inOrder: 1 }]);
    expect(p.agreement).toBeCloseTo(1.45 / 1.61, 6);
    expect(p.strength).toBeCloseTo(p.agreement * p.similarity, 12);
    expect(p.tools[0]?.support).toEqual(['r1', 'r2']);
  });

  it('says of a loop which edge goes back: the one to a tool the runs called first (walk 18, item 3)', () => {
    const loop = (id: string, similarity: number): Neighbour => ({
      ...near(id, similarity, []),
      shape: workflowShape([
        { tool: 'fetch' },
        { tool: 'extract', consumes: [0] },
        { tool: 'fetch', consumes: [1] },
        { tool: 'extract', consumes: [2] },
      ]),
    });
    const p = voteNeighbours([loop('r1', 0.9), near('r2', 0.6, ['extract', 'fetch'])]);
    const inOrder = Object.fromEntries(p.edgeVotes.map((e) => [`${e.from}>${e.to}`, e.inOrder]));
    // extract → fetch goes back in r1 (weight 0.81) and forward in r2 (0.36).
    expect(inOrder).toEqual({ 'fetch>extract': 1, 'extract>fetch': expect.closeTo(0.36 / 1.17, 12) });
  });

  it('weighs a failed run down, and always proposes at least the best tool', () => {
    const p = voteNeighbours([near('bad', 0.9, ['a'], 0), near('ok', 0.5, ['b']), near('ok2', 0.5, ['c'])]);
    expect(p.votes.find((v) => v.tool === 'a')?.vote).toBe(0);
    expect(p.tools.map((t) => t.tool)).toEqual(['b', 'c']);
    expect(voteNeighbours([]).tools).toEqual([]);
  });

  it('scores sets by F1', () => {
    expect(setF1(new Set(['a', 'b']), new Set(['a']))).toBeCloseTo(2 / 3, 12);
    expect(setF1(new Set(), new Set())).toBe(1);
  });
});

describe('taskText', () => {
  it('turns names and titles into one word, keeping sentence starts, acronyms and lower-case text', () => {
    expect(taskText("find Tom Hanks's movies")).toBe('find entity entity movies');
    expect(taskText('Who starred in "The Dark Knight"? Show the TV cast.')).toBe(
      'Who starred in entity ? Show the TV cast.',
    );
    expect(taskText('list the films of greta gerwig')).toBe('list the films of greta gerwig');
  });
});

/** A seeded draw in [0, 1) (a linear congruential generator) and texts of 2 to 6 of the nine `words` drawn with it. */
function draws(words: readonly string[], seed: number) {
  let state = seed;
  const next = () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 2 ** 32;
  };
  const text = () => Array.from({ length: 2 + Math.floor(next() * 5) }, () => words[Math.floor(next() * 9)]).join(' ');
  return { next, text };
}
