/**
 * @module core/experience/dag-gate
 * Issue 19's rule that learning never does worse, as arithmetic on paired replays: whether the memory's preferred way
 * of building a DAG answers, from each replayed run's score (the mean of node and edge F1) per way and, where given,
 * node F1, edge F1 and the run's link counts apart; the baseline way is `search` (the DAG without the memory). Pure.
 */
import { gainStands, type PairedGain, pairedGain } from './paired-gain.js';

/**
 * How many standard errors of the paired difference the memory's way must gain over the DAG without the memory
 * for the memory to speak (the one-standard-error rule): a learned way must not answer on a gain its noise explains.
 */
export const MEMORY_MARGIN = 1;
/**
 * The finest gain the gate counts (the precision its why reports, and the eval's threshold for a point that did
 * worse): a standard error below it is taken as it, so replays that all gained the same tiny amount do not let the
 * memory answer.
 */
export const GAIN_RESOLUTION = 0.001;

/** How near two of the gate's numbers are taken as equal: far below the resolution, far above rounding. */
const TIE = 1e-9;

/**
 * The share of the search's pooled edge F1 the memory's way may lose, however noisy its runs ({@link pooledLinkGain}):
 * a fall beyond it keeps the memory out.
 */
export const POOLED_FALL_FLOOR = 0.1;

/**
 * The gate's rule, numbered: a verdict kept under another number was reached by other arithmetic and is measured
 * again (2: links pooled over the runs, unproven only where tools and links traded; 3: a fall in pooled edge F1
 * beyond a tenth of the search's counts whatever its noise, and a run is traded only when both its moves are beyond
 * their measure's standard error; 4: a node F1 gain with edge F1 lost on the multi-step runs, {@link tradedLinks}).
 * Raise it with any change that can turn a
 * verdict.
 */
export const GATE_RULE = 4;

/** The baseline way: the DAG without the memory. */
export type BaselineWay = 'search';

/** The gate's outcome for ways named `W` (the baseline `search` among them). */
export interface GateOutcome<W extends string> {
  /** The way that answered. */
  way: W | BaselineWay;
  /** The way the replays preferred. */
  preferred: W | BaselineWay;
  /** Past runs replayed, each suggested from its intent alone with itself left out of the memory. */
  replays: number;
  /** Mean gain of `preferred` over the DAG without the memory (mean of node and edge F1 per run). */
  gain: number;
  /** The standard error of that mean, never below the gain's resolution (0.001). */
  standardError: number;
  /** Why, in words. */
  why: string;
}

/** A replayed run's links: those made that the run made too, those made, and those the run made. */
export interface LinkCount {
  readonly right: number;
  readonly made: number;
  readonly truth: number;
}

/**
 * Node and edge F1 of each replayed run, per way (their mean is the way's score), and where measured, `links`: each
 * run's link counts ({@link LinkCount}).
 */
export type ReplayMeasures<W extends string> = ReadonlyMap<
  W | BaselineWay,
  { readonly node: readonly number[]; readonly edge: readonly number[]; readonly links?: readonly LinkCount[] }
>;

/**
 * Edge F1 pooled over runs: twice the right links over the links made plus the runs' own, all summed (1 where there
 * are none), so wrong links count on a run whose F1 is 0 already, and a missed link counts as a wrong one does.
 */
export function pooledLinkF1(runs: readonly LinkCount[]): number {
  const made = runs.reduce((t, r) => t + r.made + r.truth, 0);
  return made === 0 ? 1 : (2 * runs.reduce((t, r) => t + r.right, 0)) / made;
}

/**
 * The gain of `own`'s pooled edge F1 over `base`'s on the same runs, as a paired gain of each run's share (the delta
 * method about the two ways' common pooled F1 F and mean links a run D: a run's share is (2·right − F·(made +
 * truth)) / D, so the mean of the paired differences is the pooled F1's gain to first order). A run on which both
 * made the same links differs by nothing; a loss on one run alone is no more than its noise, as in
 * {@link pairedGain}.
 */
export function pooledLinkGain(own: readonly LinkCount[], base: readonly LinkCount[]): PairedGain {
  const n = Math.min(own.length, base.length);
  const both = [...own.slice(0, n), ...base.slice(0, n)];
  const f1 = pooledLinkF1(both);
  const links = both.reduce((t, r) => t + r.made + r.truth, 0) / Math.max(both.length, 1);
  const shares = (runs: readonly LinkCount[]): number[] =>
    runs.slice(0, n).map((r) => (links === 0 ? 0 : (2 * r.right - f1 * (r.made + r.truth)) / links));
  return pairedGain(shares(own), shares(base));
}

const REPLAYED_TO_CHOOSE = 'past runs replayed to choose the way';

/**
 * The preferred way's gain over the DAG without the memory, in words. A standard error at the resolution was not
 * measured as such (the replays may have agreed more closely): the gate counts it as at least the resolution.
 */
function gainedWords(preferred: string, gain: number, standardError: number): string {
  const spread =
    standardError > GAIN_RESOLUTION
      ? `± ${standardError.toFixed(3)}`
      : `(its standard error counted as at least ${GAIN_RESOLUTION})`;
  return (
    `its best way (${preferred}) gained ${gain.toFixed(3)} ${spread} ` +
    '(mean of node and edge F1) over the DAG without it'
  );
}

/** Why the memory's way answers, from the verdict's numbers. */
export function trustedWhy(way: { preferred: string; replays: number; gain: number; standardError: number }): string {
  return (
    `the memory is trusted: on ${way.replays} ${REPLAYED_TO_CHOOSE}, ` +
    `${gainedWords(way.preferred, way.gain, way.standardError)}, more than one standard error`
  );
}

/**
 * Whether the memory's preferred way answers: only if, on the same replayed runs, it beat the DAG without the
 * memory (`search`) by more than MEMORY_MARGIN standard errors of their paired difference, and, where `measures`
 * gives node and edge F1 apart, lost on neither by more than MEMORY_MARGIN standard errors of its own (a gain in
 * tools must not pay for links lost, nor the reverse), nor, unless its edge F1 gained beyond that, on edge F1 pooled
 * over the runs ({@link lostMeasure}), nor gained node F1 while losing edge F1 on the multi-step runs
 * ({@link tradedLinks}), and, where the two traded on some run, gained beyond that on one of them
 * alone ({@link unproven}); else the search alone answers. Few replayed runs, or runs
 * on which the learned way helped as often as it hurt, leave the memory out.
 */
export function gateMemory<W extends string>(
  scores: ReadonlyMap<W | BaselineWay, readonly number[]>,
  preferred: W | BaselineWay,
  measures?: ReplayMeasures<W>,
): GateOutcome<W> {
  const base = scores.get('search') ?? [];
  const own = scores.get(preferred) ?? [];
  const g = preferred === 'search' || own.length !== base.length ? undefined : pairedGain(own, base);
  const replays = base.length;
  const standardError = g === undefined ? 0 : Math.max(g.standardError, GAIN_RESOLUTION);
  const gains = g !== undefined && gainStands(g, MEMORY_MARGIN, GAIN_RESOLUTION);
  const lost = gains
    ? (lostMeasure(measures, preferred) ?? tradedLinks(measures, preferred) ?? unproven(measures, preferred))
    : undefined;
  const stands = gains && lost === undefined;
  const on = `on ${replays} ${REPLAYED_TO_CHOOSE}`;
  const gained = g === undefined ? '' : gainedWords(preferred, g.gain, standardError);
  const why =
    g === undefined
      ? `the memory left out: ${on}, no way with the memory beat the DAG without it`
      : stands
        ? trustedWhy({ preferred, replays, gain: g.gain, standardError })
        : lost !== undefined
          ? `the memory left out: ${on}, ${gained}, but ${lost}`
          : `the memory left out: ${on}, ${gained}, not more than one standard error`;
  return {
    way: stands ? preferred : 'search',
    preferred,
    replays,
    gain: g?.gain ?? 0,
    standardError,
    why,
  };
}

/**
 * The measure (node or edge F1) on which `preferred` lost to the search alone by more than MEMORY_MARGIN standard
 * errors of its paired difference (taken no lower than the gain's resolution), in words; undefined when none did.
 * Where its edge F1 did not gain beyond that noise, its links must be borne out by the replays pooled: a run's edge
 * F1 does not fall below 0, so wrong links added where the search's were wrong too go unseen in it, yet cost the
 * runs where the search's links were right. Then the edge F1 of all runs' links pooled ({@link pooledLinkGain})
 * must not fall either: bounded as F1 is, a missed link counting as a wrong one, a way making no link scored by the
 * links it missed.
 */
function lostMeasure<W extends string>(
  measures: ReplayMeasures<W> | undefined,
  preferred: W | BaselineWay,
): string | undefined {
  const paired = (measure: 'node' | 'edge') => {
    const own = measures?.get(preferred)?.[measure] ?? [];
    const base = measures?.get('search')?.[measure] ?? [];
    return own.length === base.length ? pairedGain(own, base) : undefined;
  };
  for (const measure of ['node', 'edge'] as const) {
    const g = paired(measure);
    if (g !== undefined && lossStands(g)) {
      const standardError = Math.max(g.standardError, GAIN_RESOLUTION);
      const by = `${(-g.gain).toFixed(3)} ± ${standardError.toFixed(3)}`;
      return `lost ${by} ${measure} F1, more than one standard error`;
    }
  }
  const edge = paired('edge');
  if (edge !== undefined && gainStands(edge, MEMORY_MARGIN, GAIN_RESOLUTION)) return undefined;
  const own = measures?.get(preferred)?.links;
  const base = measures?.get('search')?.links;
  if (own === undefined || base === undefined || base.length !== own.length || own.length < 2) return undefined;
  const [before, after] = [pooledLinkF1(base), pooledLinkF1(own)];
  const beyond = lossStands(pooledLinkGain(own, base))
    ? 'more than one standard error of the runs paired'
    : before - after > POOLED_FALL_FLOOR * before + TIE
      ? `more than ${POOLED_FALL_FLOOR} of the search's, whatever its noise`
      : undefined;
  return beyond === undefined
    ? undefined
    : `its edge F1 pooled over the runs fell ${before.toFixed(3)} -> ${after.toFixed(3)} (search -> memory; ` +
        `its edge F1 a run no gain beyond noise), ${beyond}`;
}

/**
 * Whether a paired difference is a loss beyond its noise: on at least two pairs, a fall of more than MEMORY_MARGIN
 * standard errors (taken no lower than the resolution), a tie (to within rounding, TIE) not counting. A loss on one
 * run of n, the rest unmoved, is exactly one standard error whatever its size (a mean of d / n, a standard error of
 * |d| / n): the paired test cannot tell it from noise, so it does not decide it; its size does, where the links are
 * counted ({@link POOLED_FALL_FLOOR}). Counting the tie as a loss instead left the memory out on NESTFUL (seed 3, 5 %)
 * for a pooled fall of 0.250 -> 0.240 on one replayed run of 7, where on the new queries it gained 0.050 edge F1.
 */
function lossStands(g: PairedGain): boolean {
  return g.n >= 2 && g.gain < -MEMORY_MARGIN * Math.max(g.standardError, GAIN_RESOLUTION) - TIE;
}

/**
 * The way a run's paired difference moved: up or down by more than its measure's standard error (taken no lower than
 * the resolution), else 0: a move within the noise of the measure's mean trades nothing.
 */
const step = (d: number, standardError: number): number =>
  Math.abs(d) > Math.max(standardError, GAIN_RESOLUTION) + TIE ? Math.sign(d) : 0;

/**
 * Where node and edge F1 are given apart and traded against each other (on some replayed run one gained while the
 * other lost, each by more than its measure's standard error, {@link step}), the memory's gain must stand on one of
 * them alone: a mean of two
 * gains each within its noise, bought by runs that lost tools for links or links for tools, is not a gain in tools
 * nor in links. Without such a run the two did not oppose: the mean's paired test, whose noise counts how the two
 * vary together, decides. In words when the gain is unproven; else undefined.
 */
function unproven<W extends string>(
  measures: ReplayMeasures<W> | undefined,
  preferred: W | BaselineWay,
): string | undefined {
  const parts: string[] = [];
  const moved: number[][] = [];
  for (const measure of ['node', 'edge'] as const) {
    const own = measures?.get(preferred)?.[measure];
    const base = measures?.get('search')?.[measure];
    if (own === undefined || base === undefined || own.length !== base.length) return undefined;
    const g = pairedGain(own, base);
    if (gainStands(g, MEMORY_MARGIN, GAIN_RESOLUTION)) return undefined;
    moved.push(own.map((v, i) => step(v - (base[i] as number), g.standardError)));
    parts.push(`${measure} F1 ${g.gain.toFixed(3)} ± ${Math.max(g.standardError, GAIN_RESOLUTION).toFixed(3)}`);
  }
  const [node = [], edge = []] = moved;
  const traded = node.filter((v, i) => v * (edge[i] as number) < 0).length;
  return traded === 0
    ? undefined
    : `neither gain stood alone, more than one standard error, and ${traded} of ${node.length} runs traded one ` +
        `for the other: ${parts.join(', ')}`;
}

/**
 * Whether the memory's way paid for tools with links on multi-step work: where the replays' links are counted, over
 * the replayed runs whose own DAG linked tools (their multi-step runs), its edge F1 must not fall on the mean by more
 * than the gain's resolution while its node F1 gained on the mean of all runs. Single-step runs, with no link to
 * make, score edge F1 1 for making none and 0 for any: a memory making fewer stray links there lifts the mean over all
 * runs and hides links lost where there were links to make (Seal-Tools, runs recorded as a history: the memory
 * answered with node F1 +0.02 to +0.04 and lost edge F1 multi on the new queries). In words when it did; else
 * undefined.
 */
function tradedLinks<W extends string>(
  measures: ReplayMeasures<W> | undefined,
  preferred: W | BaselineWay,
): string | undefined {
  const own = measures?.get(preferred);
  const base = measures?.get('search');
  if (own?.links === undefined || base?.links === undefined) return undefined;
  const n = base.links.length;
  if ([own.links, own.node, own.edge, base.node, base.edge].some((m) => m.length !== n)) return undefined;
  const multi = base.links.flatMap((l, i) => (l.truth > 0 ? [i] : []));
  if (multi.length < 2) return undefined;
  const node = pairedGain(own.node, base.node);
  const at = (a: readonly number[]) => multi.map((i) => a[i] as number);
  const edge = pairedGain(at(own.edge), at(base.edge));
  return node.gain > TIE && edge.gain < -GAIN_RESOLUTION - TIE
    ? `its node F1 gained ${node.gain.toFixed(3)} while its edge F1 on the ${multi.length} multi-step runs ` +
        `(a link to make) fell ${(-edge.gain).toFixed(3)}: tools paid for with links`
    : undefined;
}
