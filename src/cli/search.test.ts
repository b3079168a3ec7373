import { describe, expect, it } from 'vitest';
import { DEPRECATED_FACTOR } from '../core/search/tool-search.js';
import { answeredBy, scoreParts } from './search.js';

const way = (answered: 'search' | 'per-intent', why: string) => ({
  way: answered,
  preferred: 'per-intent' as const,
  replays: 50,
  gain: 0.2,
  standardError: 0.02,
  why,
});
const TRUSTED = 'the memory is trusted: on 50 past runs replayed to choose the way, …';
const LEFT_OUT = 'the memory left out: on 50 past runs replayed to choose the way, …';
const memory = (backed: boolean) => ({
  backed,
  expected: 0.8,
  weight: backed ? 1 : 0.2,
  strength: 0.7,
  agreement: 1,
  calibratedOn: 100,
  tools: [],
  neighbours: [],
});

describe('answeredBy: what answered this request, then the scope’s verdict on its memory', () => {
  it('says the search answered where no past run is near, though the memory is trusted', () => {
    expect(answeredBy({ confidenceBasis: 'search', way: way('per-intent', TRUSTED) })).toBe(
      `answered by: the search (no past run near this intent); ${TRUSTED}`,
    );
    expect(answeredBy({ confidenceBasis: 'search', memory: memory(false), way: way('per-intent', TRUSTED) })).toBe(
      `answered by: the search (the past runs near this intent did not outweigh it); ${TRUSTED}`,
    );
  });

  it('says past runs answered where they outweighed the search, and how they were weighed', () => {
    expect(answeredBy({ confidenceBasis: 'memory', memory: memory(true), way: way('per-intent', TRUSTED) })).toBe(
      `answered by: past runs near this intent, outweighing the search (fusion, chosen per intent); ${TRUSTED}`,
    );
    expect(answeredBy({ confidenceBasis: 'evidence', memory: memory(true), way: way('per-intent', TRUSTED) })).toBe(
      'answered by: past runs near this intent and the search, each tool kept by its probability ' +
        `(evidence, chosen per intent); ${TRUSTED}`,
    );
  });

  it('says the search answered with the memory left out, and nothing without a verdict', () => {
    expect(answeredBy({ confidenceBasis: 'search', way: way('search', LEFT_OUT) })).toBe(
      `answered by: the search; ${LEFT_OUT}`,
    );
    expect(answeredBy({ confidenceBasis: 'memory' })).toBeUndefined();
  });
});

describe('a searched tool as text', () => {
  type Searched = Parameters<typeof scoreParts>[0];
  const tool = (over: Partial<Searched>): Searched =>
    ({ tool: 't', score: 0.76, semantic: 0.366, graph: 0.968, alpha: 1, alphaRule: 'no-context', ...over }) as Searched;
  /** The terms `w×name v` and `feedback ±v` of the line's first sum, and the score before the `=`. */
  const sumOf = (line: string): { score: number; sum: number } => {
    const [score, rest] = line.split(' = ');
    const first = (rest ?? '').split(';')[0] ?? '';
    let sum = 0;
    for (const m of first.matchAll(/([\d.]+)×[^\d]* ([\d.]+)/g)) sum += Number(m[1]) * Number(m[2]);
    const feedback = /([+−]) feedback ([\d.]+)/.exec(first);
    if (feedback) sum += (feedback[1] === '−' ? -1 : 1) * Number(feedback[2]);
    return { score: Number(score), sum };
  };

  it('shows every part of a score past runs and feedback moved, and they add up to it', () => {
    const line = scoreParts(
      tool({
        score: 1.1867730554993354,
        semantic: 0.9650165909965546,
        graph: 1,
        hybrid: 0.9650165909965546,
        memory: { vote: 1, weight: 0.6219080736425149, runs: [] },
        feedback: { shift: 0.2, verdicts: 1 },
      } as Partial<Searched>),
    );
    expect(line).toContain('1.187 = ');
    expect(line).toContain('feedback 0.200');
    const { score, sum } = sumOf(line);
    expect(Math.abs(score - sum)).toBeLessThan(0.002);
    expect(line).toMatch(/; search 0\.965 = 1\.000×semantic 0\.965 \+ 0\.000×graph 1\.000 \(α no-context\)$/);
  });

  it('a score the search alone made is α·semantic + (1 − α)·graph', () => {
    const line = scoreParts(tool({ score: 0.5 * 0.4 + 0.5 * 0.8, semantic: 0.4, graph: 0.8, alpha: 0.5 }));
    expect(line).toBe('0.600 = 0.500×semantic 0.400 + 0.500×graph 0.800 (α no-context)');
  });

  it('a negative feedback shift is subtracted', () => {
    const line = scoreParts(
      tool({
        score: 0.6,
        semantic: 0.7,
        graph: 0,
        hybrid: 0.7,
        feedback: { shift: -0.1, verdicts: 1 },
      } as Partial<Searched>),
    );
    expect(line).toBe('0.600 = 1.000×semantic 0.700 + 0.000×graph 0.000 − feedback 0.100 (α no-context)');
  });

  it('a deprecated tool shows the factor that cut its score, alone and under past runs', () => {
    const parts = { deprecated: true } as Searched['parts'];
    const alone = scoreParts(tool({ score: 0.7 * DEPRECATED_FACTOR, semantic: 0.7, graph: 0, parts }));
    expect(alone).toBe(
      `0.350 = ${DEPRECATED_FACTOR.toFixed(3)}×deprecated (1.000×semantic 0.700 + 0.000×graph 0.000) (α no-context)`,
    );
    const hybrid = 0.7 * DEPRECATED_FACTOR;
    const fused = scoreParts(
      tool({
        score: 0.5 * hybrid + 0.5,
        semantic: 0.7,
        graph: 0,
        hybrid,
        memory: { vote: 1, weight: 0.5, runs: [] },
        parts,
      } as Partial<Searched>),
    );
    expect(fused).toMatch(/; search 0\.350 = 0\.500×deprecated \(1\.000×semantic 0\.700 \+ 0\.000×graph 0\.000\) /);
  });
});
