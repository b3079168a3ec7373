import { describe, expect, it } from 'vitest';
import { answeredBy } from './search.js';

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
