/**
 * @module engine/search/past-runs
 * The scope's past runs as the memory of runs reads them (issue 19): each run's task text, words, outcome and
 * shape in the store's order (newest first, then by id), the BM25 index of their intents and the per-pair counts
 * of the tools they used together. Kept across writes (issue 20): a recorded or appended run, or a deleted one,
 * updates its own entries, and the whole answers exactly as one built from every run.
 */
import { IntentIndex, type IntentHit } from '../../core/experience/intent-index.js';
import { taskText } from '../../core/experience/task-text.js';
import { workflowShape, type WorkflowShape } from '../../core/experience/workflow-shape.js';
import { runQuality } from '../../core/runs/run-quality.js';
import { textTerms, type TextTerms } from '../../core/text/term-weights.js';
import type { ExecutionRecord } from '../../store/types.js';

/** Tools of a run counted in the pair statistics. */
export const PAIR_TOOLS = 12;

export interface PastRun {
  readonly id: string;
  readonly intent: string;
  readonly startedAt: number;
  /** The intent with its names and titles as one word ({@link taskText}): what it is compared on. */
  readonly task: string;
  /** The task's words, read once for the word share. */
  readonly terms: TextTerms;
  readonly quality: number;
  readonly shape: WorkflowShape;
}

/** A past run of an execution, or undefined for one without calls or intent (it teaches nothing). */
export function pastRun(x: ExecutionRecord): PastRun | undefined {
  if (x.calls.length === 0 || x.intent.trim() === '') return undefined;
  const task = taskText(x.intent);
  return {
    id: x.id,
    intent: x.intent,
    startedAt: x.startedAt,
    task,
    terms: textTerms(task),
    quality: runQuality(x),
    shape: workflowShape(x.calls),
  };
}

/** The store's order of executions: newest first, then by id. */
const before = (a: PastRun, b: PastRun): boolean =>
  a.startedAt > b.startedAt || (a.startedAt === b.startedAt && a.id < b.id);

/** How many runs used both tools of a pair, and how many of them linked it. */
export interface PairCount {
  both: number;
  linked: number;
}

export class PastRuns {
  /** The runs in the store's order: a run's position is its place here. */
  readonly runs: PastRun[] = [];
  /** Per ordered tool pair, from → to: how many runs used both tools, and how many linked from → to. */
  readonly #pairs = new Map<string, Map<string, PairCount>>();
  readonly #intents = new IntentIndex();
  /** Each run's slot in the intent index, by id. */
  readonly #slot = new Map<string, number>();
  /** Each slot's position in `runs` (-1 for an empty slot). */
  readonly #rank: number[] = [];
  /** Runs of more than PAIR_TOOLS tools: their links count by the order runs come in (see {@link addPairs}). */
  #long = 0;

  /** From executions in the store's order (`listExecutions`). */
  constructor(executions: readonly ExecutionRecord[] = []) {
    for (const x of executions) {
      const run = pastRun(x);
      if (run === undefined) continue;
      this.#slot.set(run.id, this.#intents.add(run.task));
      this.#rank.push(this.runs.length);
      this.runs.push(run);
      if (run.shape.tools.length > PAIR_TOOLS) this.#long += 1;
      this.#addPairs(run);
    }
  }

  /** How many runs used both tools (of their first PAIR_TOOLS), and how many linked from → to. */
  pair(from: string, to: string): PairCount | undefined {
    return this.#pairs.get(from)?.get(to);
  }

  /** Every counted pair, as `[from, to, count]`. */
  *pairEntries(): Iterable<[string, string, PairCount]> {
    for (const [from, row] of this.#pairs) for (const [to, count] of row) yield [from, to, count];
  }

  /** The position of a run by id. */
  positionOf(id: string): number | undefined {
    const slot = this.#slot.get(id);
    return slot === undefined ? undefined : this.#rank[slot];
  }

  /** The `limit` runs whose intents BM25 ranks best for `task` (positions, ties by position); `skip` leaves one out. */
  searchIntents(task: string, limit: number, skip?: number): IntentHit[] {
    const skipped = skip === undefined ? undefined : this.#slot.get(this.runs[skip]?.id ?? '');
    const rank = this.#rank;
    return this.#intents
      .search(task, limit, skipped, (slot) => rank[slot] as number)
      .map((h) => ({ index: rank[h.index] as number, score: h.score }));
  }

  /** Brings the runs up to date: `changed` executions as they are now, `removed` ids deleted. */
  apply(changed: readonly ExecutionRecord[], removed: readonly string[]): void {
    const long = this.#long;
    for (const id of [...removed, ...changed.map((x) => x.id)]) this.#remove(id);
    for (const x of changed) {
      const run = pastRun(x);
      if (run !== undefined) this.#insert(run);
    }
    if (this.#long > 0 || long > 0) {
      // A long run's links count only where a run before it made the pair: counted again in order.
      this.#pairs.clear();
      for (const run of this.runs) this.#addPairs(run);
    }
  }

  #insert(run: PastRun): void {
    let lo = 0;
    let hi = this.runs.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (before(this.runs[mid] as PastRun, run)) lo = mid + 1;
      else hi = mid;
    }
    this.runs.splice(lo, 0, run);
    const rank = this.#rank;
    for (let s = 0; s < rank.length; s += 1) if ((rank[s] as number) >= lo) rank[s] = (rank[s] as number) + 1;
    const slot = this.#intents.add(run.task);
    this.#rank[slot] = lo;
    this.#slot.set(run.id, slot);
    if (run.shape.tools.length > PAIR_TOOLS) this.#long += 1;
    else this.#addPairs(run);
  }

  #remove(id: string): void {
    const slot = this.#slot.get(id);
    if (slot === undefined) return;
    const at = this.#rank[slot] as number;
    const [run] = this.runs.splice(at, 1) as [PastRun];
    const rank = this.#rank;
    for (let s = 0; s < rank.length; s += 1) if ((rank[s] as number) > at) rank[s] = (rank[s] as number) - 1;
    this.#rank[slot] = -1;
    this.#slot.delete(id);
    this.#intents.remove(slot, run.task);
    if (run.shape.tools.length > PAIR_TOOLS) this.#long -= 1;
    else this.#subtractPairs(run);
  }

  /**
   * Counts a run's pairs: both for every ordered pair of its first PAIR_TOOLS tools, linked for each of its links
   * whose pair some run counted so far (for a run of at most PAIR_TOOLS tools, itself).
   */
  #addPairs(run: PastRun): void {
    const tools = run.shape.tools.slice(0, PAIR_TOOLS);
    for (const a of tools) {
      let row = this.#pairs.get(a);
      if (row === undefined) this.#pairs.set(a, (row = new Map()));
      for (const b of tools) {
        if (a === b) continue;
        const p = row.get(b);
        if (p === undefined) row.set(b, { both: 1, linked: 0 });
        else p.both += 1;
      }
    }
    for (const [from, to] of run.shape.edges) {
      const p = this.pair(from, to);
      if (p !== undefined) p.linked += 1;
    }
  }

  /** Takes a run of at most PAIR_TOOLS tools out of the pair counts; a pair no run holds any more goes. */
  #subtractPairs(run: PastRun): void {
    for (const [from, to] of run.shape.edges) {
      const p = this.pair(from, to);
      if (p !== undefined) p.linked -= 1;
    }
    for (const a of run.shape.tools) {
      const row = this.#pairs.get(a);
      if (row === undefined) continue;
      for (const b of run.shape.tools) {
        const p = a === b ? undefined : row.get(b);
        if (p === undefined) continue;
        p.both -= 1;
        if (p.both <= 0) row.delete(b);
      }
      if (row.size === 0) this.#pairs.delete(a);
    }
  }
}
