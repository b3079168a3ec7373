/**
 * @module eval/learning-seeds
 * Issue 19's rule that a learned system never does worse than before it learned, checked wider than section B3's one
 * split: for each set and split seed, the warm engine's default DAGs after the first 5, 10, 15, 25, 50 and 100 % of
 * half A (shuffled with the split seed) against the cold engine's, on every query of half B; warm − cold on node F1,
 * edge F1 and edge F1 multi, how many points fall below cold by more than 0.001, and warm − cold summed over the
 * set's points. With `--against` an earlier output, a point gaining 0.001 or less on a measure where that output
 * showed a gain is marked "~" and counted (a gain lost); a set the output has no points for is said to have none.
 * Not part of `npm run eval` (Seal-Tools takes about 8 minutes for six seeds):
 *   node dist/eval/learning-seeds.js [--data DIR] [--sets nestful,seal,tmdb] [--seeds 1,2,3,4,5,6] [--against FILE]
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { hasTaskPlan, loadNestful, loadSealTools, loadTaskPlan, shuffled, splitHalves, toExecution } from './data.js';
import type { Sample } from './data.js';
import { scoreDags, suggestAll, type DagScore } from './dag-eval.js';
import { openEvalEngine } from './engine.js';
import { repositoryRoot } from './paths.js';
import { lostGain, lostLine, parseSeedPoints, pointKey } from './seed-points.js';
import type { ToolRecord } from '../src/store/types.js';

/** Shares of half A learned from. */
export const SEED_SHARES: readonly number[] = [0.05, 0.1, 0.15, 0.25, 0.5, 1];
/** How far below cold a point counts as worse (the tables print three decimals). */
const WORSE_BY = 0.001;

const { values } = parseArgs({
  options: {
    data: { type: 'string' },
    sets: { type: 'string', default: 'nestful,tmdb,seal' },
    seeds: { type: 'string', default: '1,2,3,4,5,6' },
    against: { type: 'string' },
  },
});
const dataDir = resolve(values.data ?? join(repositoryRoot(), '..', 'shared', 'data'));
const seeds = (values.seeds ?? '').split(',').map(Number);
if (seeds.some((s) => !Number.isInteger(s))) throw new Error(`--seeds must be integers, got ${values.seeds}`);
const wanted = new Set((values.sets ?? '').split(','));
const against = values.against === undefined ? undefined : parseSeedPoints(readFileSync(values.against, 'utf8'));

const sets: { name: string; tools: readonly ToolRecord[]; samples: readonly Sample[] }[] = [];
if (wanted.has('nestful')) {
  const n = loadNestful(dataDir);
  sets.push({ name: 'NESTFUL', tools: n.tools, samples: n.samples });
}
if (wanted.has('tmdb') && hasTaskPlan(dataDir, 'restbench-tmdb')) {
  const t = loadTaskPlan(dataDir, 'restbench-tmdb', 'RestBench-TMDB');
  sets.push({ name: 'RestBench-TMDB', tools: t.tools, samples: t.samples });
}
if (wanted.has('seal')) {
  const s = loadSealTools(dataDir);
  sets.push({ name: 'Seal-Tools', tools: s.tools, samples: [...s.dev, ...s.test] });
}

const signed = (x: number): string => `${x >= 0 ? '+' : ''}${x.toFixed(3)}`;
const measures = (d: DagScore): number[] => [d.nodeF1, d.edgeF1, d.edgeF1Multi];

for (const set of sets) {
  let worse = 0;
  let points = 0;
  let worst = { gap: 0, where: '' };
  const summed = [0, 0, 0];
  const lost: string[] = [];
  const before = against?.get(set.name);
  const lostMark = against === undefined ? '' : `, "~" a gain in ${values.against} lost`;
  console.log(
    `\n${set.name}: warm − cold node F1 / edge F1 / edge F1 multi ("!" below cold by more than ${WORSE_BY}${lostMark})`,
  );
  for (const seed of seeds) {
    const { a, b } = splitHalves(set.samples, seed);
    const order = shuffled(a, seed);
    const cold = await openEvalEngine(set.tools);
    const base = measures(scoreDags(await suggestAll(cold, b)));
    await cold.close();
    const cells: string[] = [];
    for (const share of SEED_SHARES) {
      const runs = Math.round(share * a.length);
      const warm = await openEvalEngine(set.tools, order.slice(0, runs).map(toExecution));
      const gaps = measures(scoreDags(await suggestAll(warm, b))).map((v, i) => v - (base[i] as number));
      await warm.close();
      for (const [i, gap] of gaps.entries()) {
        points += 1;
        summed[i] = (summed[i] as number) + gap;
        if (gap < -WORSE_BY) worse += 1;
        if (gap < worst.gap)
          worst = { gap, where: `seed ${seed}, ${Math.round(100 * share)} %, ${['node', 'edge', 'edge multi'][i]}` };
      }
      const gone = lostGain(gaps, before?.get(pointKey(seed, Math.round(100 * share))), WORSE_BY);
      if (gone) lost.push(`seed ${seed} ${Math.round(100 * share)} %`);
      const mark = `${gaps.some((g) => g < -WORSE_BY) ? '!' : ''}${gone ? '~' : ''}`;
      cells.push(`${Math.round(100 * share)} % (${runs}) ${gaps.map(signed).join('/')}${mark}`);
    }
    console.log(`seed ${seed} (cold ${base.map((v) => v.toFixed(3)).join('/')}): ${cells.join('  ')}`);
  }
  console.log(`${set.name}: ${worse} of ${points} below cold; worst ${worst.gap.toFixed(3)} (${worst.where || '—'})`);
  console.log(`${set.name}: warm − cold summed over the points ${summed.map(signed).join('/')}`);
  if (against !== undefined) console.log(lostLine(set.name, lost, before, values.against ?? ''));
}
