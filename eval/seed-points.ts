/**
 * @module eval/seed-points
 * The points of `learning-seeds` (warm − cold node F1 / edge F1 / edge F1 multi per set, seed and share) read back
 * from an earlier output, so a run can say where a gain was lost: a point whose measure printed a gain before and
 * gains no more than 0.001 now (the gate left the memory out where it had helped, or the memory did worse).
 */

/** Warm − cold per set, seed and share (percent): node F1, edge F1, edge F1 multi. */
export type SeedPoints = Map<string, Map<string, readonly number[]>>;

/** The key of a point within a set. */
export const pointKey = (seed: number, percent: number): string => `${seed}:${percent}`;

const SET_LINE = /^(\S+): warm − cold node F1 /;
const SEED_LINE = /^seed (\d+) \(cold [^)]*\): (.*)$/;
const CELL = /(\d+) % \(\d+\) ([-+]\d+\.\d+)\/([-+]\d+\.\d+)\/([-+]\d+\.\d+)/g;

/** The points of an earlier `learning-seeds` output (lines it does not know are skipped). */
export function parseSeedPoints(text: string): SeedPoints {
  const sets: SeedPoints = new Map();
  let current: Map<string, readonly number[]> | undefined;
  for (const line of text.split('\n')) {
    const set = SET_LINE.exec(line);
    if (set !== null) {
      current = new Map();
      sets.set(set[1] as string, current);
      continue;
    }
    const seed = SEED_LINE.exec(line);
    if (seed === null || current === undefined) continue;
    for (const cell of (seed[2] as string).matchAll(CELL))
      current.set(pointKey(Number(seed[1]), Number(cell[1])), [cell[2], cell[3], cell[4]].map(Number));
  }
  return sets;
}

/**
 * Whether a point lost a gain: on some measure it gains `by` or less (back at +0.000, or below cold) where the
 * earlier output showed a gain above `by` (RestBench-TMDB seed 6 at 50 %: +0.169/+0.120/+0.222 ->
 * +0.000/+0.020/+0.022).
 */
export function lostGain(now: readonly number[], before: readonly number[] | undefined, by: number): boolean {
  return before !== undefined && now.some((g, i) => g <= by && (before[i] ?? 0) > by);
}

/**
 * The line a set's run ends with against an earlier output `file`: how many gains it lost and where, or that the file
 * holds no points for the set (nothing was compared, so no gain can be said kept).
 */
export function lostLine(
  set: string,
  lost: readonly string[],
  before: ReadonlyMap<string, unknown> | undefined,
  file: string,
): string {
  if (before === undefined || before.size === 0) return `${set}: no points for this set in ${file}`;
  return `${set}: ${lost.length} gains lost against ${file}${lost.length ? `: ${lost.join(', ')}` : ''}`;
}
