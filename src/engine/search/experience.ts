/**
 * @module engine/search/experience
 * The memory of past runs as a proposer (issue 19): the nearest past intents (BM25 over intent text and
 * embedding cosine), their workflows voted ({@link voteNeighbours}), and the memory's own calibration —
 * leave-one-out over the store's past runs: for a sample of them, how well their neighbours' proposal
 * matched what they really did, fitted monotone to the proposal's strength. The past runs are kept across writes
 * (past-runs); what is computed from them, once per search index and version of the runs.
 */
import { fitIsotonic, predictIsotonic, type IsotonicFit } from '../../core/experience/isotonic.js';
import { fitLogistic, predictLogistic, type LogisticFit } from '../../core/experience/logistic.js';
import { bestLinkRule, type LinkRule } from '../../core/experience/link-choice.js';
import { setF1, voteNeighbours, type MemoryProposal, type Neighbour } from '../../core/experience/neighbour-vote.js';
import { taskText } from '../../core/experience/task-text.js';
import { edgeKey } from '../../core/experience/workflow-shape.js';
import type { DagEdgeInput } from '../../core/dag/dag-build.js';
import { byScoreThenRun } from '../../core/rank-order.js';
import { queryTermShareOf } from '../../core/text/term-weights.js';
import { contentWords } from '../../core/text/words.js';
import { SIDE_WRITE_WAIT_MS } from '../../core/errors.js';
import type { SearchContext, SearchIndex } from './search-index.js';
import { PastRuns, type PastRun } from './past-runs.js';
import type { SimilarityScan } from './vectors.js';
import type { ExecutionRecord, FeedbackStore, FitStore, PastRunsReader, PastRunsStore } from '../../store/types.js';

/** How many nearest past runs vote. */
export const MEMORY_NEIGHBOURS = 5;
/** The similarity from which a past run's intent counts as near (the intent memory's floor, SPEC §5). */
export const MEMORY_FLOOR = 0.3;
/** How many past runs the calibration replays at most. */
export const CALIBRATION_SAMPLE = 200;
/** How many of them also replay the search-built DAG (a search costs more than a vote). */
export const SEARCH_CALIBRATION_SAMPLE = 100;
/** Replayed runs from which a calibration speaks (under them, it is measured again whenever the runs change). */
export const MIN_CALIBRATION = 10;
/** How many candidates each of BM25 and cosine gives before the similarity ranks them. */
const CANDIDATES = 30;

export { PAIR_TOOLS, type PastRun } from './past-runs.js';

/** The scope's past runs ({@link PastRuns}): positions, the intent index and the pair counts. */
export type Experience = PastRuns;

/** Past runs kept per store and scope across writes (issue 20), with the revision they reflect. */
const kept = new WeakMap<object, Map<string, Promise<Held>>>();
/** The past runs each index reads. */
const built = new WeakMap<SearchIndex, { runs: PastRuns; version: number }>();
/** How many times kept past runs were brought up to date: a cache of answers is good for one version only. */
const versions = new WeakMap<PastRuns, number>();

/** What reads the change log (migration 8): stores without it build the past runs from the index. */
interface ChangeReads {
  revision(scope: string): Promise<number>;
  changedSince(
    scope: string,
    kind: 'execution',
    since: number,
  ): Promise<{ revision: number; changed: string[]; removed: string[] }>;
  getExecutionsByIds(scope: string, ids: readonly string[]): Promise<ExecutionRecord[]>;
  listExecutions(scope: string): Promise<ExecutionRecord[]>;
}

const readsChanges = (store: object): store is ChangeReads =>
  ['revision', 'changedSince', 'getExecutionsByIds', 'listExecutions'].every(
    (m) => typeof (store as Record<string, unknown>)[m] === 'function',
  );

/**
 * Runs brought up to date since the persisted copy from which it is persisted again: writing 100k runs costs about
 * a second, and bringing a copy a few runs behind up to date a few milliseconds.
 */
const PERSIST_AFTER = 1000;

/**
 * Kept past runs: the revision they reflect, the runs applied since they were last persisted, and the store's
 * reader they read their parts from, if they were read back in pieces (migration 14).
 */
interface Held {
  runs: PastRuns;
  revision: number;
  unpersisted: number;
  reader?: PastRunsReader;
}

/** The past runs a store persisted for the scope (migration 11), when at most at `revision`. */
async function persisted(store: object, scope: string, revision: number): Promise<Held | undefined> {
  const { readPastRuns, openPastRuns } = store as Partial<PastRunsStore>;
  if (openPastRuns !== undefined) {
    // The parts a query reads, as it reads them (issue 20): a new process reads a few pieces of ~20 MB at 100k.
    const reader = await openPastRuns.call(store, scope).catch(() => undefined);
    if (reader === undefined || reader.revision > revision) return undefined;
    let runs: PastRuns | undefined;
    try {
      runs = PastRuns.open(reader);
    } catch {
      return undefined;
    }
    return runs === undefined ? undefined : { runs, revision: reader.revision, unpersisted: 0, reader };
  }
  const stored = await readPastRuns?.call(store, scope).catch(() => undefined);
  if (stored === undefined || stored.revision > revision) return undefined;
  const runs = PastRuns.decode(stored.data);
  return runs === undefined ? undefined : { runs, revision: stored.revision, unpersisted: 0 };
}

/** Persists the runs for a new process (a read-only store, or a failed write, keeps nothing). */
async function persist(store: object, scope: string, held: Held): Promise<void> {
  const { writePastRuns } = store as Partial<PastRunsStore>;
  if (writePastRuns === undefined) return;
  const bytes = held.runs.encode();
  // A short wait: another process writing keeps this read waiting no longer than that (the runs are kept next time).
  const written = await writePastRuns
    .call(store, scope, held.revision, bytes, { busyWaitMs: SIDE_WRITE_WAIT_MS })
    .catch(() => false);
  held.unpersisted = 0;
  // Runs that read their parts from the store's pieces are read from these bytes now: a later write may take the
  // pieces away (the previous generation stays, not the one before). Runs built in full are too (issue 20): their
  // parts as objects held ~230 MB more at 100k than the bytes read back, for the life of the engine that built them.
  const decoded = written ? PastRuns.decode(bytes) : undefined;
  if (decoded !== undefined) {
    held.runs = decoded;
    held.reader = undefined;
  }
}

/**
 * Brings the scope's kept past runs up to date with the store (the runs written or deleted since the revision
 * they reflect, by any writer) and gives them to `ctx.index`: a write costs what it touched, not a rebuild.
 * Without a change log, the index's own executions are read (once per index); with one, they are the first
 * runs kept when the index listed them at revision `listedAt` or later, else the ones the store persisted
 * (migration 11), else every run listed. Runs built in full are persisted, and again once PERSIST_AFTER runs were
 * written since the persisted copy (by any process: a new one pays for the change log since, a few ms a run).
 */
export async function keepPastRuns(ctx: SearchContext, listedAt?: number): Promise<Experience> {
  const { store, scope } = ctx;
  if (!readsChanges(store)) return experienceOf(ctx.index);
  let byScope = kept.get(store);
  if (byScope === undefined) kept.set(store, (byScope = new Map()));
  const previous = byScope.get(scope);
  const next = (async (): Promise<Held> => {
    let held = previous === undefined ? undefined : await previous.catch(() => undefined);
    // Runs read in pieces that two writes since took away are read again (then brought up to date below).
    if (held?.reader !== undefined && !held.reader.intact()) held = undefined;
    const revision = await store.revision(scope);
    // The index's own list, read at `listedAt` or later, spares reading every run again.
    const listed = ctx.index.executions;
    if (held === undefined && listedAt !== undefined && listed !== undefined && listedAt <= revision) {
      const built: Held = { runs: new PastRuns(listed), revision: listedAt, unpersisted: 0 };
      await persist(store, scope, built);
      held = built;
    }
    if (held === undefined || revision < held.revision) {
      const found = await persisted(store, scope, revision);
      if (found === undefined) {
        // Read after the revision: a run written meanwhile is read again at the next update (no harm).
        const built: Held = { runs: new PastRuns(await store.listExecutions(scope)), revision, unpersisted: 0 };
        await persist(store, scope, built);
        return built;
      }
      // Found behind the store: brought up to date below (persisted again when far behind).
      held = found;
    }
    if (revision === held.revision) return held;
    const changes = await store.changedSince(scope, 'execution', held.revision);
    // A write that touched no run (a memory, an observation) moves the revision only: what was read stays.
    if (changes.changed.length === 0 && changes.removed.length === 0) {
      return { ...held, revision: changes.revision };
    }
    held.runs.apply(await store.getExecutionsByIds(scope, changes.changed), changes.removed);
    versions.set(held.runs, (versions.get(held.runs) ?? 0) + 1);
    const now: Held = {
      ...held,
      revision: changes.revision,
      unpersisted: held.unpersisted + changes.changed.length + changes.removed.length,
    };
    if (now.unpersisted >= PERSIST_AFTER) await persist(store, scope, now);
    return now;
  })();
  byScope.set(scope, next);
  next.catch(() => byScope?.delete(scope));
  const { runs } = await next;
  built.set(ctx.index, { runs, version: versions.get(runs) ?? 0 });
  return runs;
}

/** The past runs of the index: the kept ones ({@link keepPastRuns}), else built from its executions (once). */
export function experienceOf(index: SearchIndex): Experience {
  let e = built.get(index);
  if (e === undefined) built.set(index, (e = { runs: new PastRuns(index.executions ?? []), version: 0 }));
  return e.runs;
}

/** A value computed from an index's past runs, with the version of the runs it was computed from. */
export interface RunsCached<T> {
  runs: PastRuns;
  version: number;
  value: T;
}

/** A value per index and version of its past runs: what was computed from runs since brought up to date is not. */
export function perRuns<T>(cache: WeakMap<SearchIndex, RunsCached<T>>, index: SearchIndex, make: () => T): T {
  const runs = experienceOf(index);
  const version = versions.get(runs) ?? 0;
  const found = cache.get(index);
  if (found !== undefined && found.runs === runs && found.version === version) return found.value;
  const value = make();
  cache.set(index, { runs, version, value });
  return value;
}

/**
 * The `k` past runs whose intents are nearest `text`, best first: candidates from BM25 and cosine, ranked by
 * the absolute similarity 0.5 · cosine + 0.5 · share of the query's words the intent holds. `skip` leaves one
 * run out (the calibration's replay).
 */
export async function nearestRuns(
  ctx: SearchContext,
  text: string,
  options: { k?: number; skip?: number; vector?: Float32Array; floor?: number } = {},
): Promise<Neighbour[]> {
  const k = options.k ?? MEMORY_NEIGHBOURS;
  // One request asks about the same texts several times (boost, vote, parts): the default list is kept.
  if (options.vector === undefined && options.floor === undefined && k <= MEMORY_NEIGHBOURS) {
    const cache = perRuns(nearCache, ctx.index, () => new Map<string, Promise<Neighbour[]>>());
    const key = `${options.skip ?? ''}\u0000${text}`;
    let found = cache.get(key);
    if (found === undefined) {
      if (cache.size >= NEAR_CACHE) cache.clear();
      found = findNearestRuns(ctx, text, { ...(options.skip === undefined ? {} : { skip: options.skip }) });
      cache.set(key, found);
    }
    return (await found).slice(0, k);
  }
  return findNearestRuns(ctx, text, options);
}

/** Texts whose nearest runs are kept per index (a bound, so a long-lived server does not grow). */
const NEAR_CACHE = 256;
const nearCache = new WeakMap<
  SearchIndex,
  { runs: PastRuns; version: number; value: Map<string, Promise<Neighbour[]>> }
>();

/**
 * Per index, the scan of the runs' vectors by the zero vector (a text of no known word, such as a part '2013' of a
 * long intent): every run's similarity is 0 whatever the text, so one scan serves them all (issue 20: the int8 pass
 * prunes no row for it, and every run was scored and sorted again for each such text).
 */
const zeroScans = new WeakMap<SearchIndex, Promise<SimilarityScan>>();

function zeroScan(index: SearchIndex, zero: Float32Array): Promise<SimilarityScan> {
  let scan = zeroScans.get(index);
  if (scan === undefined) {
    scan = index.executionVectors.scan(zero, CANDIDATES + 1);
    zeroScans.set(index, scan);
    scan.catch(() => zeroScans.delete(index));
  }
  return scan;
}

/**
 * Nearest runs best first; a tie by the run's content (its start, intent, then tools) before its id, which is random
 * (core/rank-order): by its place in the store's list alone, runs of one intent at one time came in the order of ids.
 */
const byNearest = byScoreThenRun<{ similarity: number; run: PastRun }>(
  (n) => n.similarity,
  (n) => n.run,
  (n) => n.run.shape.tools,
);

async function findNearestRuns(
  ctx: SearchContext,
  text: string,
  options: { k?: number; skip?: number; vector?: Float32Array; floor?: number },
): Promise<Neighbour[]> {
  const past = experienceOf(ctx.index);
  if (past.size === 0) return [];
  const task = taskText(text);
  const lexical = past.searchIntents(task, CANDIDATES, options.skip).map((h) => h.index);
  // Runs read back in pieces: what the runs below read, read ahead in a few statements (issue 20).
  past.prefetchRuns(lexical);
  const vector = options.vector ?? (await ctx.embedder.embed([task]))[0];
  const skipId = options.skip === undefined ? undefined : past.run(options.skip)?.id;
  const cos =
    vector !== undefined && vector.length > 0 && vector.every((v) => v === 0)
      ? await zeroScan(ctx.index, vector)
      : await ctx.index.executionVectors.scan(
          vector,
          CANDIDATES + 1,
          lexical.map((i) => past.run(i)?.id as string),
        );
  const pool = new Set<number>(lexical);
  past.prefetchIds(cos.top);
  const ranked: number[] = [];
  for (const id of cos.top) {
    const i = past.positionOf(id);
    if (i !== undefined && id !== skipId) ranked.push(i);
  }
  past.prefetchRuns(ranked);
  for (const i of ranked) pool.add(i);
  const words = [...new Set(contentWords(task))];
  return [...pool]
    .map((i) => {
      const run = past.run(i) as PastRun;
      const similarity = 0.5 * Math.max(0, cos.of(run.id)) + 0.5 * queryTermShareOf(words, run.terms);
      return { id: run.id, intent: run.intent, similarity, quality: run.quality, shape: run.shape, run };
    })
    .filter((n) => n.similarity >= (options.floor ?? MEMORY_FLOOR))
    .sort(byNearest)
    .slice(0, options.k ?? MEMORY_NEIGHBOURS)
    .map(({ run: _run, ...n }) => n);
}

/** What one replay of the search-built DAG gave: its tools and the seed formula's confidence. */
export type SearchReplay = (
  intent: string,
  leaveOut: number,
) => Promise<{
  tools: readonly string[];
  confidence: number;
  /** Every candidate tool with its feature row (learned-selection). */
  candidates: readonly { tool: string; row: readonly number[] }[];
  /** The ordered pairs of `tools` with their feature rows. */
  edgeRows: (tools: readonly string[]) => readonly { from: string; to: string; row: readonly number[] }[];
}>;

export interface Calibration {
  /** Node F1 of the memory's proposal as a monotone function of its strength. */
  readonly memory: IsotonicFit;
  /** Node F1 of the search-built DAG as a monotone function of the seed formula's confidence. */
  readonly search: IsotonicFit;
  /** How likely a candidate tool is one the run used, from its features (undefined without replays). */
  readonly tools?: LogisticFit;
  /** How likely a pair of the run's tools was linked that way, from its features. */
  readonly edges?: LogisticFit;
  /** Which links to keep, the rule that best matched the replays, with each rule's mean edge F1. */
  readonly linkRule?: { rule: LinkRule; f1: Record<LinkRule, number> };
  /** Tools a replayed run used that no candidate held, on average. */
  readonly missing: number;
  /** Replays of the search the tool and edge fits stand on. */
  readonly replays: number;
}

/** Evenly spaced positions of `size` items, at most `limit`. */
export function evenSample(size: number, limit: number): number[] {
  const step = Math.max(1, size / limit);
  const out: number[] = [];
  for (let x = 0; Math.floor(x) < size && out.length < limit; x += step) out.push(Math.floor(x));
  return out;
}

/**
 * The scope's calibration, from its own past runs: up to {@link CALIBRATION_SAMPLE} of them (evenly spaced)
 * are replayed from their intent alone — the memory with the run left out, and (for the first
 * {@link SEARCH_CALIBRATION_SAMPLE}) the search-built DAG — and the node F1 each got against what the run
 * really used is fitted monotone to the memory's strength and to the seed formula's confidence.
 */
export function calibration(ctx: SearchContext, replaySearch: SearchReplay): Promise<Calibration> {
  return perRuns(calibrations, ctx.index, () =>
    carriedOver(ctx, 'calibration', MIN_CALIBRATION, async () => {
      const past = experienceOf(ctx.index);
      const sample = evenSample(past.size, CALIBRATION_SAMPLE);
      const vectors = await ctx.embedder.embed(sample.map((i) => (past.run(i) as PastRun).task));
      const memory: { x: number; y: number }[] = [];
      const search: { x: number; y: number }[] = [];
      const toolX: (readonly number[])[] = [];
      const toolY: number[] = [];
      const edgeX: (readonly number[])[] = [];
      const edgeY: number[] = [];
      const edgeReplays: {
        rows: readonly { from: string; to: string; row: readonly number[] }[];
        linked: Set<string>;
      }[] = [];
      let missing = 0;
      let replays = 0;
      const searchSample = new Set(evenSample(sample.length, SEARCH_CALIBRATION_SAMPLE).map((j) => sample[j]));
      for (const [j, i] of sample.entries()) {
        const run = past.run(i) as PastRun;
        const truth = new Set(run.shape.tools);
        const proposal = voteNeighbours(
          await nearestRuns(ctx, run.intent, { skip: i, ...(vectors[j] ? { vector: vectors[j] } : {}) }),
        );
        if (proposal.neighbours.length > 0)
          memory.push({ x: proposal.strength, y: setF1(new Set(proposal.tools.map((t) => t.tool)), truth) });
        if (searchSample.has(i)) {
          const replay = await replaySearch(run.intent, i);
          search.push({ x: replay.confidence, y: setF1(new Set(replay.tools), truth) });
          const offered = new Set(replay.candidates.map((c) => c.tool));
          for (const c of replay.candidates) {
            toolX.push(c.row);
            toolY.push(truth.has(c.tool) ? 1 : 0);
          }
          missing += [...truth].filter((t) => !offered.has(t)).length;
          replays += 1;
          const linked = new Set(run.shape.edges.map(([from, to]) => edgeKey(from, to)));
          const rows = replay.edgeRows([...truth].filter((t) => offered.has(t)).sort());
          for (const e of rows) {
            edgeX.push(e.row);
            edgeY.push(linked.has(edgeKey(e.from, e.to)) ? 1 : 0);
          }
          edgeReplays.push({ rows, linked });
        }
      }
      const edges = edgeX.length === 0 ? undefined : fitLogistic(edgeX, edgeY);
      const linkRule =
        edges === undefined
          ? undefined
          : bestLinkRule(
              edgeReplays.map((r) => ({
                links: r.rows.map((e) => ({ from: e.from, to: e.to, p: predictLogistic(edges, e.row) })),
                truth: r.linked,
              })),
            );
      return {
        memory: fitIsotonic(memory),
        search: fitIsotonic(search),
        ...(toolX.length === 0 ? {} : { tools: fitLogistic(toolX, toolY) }),
        ...(edges === undefined || linkRule === undefined ? {} : { edges, linkRule }),
        missing: replays === 0 ? 0 : missing / replays,
        replays,
      };
    }),
  );
}

const calibrations = new WeakMap<SearchIndex, { runs: PastRuns; version: number; value: Promise<Calibration> }>();

export interface MemoryAdvice {
  readonly proposal: MemoryProposal;
  /** How often a proposal this strong matched the run, from the calibration. */
  readonly expected: number;
  /** How many replayed runs the memory's calibration stands on. */
  readonly calibratedOn: number;
}

/** What the memory proposes for `text`, with how often such proposals were right. */
export async function adviseFromMemory(
  ctx: SearchContext,
  text: string,
  fit: Calibration,
  leaveOut?: number,
): Promise<MemoryAdvice | undefined> {
  const proposal = voteNeighbours(await nearestRuns(ctx, text, leaveOut === undefined ? {} : { skip: leaveOut }));
  if (proposal.tools.length === 0) return undefined;
  return { proposal, expected: predictIsotonic(fit.memory, proposal.strength), calibratedOn: fit.memory.n };
}

/**
 * Links between `tools` that past runs made: from → to when at least half of the runs that used both linked
 * them that way (its confidence, that share). What orders a DAG's tools when the graph has no confident edge.
 */
export function experienceEdges(experience: Experience, tools: readonly string[]): DagEdgeInput[] {
  const out: DagEdgeInput[] = [];
  for (const from of tools)
    for (const to of tools) {
      if (from === to) continue;
      const p = experience.pair(from, to);
      if (p !== undefined && p.both > 0 && p.linked / p.both >= 0.5)
        out.push({ from, to, type: 'sequence', confidence: p.linked / p.both });
    }
  return out;
}

/** A verdict given on a searched tool: the query it was shown for, the tool, and whether it was accepted. */
export interface JudgedSearch {
  readonly query: string;
  readonly tool: string;
  readonly accepted: boolean;
}

const judged = new WeakMap<SearchIndex, Promise<JudgedSearch[]>>();

/** The scope's verdicts on searched tools (read once per search index). */
export function judgedSearches(ctx: SearchContext & { store: Partial<FeedbackStore> }): Promise<JudgedSearch[]> {
  let found = judged.get(ctx.index);
  if (found === undefined) {
    found = (async () => {
      const { listFeedback, getShown } = ctx.store;
      if (listFeedback === undefined || getShown === undefined) return [];
      const events = (await listFeedback.call(ctx.store, ctx.scope)).filter((e) => e.targetId.startsWith('sh-'));
      const out: JudgedSearch[] = [];
      for (const e of events) {
        const shown = await getShown.call(ctx.store, ctx.scope, e.targetId);
        if (shown?.surface !== 'search' || shown.query === undefined || shown.verdict === undefined) continue;
        out.push({ query: shown.query, tool: shown.target, accepted: shown.verdict === 'accepted' });
      }
      return out;
    })();
    judged.set(ctx.index, found);
  }
  return found;
}

/** Kept fits per store and scope, with the sizes they were measured at. */
const carried = new WeakMap<object, Map<string, { runs: number; tools: number; value: Promise<unknown> }>>();

/** A relative change from which kept fits are measured again. */
const REMEASURE_AT = 0.1;

/**
 * Whether sizes measured `then` still stand `now`: within a tenth (at least 10) of them; a fit that rests on every
 * run because there were fewer than `exactBelow` of them stands only at the same count (re-measuring it is cheap).
 */
const near = (then: number, now: number, exactBelow = 0): boolean =>
  then < exactBelow ? now === then : Math.abs(now - then) <= Math.max(10, REMEASURE_AT * then);

/** A value JSON gives back as it was: no number that is not finite, no undefined in an array. */
function survivesJson(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every((v) => v !== undefined && survivesJson(v));
  if (value !== null && typeof value === 'object') return Object.values(value).every(survivesJson);
  return value === null || typeof value === 'string' || typeof value === 'boolean';
}

/** The store's revision of the scope, where it keeps one (issue 20), else 0: what a stored fit notes. */
async function revisionOf(store: object, scope: string): Promise<number> {
  const read = (store as { revision?: (scope: string) => Promise<number> }).revision;
  return read === undefined ? 0 : await read.call(store, scope);
}

/**
 * A fit measured on the scope's replays, kept until its past runs or its tools change by more than a tenth (at
 * least 10): replaying hundreds of runs after every recorded call, or in every new process, would cost seconds each
 * time. Kept across the writes of a long-lived process (a server, the gateway), and in the store (issue 20), so a
 * new process reads it instead of measuring it again; a fit measured anew replaces the stored one. A fit measured on
 * fewer than `exactBelow` past runs (so on each of them, fewer than its sample) is measured again whenever their
 * count changed: few replays say little, and one more run can change its verdict.
 */
export function carriedOver<T>(
  ctx: SearchContext,
  what: string,
  exactBelow: number,
  measure: () => Promise<T>,
): Promise<T> {
  const runs = experienceOf(ctx.index).size;
  const tools = ctx.index.toolIds.size;
  let byScope = carried.get(ctx.store);
  if (byScope === undefined) carried.set(ctx.store, (byScope = new Map()));
  const key = `${what}\u0000${ctx.scope}`;
  const kept = byScope.get(key);
  if (kept !== undefined && near(kept.runs, runs, exactBelow) && near(kept.tools, tools))
    return kept.value as Promise<T>;
  const value = storedOrMeasured(ctx, what, { runs, tools }, measure, exactBelow);
  byScope.set(key, { runs, tools, value });
  value.catch(() => byScope?.delete(key));
  return value;
}

async function storedOrMeasured<T>(
  ctx: SearchContext,
  name: string,
  sizes: { runs: number; tools: number },
  measure: () => Promise<T>,
  exactBelow: number,
): Promise<T> {
  const store = ctx.store as Partial<FitStore>;
  const stored = await store.getFit?.call(ctx.store, ctx.scope, name);
  if (stored !== undefined && near(stored.runs, sizes.runs, exactBelow) && near(stored.tools, sizes.tools))
    return JSON.parse(stored.value) as T;
  const revision = await revisionOf(ctx.store, ctx.scope);
  const value = await measure();
  if (store.putFit !== undefined && survivesJson(value)) {
    const fit = { name, ...sizes, revision, value: JSON.stringify(value), fittedAt: ctx.now() };
    // A store opened read-only (or a failed write) keeps nothing: the next process measures again.
    await store.putFit.call(ctx.store, ctx.scope, fit, { busyWaitMs: SIDE_WRITE_WAIT_MS }).catch(() => undefined);
  }
  return value;
}
