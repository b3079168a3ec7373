import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEPRECATED_FACTOR, isDeprecated, rankTools, semanticScore, type ToolSignals } from './tool-search.js';

const signals = (tool: string, extra: Partial<ToolSignals> = {}): ToolSignals => ({
  tool,
  centrality: 0,
  heat: 0,
  observations: 0,
  ...extra,
});

describe('semanticScore', () => {
  it('fuses the BM25 ratio to the best match with the clamped embedding similarity', () => {
    expect(semanticScore({ bm25: -5, bestBm25: -10, similarity: 0.8 }, { bm25Weight: 0.5 })).toBeCloseTo(
      0.5 * 0.5 + 0.5 * 0.8,
      12,
    );
    expect(semanticScore({ similarity: -0.3 }, { bm25Weight: 0.5 })).toBe(0);
    expect(semanticScore({ bm25: -5, bestBm25: -5 }, { bm25Weight: 1 })).toBe(1);
  });
});

describe('rankTools', () => {
  it("reproduces the seed's cold-start example: 2 observations, semantic 0.72, graph 0.30 → α 0.92, score 0.69", () => {
    // semantic 0.72 from similarity alone; graph 0.30 from relatedness 0 and ... centrality 1 → 0.3.
    const [r] = rankTools(
      [signals('new_config_reader', { similarity: 0.72, relatedness: 0, centrality: 1, observations: 2 })],
      { bm25Weight: 0 },
    );
    expect(r).toMatchObject({ alpha: 0.92, alphaRule: 'cold-start' });
    expect(r?.semantic).toBeCloseTo(0.72, 12);
    expect(r?.graph).toBeCloseTo(0.3, 12);
    expect(r?.score.toFixed(2)).toBe('0.69');
  });

  it('lowers α for an established tool with heat from the context, down to 0.5', () => {
    const [hot] = rankTools(
      [signals('hub', { similarity: 0.5, centrality: 1, relatedness: 1, heat: 1, observations: 50 })],
      { bm25Weight: 0 },
    );
    expect(hot).toMatchObject({ alpha: 0.5, alphaRule: 'heat-diffusion' });
  });

  it('every score equals α · semantic + (1 − α) · graph over the parts it reports', () => {
    const arb = fc.array(
      fc.record({
        tool: fc.string({ minLength: 1, maxLength: 6 }),
        bm25: fc.option(fc.double({ min: -30, max: -0.01, noNaN: true }), { nil: undefined }),
        similarity: fc.option(fc.double({ min: -1, max: 1, noNaN: true }), { nil: undefined }),
        relatedness: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
        centrality: fc.double({ min: 0, max: 1, noNaN: true }),
        heat: fc.double({ min: 0, max: 1, noNaN: true }),
        observations: fc.nat(40),
      }),
      { maxLength: 20 },
    );
    fc.assert(
      fc.property(arb, (cands) => {
        for (const r of rankTools(cands as ToolSignals[])) {
          expect(r.score).toBeCloseTo(r.alpha * r.semantic + (1 - r.alpha) * r.graph, 12);
          expect(r.alpha).toBeGreaterThanOrEqual(0.5);
          expect(r.alpha).toBeLessThanOrEqual(1);
          expect(r.score).toBeGreaterThanOrEqual(0);
          expect(r.score).toBeLessThanOrEqual(1 + 1e-12);
        }
      }),
    );
  });

  it('ranks best first, ties by id, whatever the input order', () => {
    const a = [signals('b', { similarity: 0.5 }), signals('a', { similarity: 0.5 }), signals('c', { similarity: 0.9 })];
    expect(rankTools(a).map((r) => r.tool)).toEqual(['c', 'a', 'b']);
    expect(rankTools([...a].reverse()).map((r) => r.tool)).toEqual(['c', 'a', 'b']);
  });

  it('semantic-only gives α = 1 for every tool', () => {
    const [r] = rankTools([signals('x', { similarity: 0.4, centrality: 1, heat: 1, observations: 99 })], {
      semanticOnly: true,
    });
    expect(r).toMatchObject({ alpha: 1, alphaRule: 'semantic-only', score: r?.semantic });
  });
});

describe('deprecated tools', () => {
  it('rank below an equal tool, with the factor shown in the parts', () => {
    const base = { bm25: -2, similarity: 0.8, centrality: 0, heat: 0, observations: 0 };
    const [first, second] = rankTools([
      { ...base, tool: 'fs:read_file', deprecated: true },
      { ...base, tool: 'fs:read_text_file', bm25: -1.6 },
    ]);
    expect(first?.tool).toBe('fs:read_text_file');
    expect(second?.parts.deprecated).toBe(true);
    expect(second?.score).toBeCloseTo(DEPRECATED_FACTOR * second!.semantic, 10);
    expect(first?.parts.deprecated).toBeUndefined();
  });
  it('is read from the description', () => {
    expect(isDeprecated('Read a file. DEPRECATED: Use read_text_file instead.')).toBe(true);
    expect(isDeprecated('Reads deprecation notices')).toBe(false);
  });
});
