import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeOf } from '../../../test/helpers.js';
import { DAY_MS } from './edge-decay.js';
import {
  EDGE_DEFAULTS,
  EDGE_READ_OPTIONS,
  SOURCE_MODIFIERS,
  TYPE_WEIGHTS,
  edgeConfidence,
  passesThreshold,
  rankSuggestions,
} from './edge-confidence.js';
import { EDGE_SOURCES, EDGE_TYPES } from '../types.js';
import type { EdgeSource, EdgeType } from '../types.js';

const NOW = Date.UTC(2025, 5, 1);

describe('constants', () => {
  it('hold the seed 000 modifiers and weights in frozen objects', () => {
    expect(SOURCE_MODIFIERS).toEqual({ observed: 1.0, inferred: 0.7, template: 0.5 });
    expect(TYPE_WEIGHTS).toEqual({ dependency: 1.0, contains: 0.8, alternative: 0.6, sequence: 0.5 });
    expect(EDGE_DEFAULTS).toEqual({ threshold: 0.3, halfLifeDays: 60, weakSuggestion: 0.5 });
    expect(Object.isFrozen(SOURCE_MODIFIERS)).toBe(true);
    expect(Object.isFrozen(TYPE_WEIGHTS)).toBe(true);
    expect(Object.isFrozen(EDGE_DEFAULTS)).toBe(true);
  });
});

describe('edgeConfidence', () => {
  it.each<[EdgeType, EdgeSource, number]>([
    ['dependency', 'observed', 1.0],
    ['contains', 'observed', 0.8],
    ['sequence', 'inferred', 0.35],
    ['sequence', 'template', 0.25],
  ])('gives %s/%s the seed table value %s with no decay', (type, source, expected) => {
    const result = edgeConfidence({ type, source });
    expect(result.value).toBe(expected);
    expect(result.parts).toEqual({
      typeWeight: TYPE_WEIGHTS[type],
      sourceModifier: SOURCE_MODIFIERS[source],
      decay: 1,
      idleDays: 0,
    });
  });

  it('halves the confidence of an edge idle for 60 days', () => {
    const result = edgeConfidence({ type: 'dependency', source: 'observed', lastSeen: NOW - 60 * DAY_MS, now: NOW });
    expect(result.value).toBe(0.5);
    expect(result.parts.decay).toBe(0.5);
    expect(result.parts.idleDays).toBe(60);
  });

  it('does not decay an edge seen at the moment it is read', () => {
    const result = edgeConfidence({ type: 'contains', source: 'observed', lastSeen: NOW, now: NOW });
    expect(result.value).toBe(0.8);
    expect(result.parts.decay).toBe(1);
  });

  it('never decays a template edge that was never seen', () => {
    const result = edgeConfidence({ type: 'sequence', source: 'template', lastSeen: null, now: NOW + 3650 * DAY_MS });
    expect(result.value).toBe(0.25);
    expect(result.parts.decay).toBe(1);
  });

  it('applies no decay when no reading time is given', () => {
    expect(edgeConfidence({ type: 'dependency', source: 'inferred', lastSeen: NOW - 600 * DAY_MS }).value).toBe(0.7);
  });

  it('uses the half-life from the options', () => {
    const result = edgeConfidence(
      { type: 'dependency', source: 'observed', lastSeen: NOW - 30 * DAY_MS, now: NOW },
      { halfLifeDays: 30 },
    );
    expect(result.value).toBe(0.5);
  });

  it('rejects an unknown type or source and a non-finite time', () => {
    expect(codeOf(() => edgeConfidence({ type: 'causal' as EdgeType, source: 'observed' }))).toBe('INVALID_INPUT');
    expect(codeOf(() => edgeConfidence({ type: 'sequence', source: 'guessed' as EdgeSource }))).toBe('INVALID_INPUT');
    expect(codeOf(() => edgeConfidence({ type: 'sequence', source: 'observed', lastSeen: Number.NaN, now: NOW }))).toBe(
      'INVALID_INPUT',
    );
    expect(codeOf(() => edgeConfidence({ type: 'sequence', source: 'observed' }, { halfLifeDays: 0 }))).toBe(
      'INVALID_INPUT',
    );
  });

  it('stays within [0, 1] for any type, source and idle time', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...EDGE_TYPES),
        fc.constantFrom(...EDGE_SOURCES),
        fc.option(fc.integer({ min: 0, max: 100 * 365 * DAY_MS }), { nil: null }),
        fc.integer({ min: 0, max: 100 * 365 * DAY_MS }),
        (type, source, idleMs, offset) => {
          const lastSeen = idleMs === null ? null : NOW - idleMs + offset;
          const { value } = edgeConfidence({ type, source, lastSeen, now: NOW });
          expect(value).toBeGreaterThanOrEqual(0);
          expect(value).toBeLessThanOrEqual(1);
        },
      ),
    );
  });

  it('never rises as an edge stays idle longer', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...EDGE_TYPES),
        fc.constantFrom(...EDGE_SOURCES),
        fc.integer({ min: 0, max: 10 * 365 * DAY_MS }),
        fc.integer({ min: 0, max: 10 * 365 * DAY_MS }),
        (type, source, a, b) => {
          const lastSeen = NOW - 20 * 365 * DAY_MS;
          const early = edgeConfidence({ type, source, lastSeen, now: lastSeen + Math.min(a, b) }).value;
          const late = edgeConfidence({ type, source, lastSeen, now: lastSeen + Math.max(a, b) }).value;
          expect(late).toBeLessThanOrEqual(early);
        },
      ),
    );
  });
});

describe('edgeConfidence with idle time in whole steps (issue 17)', () => {
  const at = (idleMs: number, options = EDGE_READ_OPTIONS) =>
    edgeConfidence({ type: 'sequence', source: 'observed', lastSeen: 0, now: idleMs }, options);

  it('gives the same confidence at every instant of one idle day, and the exact formula at whole days', () => {
    expect(at(0).value).toBe(0.5);
    expect(at(1000).value).toBe(0.5);
    expect(at(DAY_MS - 1).value).toBe(0.5);
    expect(at(DAY_MS)).toEqual(at(2 * DAY_MS - 1));
    expect(at(30 * DAY_MS + 5 * 3_600_000)).toEqual({
      value: 0.5 * 0.5 ** (30 / 60),
      parts: { typeWeight: 0.5, sourceModifier: 1, decay: 0.5 ** 0.5, idleDays: 30 },
    });
  });

  it('counts idle time exactly without a step, so a fresh 0.5 edge is below 0.5 a second later', () => {
    expect(at(1000, {}).value).toBeLessThan(0.5);
  });

  it('stays monotone: a later instant never reads a higher confidence (property)', () => {
    fc.assert(
      fc.property(fc.nat(400 * DAY_MS), fc.nat(400 * DAY_MS), (x, y) => {
        const [early, late] = x <= y ? [x, y] : [y, x];
        expect(at(late).value).toBeLessThanOrEqual(at(early).value);
      }),
    );
  });

  it('rejects a negative or non-finite step', () => {
    for (const idleStepDays of [-1, Number.NaN, Infinity])
      expect(codeOf(() => at(1000, { idleStepDays }))).toBe('INVALID_INPUT');
  });
});

describe('passesThreshold', () => {
  it('keeps the seed edges read → parse 0.85 and parse → write 0.65 and drops parse → debug 0.20', () => {
    expect(passesThreshold(0.85)).toBe(true);
    expect(passesThreshold(0.65)).toBe(true);
    expect(passesThreshold(0.2)).toBe(false);
  });

  it('includes the boundary alternative × template = 0.30', () => {
    const { value } = edgeConfidence({ type: 'alternative', source: 'template' });
    expect(value.toFixed(2)).toBe('0.30');
    expect(passesThreshold(value)).toBe(true);
    expect(passesThreshold(0.6 * 0.5)).toBe(true);
  });

  it('tolerates float noise just under the threshold but not a real shortfall', () => {
    expect(passesThreshold(0.3 - 1e-12)).toBe(true);
    expect(passesThreshold(0.299)).toBe(false);
    expect(passesThreshold(0.1 + 0.2 - 0.0000001, 0.3)).toBe(false);
  });

  it('uses the threshold it is given', () => {
    expect(passesThreshold(0.45, 0.5)).toBe(false);
    expect(passesThreshold(0.5, 0.5)).toBe(true);
  });

  it('rejects NaN', () => {
    expect(codeOf(() => passesThreshold(Number.NaN))).toBe('INVALID_INPUT');
    expect(codeOf(() => passesThreshold(0.5, Number.NaN))).toBe('INVALID_INPUT');
  });
});

describe('rankSuggestions', () => {
  it('orders the seed suggestions after read_file strong first and the weak log_data last', () => {
    const ranked = rankSuggestions([
      { tool: 'log_data', confidence: 0.35 },
      { tool: 'parse_json', confidence: 0.75 },
      { tool: 'write_file', confidence: 0.9 },
      { tool: 'debug', confidence: 0.2 },
    ]);
    expect(ranked.map((s) => s.tool)).toEqual(['write_file', 'parse_json', 'log_data']);
  });

  it('breaks ties by tool id', () => {
    const ranked = rankSuggestions([
      { tool: 'b', confidence: 0.7 },
      { tool: 'c', confidence: 0.7 },
      { tool: 'a', confidence: 0.7 },
    ]);
    expect(ranked.map((s) => s.tool)).toEqual(['a', 'b', 'c']);
  });

  it('keeps an item at exactly the threshold and drops one below it', () => {
    const ranked = rankSuggestions([
      { tool: 'alt', confidence: 0.6 * 0.5 },
      { tool: 'seq', confidence: 0.25 },
    ]);
    expect(ranked.map((s) => s.tool)).toEqual(['alt']);
  });

  it('places weak items after strong ones by the weakSuggestion option', () => {
    const ranked = rankSuggestions(
      [
        { tool: 'weakish', confidence: 0.65 },
        { tool: 'strong', confidence: 0.8 },
        { tool: 'gone', confidence: 0.35 },
      ],
      { threshold: 0.4, weakSuggestion: 0.7 },
    );
    expect(ranked.map((s) => s.tool)).toEqual(['strong', 'weakish']);
  });

  it('returns a new array, keeps the extra fields and leaves the input untouched', () => {
    const items = Object.freeze([
      Object.freeze({ tool: 'x', confidence: 0.4, type: 'sequence' }),
      Object.freeze({ tool: 'y', confidence: 0.9, type: 'dependency' }),
    ]);
    const ranked = rankSuggestions(items);
    expect(ranked).toEqual([items[1], items[0]]);
    expect(ranked).not.toBe(items);
    expect(items.map((s) => s.tool)).toEqual(['x', 'y']);
  });

  it('gives the same order whatever the input order', () => {
    const item = fc.record({
      tool: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'),
      confidence: fc.constantFrom(0, 0.2, 0.3, 0.35, 0.5, 0.6 * 0.5, 0.7, 1),
    });
    fc.assert(
      fc.property(
        fc.uniqueArray(item, { selector: (s) => `${s.tool}|${s.confidence}` }),
        fc.infiniteStream(fc.nat()),
        (items, seeds) => {
          const shuffled = [...items];
          for (let i = shuffled.length - 1; i > 0; i -= 1) {
            const j = seeds.next().value % (i + 1);
            [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
          }
          const a = rankSuggestions(items);
          const b = rankSuggestions(shuffled);
          expect(b).toEqual(a);
          for (const s of a) expect(passesThreshold(s.confidence)).toBe(true);
          const firstWeak = a.findIndex((s) => s.confidence < 0.5);
          if (firstWeak >= 0) expect(a.slice(firstWeak).every((s) => s.confidence < 0.5)).toBe(true);
          for (let i = 1; i < a.length; i += 1) expect(a[i]!.confidence).toBeLessThanOrEqual(a[i - 1]!.confidence);
        },
      ),
    );
  });

  it('rejects a NaN confidence', () => {
    expect(codeOf(() => rankSuggestions([{ tool: 'x', confidence: Number.NaN }]))).toBe('INVALID_INPUT');
  });
});
