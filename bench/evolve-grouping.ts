/**
 * @module bench/evolve-grouping
 * The evolve computation over the 10,000-observation stream of issue 6 (SPEC §6, §11: "evolve over
 * 10,000 observations ≤ 1 s"): embedding the distinct texts with the offline word vectors,
 * `groupObservations`, `detectContradictions` and significance / group confidence, as
 * `eval/habits/evolve` runs them (the stream of `eval/habits/stream`, seed 6). The word-vector table
 * is loaded by a warm-up run first (its load is timed in bench/embed). Median of `runs` runs.
 *
 * Reference measured in the same run on the same texts: one pass computing the content words of
 * every observation (`core/text/words` contentWords, the tokenising every step starts with), so the ratio
 * reads as "passes over the text".
 */
import { contentWords } from '../src/core/text/words.js';
import { wordVectorProvider } from '../src/embed/word-vectors.js';
import { evolveObservations, type EvolveResult } from '../eval/habits/evolve.js';
import { generateHabitStream } from '../eval/habits/stream.js';
import { median, type BenchRow } from './table.js';

/** SPEC §11 target for the whole evolve computation, in milliseconds. */
export const EVOLVE_TARGET_MS = 1_000;

let sink = 0;

const ms = (value: number): string => `${value < 10 ? value.toFixed(1) : value.toFixed(0)} ms`;

export async function benchEvolveGrouping(options: { runs?: number; seed?: number } = {}): Promise<BenchRow[]> {
  const runs = options.runs ?? 5;
  const stream = generateHabitStream({ seed: options.seed ?? 6 });
  const observations = stream.observations;
  const embedder = wordVectorProvider();
  await evolveObservations(observations, stream.now, embedder);

  const totals: number[] = [];
  const steps: EvolveResult['timings'][] = [];
  const references: number[] = [];
  let last: EvolveResult | undefined;
  for (let round = 0; round < runs; round += 1) {
    let t = process.hrtime.bigint();
    for (const o of observations) sink += contentWords(o.text).length;
    references.push(Number(process.hrtime.bigint() - t) / 1e6);
    t = process.hrtime.bigint();
    last = await evolveObservations(observations, stream.now, embedder);
    totals.push(Number(process.hrtime.bigint() - t) / 1e6);
    steps.push(last.timings);
  }
  void sink;
  const total = median(totals);
  const reference = median(references);
  const size =
    `${observations.length.toLocaleString('en-US')} observations, ` +
    `${last?.distinctTexts.toLocaleString('en-US') ?? '?'} distinct texts`;
  const measure = `ms, median of ${runs}`;
  const significant = last?.scored.filter((s) => s.significance.significant).length ?? 0;
  const step = (name: string, key: keyof EvolveResult['timings'], note: string): BenchRow => {
    const value = median(steps.map((s) => s[key]));
    return {
      benchmark: `evolve step: ${name}`,
      measure,
      value: ms(value),
      reference: `content words ${ms(reference)}`,
      ratio: `${(value / reference).toFixed(1)}× pass`,
      target: note,
    };
  };
  return [
    {
      benchmark: `evolve: embed + group + contradictions + significance (${size})`,
      measure: `${measure}; ${last?.grouping.groups.length ?? 0} groups, ${significant} significant`,
      value: ms(total),
      reference: `content words ${ms(reference)}`,
      ratio: `${(total / reference).toFixed(1)}× pass`,
      target: `≤ 1 s: ${total <= EVOLVE_TARGET_MS ? 'met' : 'NOT met'}`,
    },
    step('embed distinct texts (word vectors)', 'embed', '-'),
    step('groupObservations', 'group', '-'),
    step('detectContradictions', 'contradictions', '-'),
    step('significance and group confidence', 'score', '-'),
  ];
}
