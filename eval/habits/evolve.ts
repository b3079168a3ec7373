/**
 * @module eval/habits/evolve
 * The computation `credence evolve` runs over a batch of observations (SPEC §6, seed 004: "groupe
 * par pattern similaire, calcule la confidence agrégée"), as the evaluation (`eval/habits/evaluate`)
 * and the benchmark (`bench/evolve-grouping`) measure it: embed the distinct texts, group by meaning
 * (`core/learning/pattern-grouping`), detect contradictions (`core/learning/contradiction`), then score every group
 * (`core/learning/learning-confidence`: significance and group confidence at a fixed `now`).
 *
 * A contradicting observation is evidence against its group, not for any group: it is left out of
 * the confidences of every group, and its age counts against the group it contradicts.
 */
import {
  detectContradictions,
  contradictionAgesDays,
  type GroupContradictions,
} from '../../src/core/learning/contradiction.js';
import { groupConfidence, isSignificant, type Significance } from '../../src/core/learning/learning-confidence.js';
import {
  groupObservations,
  patternText,
  type Grouping,
  type GroupingItem,
} from '../../src/core/learning/pattern-grouping.js';
import type { EmbeddingProvider } from '../../src/embed/types.js';

const DAY_MS = 86_400_000;

export interface EvolveInput {
  readonly id: string;
  readonly text: string;
  readonly type: GroupingItem['type'];
  readonly timestamp: number;
  readonly confidence: number;
  readonly tags?: readonly string[];
}

export interface ScoredGroup {
  /** Index into `grouping.groups`. */
  readonly index: number;
  /** Members that are not contradictions. */
  readonly evidence: readonly string[];
  readonly significance: Significance;
  /** Group confidence (mean × recency × frequency) over the evidence at `now`. */
  readonly confidence: number;
}

export interface EvolveResult {
  readonly grouping: Grouping;
  readonly contradictions: readonly GroupContradictions[];
  readonly scored: readonly ScoredGroup[];
  /** Milliseconds of each step (embedding includes nothing cached from a previous call). */
  readonly timings: {
    readonly embed: number;
    readonly group: number;
    readonly contradictions: number;
    readonly score: number;
  };
  readonly distinctTexts: number;
}

/**
 * Embeds, groups, detects contradictions and scores. `now` in milliseconds. Identical texts are
 * embedded once (the provider is deterministic, so this changes nothing but the time).
 */
export async function evolveObservations(
  observations: readonly EvolveInput[],
  now: number,
  embedder: EmbeddingProvider,
): Promise<EvolveResult> {
  let t = performance.now();
  const textIndex = new Map<string, number>();
  const distinct: string[] = [];
  const slot = observations.map((o) => {
    const text = patternText(o.text);
    let k = textIndex.get(text);
    if (k === undefined) {
      textIndex.set(text, (k = distinct.length));
      distinct.push(text);
    }
    return k;
  });
  const vectors = await embedder.embed(distinct);
  const items: GroupingItem[] = observations.map((o, i) => ({
    ...o,
    vector: vectors[slot[i] as number] as Float32Array,
  }));
  const embed = performance.now() - t;

  t = performance.now();
  const grouping = groupObservations(items);
  const group = performance.now() - t;

  t = performance.now();
  const contradictions = detectContradictions(items, grouping.groups);
  const contradictionsMs = performance.now() - t;

  t = performance.now();
  const contradicting = new Set(contradictions.flatMap((g) => g.contradictions.map((c) => c.id)));
  const byId = new Map(observations.map((o) => [o.id, o]));
  const scored = grouping.groups.map((g, index): ScoredGroup => {
    const evidence = g.ids.filter((id) => !contradicting.has(id));
    const members = evidence.map((id) => byId.get(id) as EvolveInput);
    const confidences = members.map((o) => o.confidence);
    const significance = isSignificant({
      confidences,
      contradictionAgesDays: contradictionAgesDays((contradictions[index] as GroupContradictions).contradictions, now),
    });
    const latest = members.reduce((max, o) => Math.max(max, o.timestamp), Number.NEGATIVE_INFINITY);
    const confidence =
      members.length === 0 ? 0 : groupConfidence({ confidences, daysSinceLatest: (now - latest) / DAY_MS }).value;
    return { index, evidence, significance, confidence };
  });
  const score = performance.now() - t;
  return {
    grouping,
    contradictions,
    scored,
    timings: { embed, group, contradictions: contradictionsMs, score },
    distinctTexts: distinct.length,
  };
}
