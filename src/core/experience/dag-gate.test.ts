import { describe, expect, it } from 'vitest';
import { gateMemory, type LinkCount, pooledLinkF1, pooledLinkGain } from './dag-gate.js';

const RIGHT: LinkCount = { right: 2, made: 2, truth: 2 };

describe('learning never does worse: the memory answers only above its noise (issue 19)', () => {
  it('leaves the memory out unless its gain over the search alone stands above one standard error', () => {
    const search = [0.5, 0.6, 0.4, 0.7, 0.5, 0.6];
    const scores = (own: number[]) =>
      new Map([
        ['per-intent', own],
        ['search', search],
      ] as const);
    // Helped on some runs, hurt on others: a mean gain of 0.033 with a standard error of 0.095.
    const mixed = gateMemory(scores([0.9, 0.4, 0.4, 0.5, 0.7, 0.6]), 'per-intent');
    expect(mixed).toMatchObject({ way: 'search', preferred: 'per-intent', replays: 6 });
    expect(mixed.gain).toBeCloseTo(0.2 / 6, 12);
    expect(mixed.standardError).toBeCloseTo(Math.sqrt((0.28 - 6 / 900) / 5 / 6), 12);
    expect(mixed.why).toMatch(
      /^the memory left out: on 6 past runs replayed to choose the way, its best way \(per-intent\) gained 0\.033 ± /,
    );
    // Helped on every run: the learned way answers.
    const agreed = gateMemory(scores(search.map((v, i) => v + 0.2 + 0.01 * i)), 'per-intent');
    expect(agreed).toMatchObject({ way: 'per-intent', preferred: 'per-intent', replays: 6 });
    expect(agreed.why).toMatch(/^the memory is trusted: on 6 past runs replayed to choose the way, .* more than one/);
    // The search preferred by the replays answers as it is.
    expect(gateMemory(scores(search), 'search')).toMatchObject({ way: 'search', gain: 0, standardError: 0 });
  });

  it('leaves the memory out when its gain in tools paid for links lost beyond their noise, and says so', () => {
    const node = { search: [0.5, 0.6, 0.5, 0.6, 0.5, 0.6], own: [0.9, 1, 0.9, 1, 0.9, 1] };
    const edge = { search: [0.6, 0.7, 0.6, 0.7, 0.6, 0.7], own: [0.5, 0.55, 0.45, 0.6, 0.5, 0.55] };
    const mean = (a: number[], b: number[]) => a.map((v, i) => (v + (b[i] as number)) / 2);
    const scores = new Map([
      ['per-intent', mean(node.own, edge.own)],
      ['search', mean(node.search, edge.search)],
    ] as const);
    // The mean of node and edge F1 gained on every run: alone, it lets the memory answer.
    expect(gateMemory(scores, 'per-intent').way).toBe('per-intent');
    const measures = new Map([
      ['per-intent', { node: node.own, edge: edge.own }],
      ['search', { node: node.search, edge: edge.search }],
    ] as const);
    const apart = gateMemory(scores, 'per-intent', measures);
    expect(apart).toMatchObject({ way: 'search', preferred: 'per-intent', replays: 6 });
    expect(apart.why).toMatch(/but lost 0\.125 ± 0\.0\d\d edge F1, more than one standard error$/);
    // Links lost within their noise do not hold it back.
    const near = new Map([
      ['per-intent', { node: node.own, edge: edge.search.map((v, i) => v + (i % 2 === 0 ? -0.02 : 0.01)) }],
      ['search', { node: node.search, edge: edge.search }],
    ] as const);
    expect(gateMemory(scores, 'per-intent', near).way).toBe('per-intent');
  });

  /** `n` runs of `count` links. */
  const runs = (n: number, count: LinkCount): LinkCount[] => Array.from({ length: n }, () => count);
  const mean = (a: readonly number[], b: readonly number[]) => a.map((v, i) => (v + (b[i] as number)) / 2);
  const gate = (
    node: { own: number[]; search: number[] },
    edge: { own: number[]; search: number[] },
    links: { own: LinkCount[]; search: LinkCount[] },
  ) =>
    gateMemory(
      new Map([
        ['per-intent', mean(node.own, edge.own)],
        ['search', mean(node.search, edge.search)],
      ] as const),
      'per-intent',
      new Map([
        ['per-intent', { node: node.own, edge: edge.own, links: links.own }],
        ['search', { node: node.search, edge: edge.search, links: links.search }],
      ] as const),
    );

  it('leaves the memory out when its links pooled over the runs fall, and no edge F1 gain a run bore them', () => {
    const node = { search: [0.5, 0.6, 0.5, 0.6, 0.5, 0.6], own: [0.9, 1, 0.9, 1, 0.9, 1] };
    // Each run made two links. Edge F1 a run saw nothing: where the memory's way added wrong links, the search's one
    // link was wrong too (F1 0 both); elsewhere both made the run's two links.
    const edge = [0, 1, 0, 1, 0, 1];
    const search = [0, 1, 2, 3, 4, 5].map((i) => (i % 2 === 0 ? { right: 0, made: 1, truth: 2 } : RIGHT));
    const own = [0, 1, 2, 3, 4, 5].map((i) => (i % 2 === 0 ? { right: 0, made: 3, truth: 2 } : RIGHT));
    // Pooled: 12 / 21 for the search alone, 12 / 27 for the memory's way (-0.127; -0.125 to first order).
    const wrong = gate(node, { own: edge, search: edge }, { own, search });
    expect(wrong).toMatchObject({ way: 'search', preferred: 'per-intent', replays: 6 });
    // The why gives the pooled F1 itself, search -> memory, not the paired shares the test is made on.
    expect(wrong.why).toMatch(
      /but its edge F1 pooled over the runs fell 0\.571 -> 0\.444 \(search -> memory; its edge/,
    );
    expect(wrong.why).toMatch(/, more than one standard error of the runs paired$/);
    // Where edge F1 gained beyond its noise, the F1 bears the links out, however many wrong ones came with the right.
    const gained = edge.map((v) => v + 0.2 - 0.2 * v);
    expect(gate(node, { own: gained, search: edge }, { own, search }).way).toBe('per-intent');
  });

  it("leaves the memory out when its links pooled fall by over a tenth of the search's, whatever the noise", () => {
    // Twenty runs. On run 0, ten links: the search's all right, the memory's way makes none (edge F1 1 -> 0). On run
    // 1, none: the search makes a wrong one, the memory's way none (0 -> 1). The rest link nothing. Each run's edge F1
    // change is within its noise (mean 0), so are the paired shares (-0.832 ± 0.877); pooled, 0.952 -> 0.
    const n = 20;
    const node = { own: runs(n, RIGHT).map(() => 1), search: runs(n, RIGHT).map(() => 0.6) };
    const edge = {
      own: [0, 1, ...runs(n - 2, RIGHT).map(() => 1)],
      search: [1, 0, ...runs(n - 2, RIGHT).map(() => 1)],
    };
    const none = { right: 0, made: 0, truth: 0 };
    const search = [{ right: 10, made: 10, truth: 10 }, { right: 0, made: 1, truth: 0 }, ...runs(n - 2, none)];
    const own = [{ right: 0, made: 0, truth: 10 }, none, ...runs(n - 2, none)];
    expect(pooledLinkGain(own, search).gain).toBeGreaterThan(-pooledLinkGain(own, search).standardError);
    const fell = gate(node, edge, { own, search });
    expect(fell).toMatchObject({ way: 'search', preferred: 'per-intent', replays: n });
    expect(fell.why).toMatch(/fell 0\.952 -> 0\.000 \(search -> memory; .*\), more than 0\.1 of the search's/);
    // Nine of the ten links right instead: pooled 0.952 -> 0.947, a fall within a tenth and within the noise.
    const near = [{ right: 9, made: 9, truth: 10 }, none, ...runs(n - 2, none)];
    const nearEdge = { own: [18 / 19, 1, ...edge.own.slice(2)], search: edge.search };
    expect(gate(node, nearEdge, { own: near, search }).way).toBe('per-intent');
  });

  it('lets a loss on one run alone, exactly its standard error, be judged by its size in the links pooled', () => {
    // Fifty runs, a tool more found on each. On run 0 the memory's way makes 200 wrong links where the search made the
    // run's two (edge F1 1 -> 0): a mean loss of 0.02 and a standard error of 0.02, as for any loss on one run alone.
    const n = 50;
    const node = { own: runs(n, RIGHT).map(() => 0.9), search: runs(n, RIGHT).map(() => 0.8) };
    const flat = runs(n, RIGHT).map(() => 1);
    const edge = { own: [0, ...flat.slice(1)], search: flat };
    const wrecked = gate(node, edge, {
      own: [{ right: 0, made: 200, truth: 2 }, ...runs(n - 1, RIGHT)],
      search: runs(n, RIGHT),
    });
    expect(wrecked).toMatchObject({ way: 'search', preferred: 'per-intent', replays: n });
    expect(wrecked.why).toMatch(/fell 1\.000 -> 0\.492 \(search -> memory; .*\), more than 0\.1 of the search's/);
    // One wrong link among the two right instead (1 -> 0.8 on run 0): pooled 1.000 -> 0.995, no loss beyond noise;
    // but tools gained with that link lost on a multi-step run are a trade, which keeps the memory out (rule 4).
    const slip = { own: [0.8, ...flat.slice(1)], search: flat };
    const one = gate(node, slip, {
      own: [{ right: 2, made: 3, truth: 2 }, ...runs(n - 1, RIGHT)],
      search: runs(n, RIGHT),
    });
    expect(one.why).not.toMatch(/pooled/);
    expect(one.why).toMatch(/edge F1 on the 50 multi-step runs \(a link to make\) fell 0\.004: tools paid for/);
  });

  it('counts the links missed: more links at the same F1 a run, with every tool found, are no loss', () => {
    // Each run made two links. The search alone makes one, right; the memory's way both and two wrong (F1 2/3 each).
    const edge = Array.from({ length: 10 }, () => 2 / 3);
    const links = { own: runs(10, { right: 2, made: 4, truth: 2 }), search: runs(10, { right: 1, made: 1, truth: 2 }) };
    const way = gate({ own: edge.map(() => 1), search: edge.map(() => 0.8) }, { own: edge, search: edge }, links);
    expect(way.way).toBe('per-intent');
  });

  it('scores a way making no link by the links it missed, not as a draw with one making some wrong', () => {
    // Three links a run. The search alone links on one run of six; the memory's way on all, 3 right of 16.
    const search = [...runs(5, { right: 0, made: 0, truth: 3 }), { right: 1, made: 1, truth: 3 }];
    const own = [
      { right: 2, made: 3, truth: 3 },
      ...runs(4, { right: 0, made: 3, truth: 3 }),
      { right: 1, made: 1, truth: 3 },
    ];
    const edge = { search: [0, 0, 0, 0, 0, 0.5], own: [2 / 3, 0, 0, 0, 0, 0.5] };
    const node = { own: [1, 1, 1, 1, 1, 1], search: [0.8, 0.8, 0.8, 0.8, 0.8, 0.8] };
    // Edge F1 a run gained 0.111 ± 0.111 (no gain beyond noise); pooled, 2 / 21 -> 6 / 34.
    const way = gate(node, edge, { own, search });
    expect(way.way).toBe('per-intent');
    expect(way.why).toMatch(/^the memory is trusted/);
  });

  it('leaves the memory out when tools and links traded on the runs and neither gain stands alone', () => {
    const flat = [0.5, 0.5, 0.5, 0.5, 0.5, 0.5];
    // Tools gained on half the runs and links on the other half, each by as much as it lost on the rest.
    const node = [0.8, 0.3, 0.8, 0.3, 0.8, 0.3];
    const edge = [0.3, 0.8, 0.3, 0.8, 0.3, 0.8];
    const scores = new Map([
      ['per-intent', mean(node, edge)],
      ['search', flat],
    ] as const);
    // The mean gained 0.05 on every run: alone, it lets the memory answer.
    expect(gateMemory(scores, 'per-intent').way).toBe('per-intent');
    const measures = new Map([
      ['per-intent', { node, edge }],
      ['search', { node: flat, edge: flat }],
    ] as const);
    const apart = gateMemory(scores, 'per-intent', measures);
    expect(apart).toMatchObject({ way: 'search', preferred: 'per-intent', replays: 6 });
    expect(apart.why).toMatch(/but neither gain stood alone, .* and 6 of 6 runs traded one for the other: /);
    expect(apart.why).toMatch(/: node F1 0\.050 ± 0\.112, edge F1 0\.050 ± 0\.112$/);
  });

  it('lets two gains that never opposed stand on their mean, each alone within its noise', () => {
    // Never worse on either measure on any run: one more tool found on run 0, the right link on run 1.
    const flat = Array.from({ length: 20 }, () => 0.5);
    const node = flat.map((v, i) => (i === 0 ? 1 : v));
    const edge = flat.map((v, i) => (i === 1 ? 1 : v));
    const way = gate({ own: node, search: flat }, { own: edge, search: flat }, { own: [], search: [] });
    expect(way.way).toBe('per-intent');
    expect(way.why).toMatch(/^the memory is trusted/);
  });

  it("counts a run as traded only when both its moves are beyond their measure's standard error", () => {
    // Twenty runs: a tool more found on run 0, the right link on run 1 (each measure 0.025 ± 0.025 alone); then runs 5
    // and 6 trade, one a tool for a link, the other the reverse, each by `by`: each run's mean unchanged.
    const flat = Array.from({ length: 20 }, () => 0.5);
    const traded = (by: number) => {
      const node = flat.map((v, i) => (i === 0 ? 1 : i === 5 ? v + by : i === 6 ? v - by : v));
      const edge = flat.map((v, i) => (i === 1 ? 1 : i === 5 ? v - by : i === 6 ? v + by : v));
      return gate({ own: node, search: flat }, { own: edge, search: flat }, { own: [], search: [] });
    };
    // 0.002, within the standard errors (0.025): no trade, the two never opposed.
    expect(traded(0.002).way).toBe('per-intent');
    // 0.05, beyond them: two runs traded, and neither gain stands alone.
    const beyond = traded(0.05);
    expect(beyond.way).toBe('search');
    expect(beyond.why).toMatch(/and 2 of 20 runs traded one for the other: /);
  });

  it('leaves the memory out when it gained tools and lost links on the multi-step runs, however small the loss', () => {
    // Eight runs: four single-step (no link to make: the search's stray link scores edge F1 0, the memory's none 1)
    // and four multi-step (two links each). The memory found more tools on every run.
    const node = { own: Array.from({ length: 8 }, () => 0.7), search: Array.from({ length: 8 }, () => 0.5) };
    const single: LinkCount = { right: 0, made: 1, truth: 0 };
    const half: LinkCount = { right: 1, made: 2, truth: 2 };
    const search = [single, single, single, single, half, half, half, half];
    const none: LinkCount = { right: 0, made: 0, truth: 0 };
    const single4 = [none, none, none, none];
    // On the multi-step runs: a wrong link added twice (2 / 5), one dropped once (2 / 3): edge F1 −0.008 on their
    // mean, within its noise, and hidden in the mean over all runs by the single-step runs' gain.
    const lost = [...single4, { right: 1, made: 3, truth: 2 }, { right: 1, made: 1, truth: 2 }];
    const own = [...lost, { right: 1, made: 3, truth: 2 }, half];
    const edge = { own: [1, 1, 1, 1, 0.4, 2 / 3, 0.4, 0.5], search: [0, 0, 0, 0, 0.5, 0.5, 0.5, 0.5] };
    const out = gate(node, edge, { own, search });
    expect(out).toMatchObject({ way: 'search', preferred: 'per-intent', replays: 8 });
    expect(out.why).toMatch(
      /but its node F1 gained 0\.200 while its edge F1 on the 4 multi-step runs \(a link to make\) fell 0\.008: /,
    );
    // The same links kept on the multi-step runs: the memory answers.
    const kept = gate(
      node,
      { ...edge, own: [1, 1, 1, 1, 0.5, 0.5, 0.5, 0.5] },
      { own: [...single4, ...search.slice(4)], search },
    );
    expect(kept.way).toBe('per-intent');
    // One multi-step run is no evidence of links lost: the rule needs two.
    const onlyOne = [single, single, single, single, single, single, single, half];
    const oneLost = { own: [1, 1, 1, 1, 1, 1, 1, 0.4], search: [0, 0, 0, 0, 0, 0, 0, 0.5] };
    const ownOne = [...single4, none, none, none, { right: 1, made: 3, truth: 2 }];
    expect(gate(node, oneLost, { own: ownOne, search: onlyOne }).way).toBe('per-intent');
  });

  it('takes a single replayed run as no evidence, however much the memory gained on it', () => {
    const one = new Map([
      ['per-intent', [0.9]],
      ['search', [0.1]],
    ] as const);
    expect(gateMemory(one, 'per-intent')).toMatchObject({ way: 'search', preferred: 'per-intent', replays: 1 });
    expect(gateMemory(one, 'per-intent').gain).toBeCloseTo(0.8, 12);
  });

  it('compares no scores of unequal length: the memory stays out and says no way beat the search', () => {
    const unequal = new Map([
      ['per-intent', [0.9, 0.9, 0.9]],
      ['search', [0.1, 0.1]],
    ] as const);
    expect(gateMemory(unequal, 'per-intent')).toMatchObject({ way: 'search', gain: 0, standardError: 0 });
    expect(gateMemory(unequal, 'per-intent').why).toContain('no way with the memory beat the DAG without it');
  });

  it('takes no standard error below the gain resolution: tiny equal gains do not let the memory answer', () => {
    const scores = (own: number[]) =>
      new Map([
        ['per-intent', own],
        ['search', [0.5, 0.6]],
      ] as const);
    const tiny = gateMemory(scores([0.5001, 0.6001]), 'per-intent');
    expect(tiny).toMatchObject({ way: 'search', replays: 2, standardError: 0.001 });
    // A standard error at the resolution was not measured: it is said to be counted as at least it, with no ±.
    expect(tiny.why).toContain('gained 0.000 (its standard error counted as at least 0.001)');
    // Two runs that both gained a clear amount still stand: their spread is below what the scores show.
    const clear = gateMemory(scores([0.6, 0.7]), 'per-intent');
    expect(clear).toMatchObject({ way: 'per-intent', standardError: 0.001 });
    expect(clear.why).toContain('gained 0.100 (its standard error counted as at least 0.001)');
    expect(clear.why).not.toContain('±');
  });
});

describe('edge F1 pooled over replayed runs', () => {
  it('sums the links of all runs, missed ones counting, and pairs its noise run by run', () => {
    const none = { right: 0, made: 0, truth: 0 };
    expect(pooledLinkF1([none, none])).toBe(1);
    // Wrong links on a run whose F1 is 0 already still count.
    const base = [
      { right: 0, made: 1, truth: 2 },
      { right: 2, made: 2, truth: 2 },
    ];
    const own = [
      { right: 0, made: 3, truth: 2 },
      { right: 2, made: 2, truth: 2 },
    ];
    expect(pooledLinkF1(base)).toBeCloseTo(4 / 7, 12);
    // About the common F1 8 / 16 and 4 links a run: run 0's shares differ by -0.5 * 2 / 4, run 1's by nothing.
    expect(pooledLinkGain(own, base)).toEqual({ gain: -0.125, standardError: 0.125, n: 2 });
    // 4 / 9 - 4 / 7 exactly, -0.127: the paired shares give it to first order.
    expect(pooledLinkGain(base, base)).toEqual({ gain: 0, standardError: 0, n: 2 });
  });
});
