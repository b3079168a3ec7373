/**
 * @module engine/search/past-runs
 * The scope's past runs as the memory of runs reads them (issue 19): each run's task text, words, outcome and
 * shape in the store's order (newest first, then by id), the BM25 index of their intents and the per-pair counts
 * of the tools they used together. Kept across writes (issue 20): a recorded or appended run, or a deleted one,
 * updates its own entries, and the whole answers exactly as one built from every run. Persisted per scope
 * ({@link PastRuns.encode}): a new process reads the runs back in typed arrays and decodes only the runs, intent
 * terms and pair rows a query reads.
 */
import { IntentIndex, type IntentHit, type PackedIntents } from '../../core/experience/intent-index.js';
import { taskText } from '../../core/experience/task-text.js';
import { shapeKey, workedShape, type WorkflowShape } from '../../core/experience/workflow-shape.js';
import { runQuality } from '../../core/runs/run-quality.js';
import { textTerms, type TextTerms } from '../../core/text/term-weights.js';
import type { ExecutionRecord } from '../../store/types.js';

/** Tools of a run counted in the pair statistics. */
export const PAIR_TOOLS = 12;

/**
 * Tools looked up one by one (a scan of the names each) in read-back pair counts before a Map of every tool is made.
 */
const FEW_LOOKUPS = 32;

/** A tool's number in read-back pair counts, -1 when it is none: see {@link FEW_LOOKUPS}. */
function toolNumber(
  packed: { numbers?: Map<string, number>; looked?: Map<string, number> },
  names: readonly string[],
  tool: string,
): number {
  if (packed.numbers !== undefined) return packed.numbers.get(tool) ?? -1;
  packed.looked ??= new Map();
  const seen = packed.looked.get(tool);
  if (seen !== undefined) return seen;
  if (packed.looked.size >= FEW_LOOKUPS) {
    packed.numbers = new Map(names.map((name, number) => [name, number]));
    return packed.numbers.get(tool) ?? -1;
  }
  const number = names.indexOf(tool);
  packed.looked.set(tool, number);
  return number;
}

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
    shape: workedShape(x.calls),
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

/** Past runs as a new process reads them back ({@link PastRuns.decode}): typed arrays, texts parsed when read. */
interface PackedRuns {
  readonly size: number;
  readonly ids: Lines;
  readonly intents: Lines;
  /** A run's start and quality, by slot (their arrays read when first needed). */
  readonly startedAt: (slot: number) => number;
  readonly quality: (slot: number) => number;
  /** Each run's shape, a place in the shapes {@link shape} reads. */
  readonly shapeOf: (slot: number) => number;
  readonly shape: (place: number) => WorkflowShape;
}

/** Bytes read a range at a time: in memory, or the store's pieces ({@link PastRunsReader}). */
export interface ByteSource {
  readonly size: number;
  read(offset: number, length: number): Uint8Array;
  /** The bytes whole, when they are in memory (aligned to 8): arrays are then read over them as they lie. */
  readonly whole?: Uint8Array;
  /** Reads ahead, in one go, ranges (offset, length) about to be read (the store's pieces: one statement). */
  prefetch?(ranges: readonly (readonly [number, number])[]): void;
}

export class PastRuns {
  /** The runs made so far, by position: a run read back ({@link decode}) is made when first read. */
  #runs: (PastRun | undefined)[] = [];
  /** Each position's slot in the intent index: a slot below the count of runs read back is that run's place there. */
  #slotAt: number[] = [];
  /**
   * The count of runs read back while nothing moved them (else -1): position, slot and rank are then one number, and
   * the three arrays are made at the first change ({@link #own}; issue 20: a one-query process made three arrays of
   * 100k numbers, and let go of more while growing one, for the garbage collector to scan).
   */
  #identity = -1;
  /** The runs read back, if any. */
  #packed?: PackedRuns;
  /** For runs read back in pieces: reads ahead what {@link run} reads of some slots, or `positionOf` of some ids. */
  #ahead?: { runs: (slots: readonly number[]) => void; ids: (ids: readonly string[]) => void };
  /** Per ordered tool pair, from → to: how many runs used both tools, and how many linked from → to. */
  readonly #pairs = new Map<string, Map<string, PairCount>>();
  /** Pair counts read back and not all made yet: `[from, to, both, linked]` by tool number, rows by `from`. */
  #packedPairs?: {
    tools: () => readonly string[];
    /** The quads from `from` to `to` (places in quads: 4 numbers each). */
    quads: (from: number, to: number) => Int32Array;
    /**
     * Where each `from` tool's row lies in the quads, read when a row is first read: `index` as packed (the tool, where
     * its quads begin and end, a row after another), `at[t]` the place of tool t's row in it, -1 when none or taken.
     */
    rows: () => { index: Int32Array; at: Int32Array };
    /** Each tool's number, made once {@link FEW_LOOKUPS} tools were looked up one by one (-1: not a tool). */
    numbers?: Map<string, number>;
    looked?: Map<string, number>;
  };
  #intents = new IntentIndex();
  /** The slot of each run by id, but for runs read back (found in their packed ids). */
  readonly #slot = new Map<string, number>();
  /** Each slot's position in `runs` (-1 for an empty slot). */
  #rank: number[] = [];
  /** Runs of more than PAIR_TOOLS tools: their links count by the order runs come in (see {@link addPairs}). */
  #long = 0;
  /** The ids of those runs, once looked for (kept by {@link apply} from then on). */
  #longIds?: Set<string>;
  /** The outer links of those runs counted in the pairs ({@link outerLinks}), once computed. */
  #outer?: [string, string][];

  /**
   * From executions in any order, kept newest first, runs that started at one instant by id, as {@link apply} inserts
   * them: the store lists such runs latest recorded first (walk 14, item 8), and the sums over runs must not depend
   * on which way they came in (a fresh engine and one that saw them added agree to the last bit).
   */
  constructor(executions: readonly ExecutionRecord[] = []) {
    const runs: PastRun[] = [];
    for (const x of executions) {
      const run = pastRun(x);
      if (run !== undefined) runs.push(run);
    }
    runs.sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0));
    for (const run of runs) {
      const slot = this.#intents.add(run.task);
      this.#slot.set(run.id, slot);
      this.#rank.push(this.#runs.length);
      this.#slotAt.push(slot);
      this.#runs.push(run);
      if (run.shape.tools.length > PAIR_TOOLS) this.#long += 1;
      this.#addPairs(run.shape);
    }
  }

  /** How many runs there are. */
  get size(): number {
    return this.#identity >= 0 ? this.#identity : this.#slotAt.length;
  }

  /** The slot of the run at a position. */
  #slotAtPosition(position: number): number | undefined {
    if (this.#identity < 0) return this.#slotAt[position];
    return position >= 0 && position < this.#identity ? position : undefined;
  }

  /** The position of the run in a slot (-1 for an empty slot). */
  #rankOf(slot: number): number | undefined {
    if (this.#identity < 0) return this.#rank[slot];
    return slot >= 0 && slot < this.#identity ? slot : undefined;
  }

  /** Makes the arrays of positions, slots and ranks a change moves (runs read back are numbered alike at first). */
  #own(): void {
    const size = this.#identity;
    if (size < 0) return;
    const slotAt: number[] = new Array(size);
    const rank: number[] = new Array(size);
    const runs: (PastRun | undefined)[] = new Array(size).fill(undefined);
    for (let position = 0; position < size; position += 1) {
      slotAt[position] = position;
      rank[position] = position;
    }
    this.#runs.forEach((run, position) => {
      runs[position] = run;
    });
    this.#slotAt = slotAt;
    this.#rank = rank;
    this.#runs = runs;
    this.#identity = -1;
  }

  /** The run at a position (made when first read). */
  run(position: number): PastRun | undefined {
    const found = this.#runs[position];
    if (found !== undefined) return found;
    const slot = this.#slotAtPosition(position);
    const packed = this.#packed;
    if (slot === undefined || packed === undefined || slot >= packed.size) return undefined;
    const intent = packed.intents.at(slot);
    const task = taskText(intent);
    const run: PastRun = {
      id: packed.ids.at(slot),
      intent,
      startedAt: packed.startedAt(slot),
      task,
      terms: textTerms(task),
      quality: packed.quality(slot),
      shape: packed.shape(packed.shapeOf(slot)),
    };
    this.#runs[position] = run;
    return run;
  }

  /**
   * Reads ahead, a few statements in all, what {@link run} reads of the runs at these positions not made yet (runs
   * read back in pieces, issue 20: each field of each run was a statement of its own); nothing otherwise.
   */
  prefetchRuns(positions: readonly number[]): void {
    const ahead = this.#ahead;
    const size = this.#packed?.size ?? 0;
    if (ahead === undefined) return;
    const slots: number[] = [];
    for (const position of positions) {
      if (this.#runs[position] !== undefined) continue;
      const slot = this.#slotAtPosition(position);
      if (slot !== undefined && slot < size) slots.push(slot);
    }
    if (slots.length > 0) ahead.runs(slots);
  }

  /** Reads ahead, likewise, what {@link positionOf} reads to find these ids among the runs read back. */
  prefetchIds(ids: readonly string[]): void {
    const unknown = this.#ahead === undefined ? [] : ids.filter((id) => !this.#slot.has(id));
    if (unknown.length > 0) this.#ahead?.ids(unknown);
  }

  /** The runs in the store's order (every one made: {@link run} reads one). */
  get runs(): readonly PastRun[] {
    return Array.from({ length: this.size }, (_, position) => this.run(position) as PastRun);
  }

  /** How many runs used both tools (of their first PAIR_TOOLS), and how many linked from → to. */
  pair(from: string, to: string): PairCount | undefined {
    return this.#pairRow(from)?.get(to);
  }

  /**
   * The counts of the pairs from a tool (made from the packed counts when first read); `known`, the tool's number
   * when the caller has it. A query's few tools are found among the names one by one (issue 20: a Map of every tool,
   * ~10k at 100k, was ~3 ms of a one-query DAG), a writer's many through a Map made once.
   */
  #pairRow(from: string, known?: number): Map<string, PairCount> | undefined {
    const found = this.#pairs.get(from);
    const packed = this.#packedPairs;
    if (found !== undefined || packed === undefined) return found;
    const names = packed.tools();
    let t = known;
    if (t === undefined) {
      const number = toolNumber(packed, names, from);
      t = number < 0 ? undefined : number;
    }
    const rows = packed.rows();
    const place = t === undefined ? -1 : (rows.at[t] as number);
    if (t === undefined || place < 0) return undefined;
    const quads = packed.quads(rows.index[place + 1] as number, rows.index[place + 2] as number);
    const row = new Map<string, PairCount>();
    for (let at = 0; at < quads.length; at += 4)
      row.set(names[quads[at + 1] as number] as string, {
        both: quads[at + 2] as number,
        linked: quads[at + 3] as number,
      });
    rows.at[t] = -1;
    this.#pairs.set(from, row);
    return row;
  }

  /** Makes every pair row read back. */
  #allPairs(): void {
    const packed = this.#packedPairs;
    if (packed === undefined) return;
    const names = packed.tools();
    const { index, at } = packed.rows();
    for (let place = 0; place < index.length; place += 3) {
      const t = index[place] as number;
      if (at[t] === place) this.#pairRow(names[t] as string, t);
    }
    this.#packedPairs = undefined;
  }

  /** Every counted pair, as `[from, to, count]`. */
  *pairEntries(): Iterable<[string, string, PairCount]> {
    this.#allPairs();
    for (const [from, row] of this.#pairs) for (const [to, count] of row) yield [from, to, count];
  }

  /** The position of a run by id. */
  positionOf(id: string): number | undefined {
    const slot = this.#slotOf(id);
    return slot === undefined ? undefined : this.#rankOf(slot);
  }

  /** The slot of a run held, by id. */
  #slotOf(id: string): number | undefined {
    const slot = this.#slot.get(id) ?? this.#packed?.ids.find(id);
    const position = slot === undefined ? undefined : this.#rankOf(slot);
    return position === undefined || position < 0 ? undefined : slot;
  }

  /** The `limit` runs whose intents BM25 ranks best for `task` (positions, ties by position); `skip` leaves one out. */
  searchIntents(task: string, limit: number, skip?: number): IntentHit[] {
    const skipped = skip === undefined ? undefined : this.#slotAtPosition(skip);
    if (this.#identity >= 0)
      return this.#intents.search(task, limit, skipped).map((h) => ({ index: h.index, score: h.score }));
    const rank = this.#rank;
    return this.#intents
      .search(task, limit, skipped, (slot) => rank[slot] as number)
      .map((h) => ({ index: rank[h.index] as number, score: h.score }));
  }

  /** Brings the runs up to date: `changed` executions as they are now, `removed` ids deleted. */
  apply(changed: readonly ExecutionRecord[], removed: readonly string[]): void {
    if (changed.length === 0 && removed.length === 0) return;
    // A long run's outer links count where a run before it made the pair: taken out, and counted again after.
    const outer = this.#long > 0 ? (this.#outer ?? this.#outerLinks()) : [];
    if (this.#long === 0) this.#longIds ??= new Set();
    for (const [from, to] of outer) (this.pair(from, to) as PairCount).linked -= 1;
    for (const id of [...removed, ...changed.map((x) => x.id)]) this.#remove(id);
    for (const x of changed) {
      const run = pastRun(x);
      if (run !== undefined) this.#insert(run);
    }
    this.#outer = this.#long > 0 ? this.#outerLinks() : [];
    for (const [from, to] of this.#outer) (this.pair(from, to) as PairCount).linked += 1;
  }

  /** The ids of the runs of more than PAIR_TOOLS tools (looked for once, then kept). */
  #longRuns(): Set<string> {
    if (this.#longIds !== undefined) return this.#longIds;
    const ids = new Set<string>();
    for (let position = 0; position < this.size && ids.size < this.#long; position += 1)
      if (this.#shapeAt(position).tools.length > PAIR_TOOLS) ids.add(this.#fieldsAt(position).id);
    this.#longIds = ids;
    return ids;
  }

  /**
   * The links of long runs that are not between two of their first PAIR_TOOLS tools and that count (as an
   * in-order count, {@link addPairs}, counts them): those whose pair a run before it (a lower position) counted.
   * The runs are read from the first position until every such pair is found or the last long run is passed.
   */
  #outerLinks(): [string, string][] {
    const wanted = new Map<string, Map<string, number>>();
    const links: [string, string, number][] = [];
    let last = -1;
    for (const id of this.#longRuns()) {
      const position = this.positionOf(id) as number;
      const shape = this.#shapeAt(position);
      const first = shape.tools.slice(0, PAIR_TOOLS);
      for (const [from, to] of shape.edges) {
        if (from === to || (first.includes(from) && first.includes(to))) continue;
        links.push([from, to, position]);
        let row = wanted.get(from);
        if (row === undefined) wanted.set(from, (row = new Map()));
        row.set(to, Number.POSITIVE_INFINITY);
        last = Math.max(last, position);
      }
    }
    let open = 0;
    for (const row of wanted.values()) open += row.size;
    for (let position = 0; position < last && open > 0; position += 1) {
      const tools = this.#shapeAt(position).tools;
      const n = Math.min(tools.length, PAIR_TOOLS);
      for (let i = 0; i < n; i += 1) {
        const row = wanted.get(tools[i] as string);
        if (row === undefined) continue;
        for (let j = 0; j < n; j += 1) {
          const b = tools[j] as string;
          if (row.get(b) !== Number.POSITIVE_INFINITY) continue;
          row.set(b, position);
          open -= 1;
        }
      }
    }
    return links
      .filter(([from, to, position]) => (wanted.get(from)?.get(to) as number) < position)
      .map(([from, to]) => [from, to]);
  }

  /** What a position holds without making its run: its id, intent, start, quality and shape. */
  #fieldsAt(position: number): Pick<PastRun, 'id' | 'intent' | 'startedAt' | 'quality' | 'shape'> {
    const run = this.#runs[position];
    if (run !== undefined) return run;
    const packed = this.#packed as PackedRuns;
    const slot = this.#slotAtPosition(position) as number;
    return {
      id: packed.ids.at(slot),
      intent: packed.intents.at(slot),
      startedAt: packed.startedAt(slot),
      quality: packed.quality(slot),
      shape: this.#shapeAt(position),
    };
  }

  /** The shape of the run at a position (without making the run). */
  #shapeAt(position: number): WorkflowShape {
    const run = this.#runs[position];
    if (run !== undefined) return run.shape;
    const packed = this.#packed as PackedRuns;
    return packed.shape(packed.shapeOf(this.#slotAtPosition(position) as number));
  }

  /**
   * The runs as bytes, for a new process to read back ({@link decode}): numbers in typed arrays, texts as lines of
   * JSON, one shape per distinct shape.
   */
  encode(): Uint8Array {
    const runs = Array.from({ length: this.size }, (_, position) => this.#fieldsAt(position));
    const shapes = new Map<string, number>();
    const tools = new Map<string, number>();
    const toolOf = (tool: string): number => {
      let t = tools.get(tool);
      if (t === undefined) tools.set(tool, (t = tools.size));
      return t;
    };
    const shapeRows: number[] = [];
    const shapeStarts: number[] = [];
    const shapeOf = new Int32Array(runs.length);
    runs.forEach((run, position) => {
      let s = shapes.get(run.shape.key);
      if (s === undefined) {
        shapes.set(run.shape.key, (s = shapes.size));
        shapeStarts.push(shapeRows.length);
        shapeRows.push(run.shape.tools.length, ...run.shape.tools.map(toolOf), run.shape.edges.length);
        for (const [from, to] of run.shape.edges) shapeRows.push(toolOf(from), toolOf(to));
      }
      shapeOf[position] = s;
    });
    shapeStarts.push(shapeRows.length);
    const pairs: number[] = [];
    // Each `from` tool's row: the tool, where its quads begin and end (rows come one after another).
    const pairRows: number[] = [];
    for (const [from, to, count] of this.pairEntries()) {
      const f = toolOf(from);
      if (pairRows.at(-3) !== f) pairRows.push(f, pairs.length / 4, pairs.length / 4);
      pairs.push(f, toolOf(to), count.both, count.linked);
      pairRows[pairRows.length - 1] = pairs.length / 4;
    }
    const intents = this.#intents.pack((slot) => this.#rankOf(slot) as number);
    const ids = linesOf(
      runs.map((r) => r.id),
      true,
    );
    const intentLines = linesOf(runs.map((r) => r.intent));
    return packBytes(
      { long: this.#long, shapes: shapes.size },
      {
        ids: ids.bytes,
        intents: intentLines.bytes,
        tools: [...tools.keys()],
        terms: intents.terms,
      },
      {
        startedAt: Float64Array.from(runs, (r) => r.startedAt),
        quality: Float64Array.from(runs, (r) => r.quality),
        shapeOf,
        shapeRows: Int32Array.from(shapeRows),
        shapeStarts: Int32Array.from(shapeStarts),
        pairs: Int32Array.from(pairs),
        pairRows: Int32Array.from(pairRows),
        starts: intents.starts,
        postings: intents.postings,
        lengths: intents.lengths,
        idStarts: ids.starts,
        idSlots: ids.slots,
        intentStarts: intentLines.starts,
      },
    );
  }

  /** Runs read back from {@link encode}'s bytes; undefined when they are not such bytes (another format). */
  static decode(bytes: Uint8Array): PastRuns | undefined {
    // Typed arrays over the bytes need their offsets aligned: bytes that do not start at a multiple of 8 are copied.
    const own = bytes.byteOffset % 8 === 0 ? bytes : new Uint8Array(bytes);
    return PastRuns.open({
      size: own.byteLength,
      read: (offset, length) => own.subarray(offset, offset + length),
      whole: own,
    });
  }

  /**
   * Runs read back from {@link encode}'s bytes as a source gives them (the store's pieces, issue 20): the table at
   * their front, the intent lengths and terms at once, every other part when a query first reads it, and of the ids
   * and intents only the lines read. Undefined for bytes of another format.
   */
  static open(source: ByteSource): PastRuns | undefined {
    const read = unpackBytes(source);
    if (read === undefined) return undefined;
    const { numbers, texts, lines, array, count, numberAt, int32s } = read;
    const tools = once(() => texts('tools'));
    // Where each shape's rows start (and the last ends): a shape is read and made when a run read needs it.
    const shapeStart = numberAt('shapeStarts');
    const shapes: WorkflowShape[] = [];
    const shapeAt = (s: number): WorkflowShape => {
      const found = shapes[s];
      if (found !== undefined) return found;
      const all = int32s('shapeRows', shapeStart(s), shapeStart(s + 1));
      let at = 0;
      const names = tools();
      const shapeTools = [...all.subarray(at + 1, at + 1 + (all[at] as number))].map((t) => names[t] as string);
      at += 1 + (all[at] as number);
      const edges: [string, string][] = [];
      for (let e = 0; e < (all[at] as number); e += 1)
        edges.push([names[all[at + 1 + 2 * e] as number] as string, names[all[at + 2 + 2 * e] as number] as string]);
      return (shapes[s] = { tools: shapeTools, edges, key: shapeKey(shapeTools, edges) });
    };
    const out = new PastRuns();
    // Pairs are written row by row (one `from` tool after another): a row is made when a query reads it. Where each
    // tool's row lies is one typed array (issue 20: a Map of ~10k rows at 100k, made by a DAG to read a few).
    const pairRows = once(() => {
      const index = array('pairRows') as Int32Array;
      const at = new Int32Array(tools().length).fill(-1);
      for (let place = 0; place < index.length; place += 3) at[index[place] as number] = place;
      return { index, at };
    });
    out.#packedPairs = { tools, quads: (from, to) => int32s('pairs', 4 * from, 4 * to), rows: pairRows };
    out.#long = numbers.long as number;
    const size = count('shapeOf');
    out.#packed = {
      size,
      ids: lines('ids', 'idStarts', 'idSlots'),
      intents: lines('intents', 'intentStarts'),
      startedAt: numberAt('startedAt'),
      quality: numberAt('quality'),
      shapeOf: numberAt('shapeOf'),
      shape: shapeAt,
    };
    const starts = once(() => array('starts') as Int32Array);
    const postings = once(() => array('postings') as Int32Array);
    const packed: PackedIntents = {
      terms: texts('terms'),
      get starts() {
        return starts();
      },
      get postings() {
        return postings();
      },
      lengths: array('lengths') as Int32Array,
      // A query term's postings alone.
      postingsOf: (t) => int32s('postings', starts()[t] as number, starts()[t + 1] as number),
    };
    out.#intents = IntentIndex.unpack(packed);
    out.#identity = size;
    if (source.prefetch !== undefined) out.#ahead = readAhead(source.prefetch.bind(source), read, shapes);
    return out;
  }

  #insert(run: PastRun): void {
    this.#own();
    let lo = 0;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (before(this.run(mid) as PastRun, run)) lo = mid + 1;
      else hi = mid;
    }
    this.#runs.splice(lo, 0, run);
    const rank = this.#rank;
    for (let s = 0; s < rank.length; s += 1) if ((rank[s] as number) >= lo) rank[s] = (rank[s] as number) + 1;
    const slot = this.#intents.add(run.task);
    this.#rank[slot] = lo;
    this.#slotAt.splice(lo, 0, slot);
    this.#slot.set(run.id, slot);
    if (run.shape.tools.length > PAIR_TOOLS) {
      this.#long += 1;
      this.#longIds?.add(run.id);
    }
    this.#addPairs(run.shape, false);
  }

  #remove(id: string): void {
    const slot = this.#slotOf(id);
    if (slot === undefined) return;
    this.#own();
    const at = this.#rank[slot] as number;
    const run = this.run(at) as PastRun;
    this.#runs.splice(at, 1);
    this.#slotAt.splice(at, 1);
    const rank = this.#rank;
    for (let s = 0; s < rank.length; s += 1) if ((rank[s] as number) > at) rank[s] = (rank[s] as number) - 1;
    this.#rank[slot] = -1;
    this.#slot.delete(id);
    this.#intents.remove(slot, run.task);
    if (run.shape.tools.length > PAIR_TOOLS) {
      this.#long -= 1;
      this.#longIds?.delete(run.id);
    }
    this.#subtractPairs(run.shape);
  }

  /**
   * Counts a run's pairs: both for every ordered pair of its first PAIR_TOOLS tools, linked for each of its links
   * whose pair some run counted so far (for a run of at most PAIR_TOOLS tools, itself); without `outer`, only the
   * links between two of its first PAIR_TOOLS tools (the rest counted by {@link outerLinks}).
   */
  #addPairs(shape: WorkflowShape, outer = true): void {
    const tools = shape.tools.slice(0, PAIR_TOOLS);
    for (const a of tools) {
      let row = this.#pairRow(a);
      if (row === undefined) this.#pairs.set(a, (row = new Map()));
      for (const b of tools) {
        if (a === b) continue;
        const p = row.get(b);
        if (p === undefined) row.set(b, { both: 1, linked: 0 });
        else p.both += 1;
      }
    }
    for (const [from, to] of shape.edges) {
      if (!outer && !(tools.includes(from) && tools.includes(to))) continue;
      const p = this.pair(from, to);
      if (p !== undefined) p.linked += 1;
    }
  }

  /**
   * Takes a run out of the pair counts (its first PAIR_TOOLS tools and the links between them: the outer links of
   * a long run are taken out before); a pair no run holds any more goes.
   */
  #subtractPairs(shape: WorkflowShape): void {
    const tools = shape.tools.slice(0, PAIR_TOOLS);
    for (const [from, to] of shape.edges) {
      if (!(tools.includes(from) && tools.includes(to))) continue;
      const p = this.pair(from, to);
      if (p !== undefined) p.linked -= 1;
    }
    for (const a of tools) {
      const row = this.#pairRow(a);
      if (row === undefined) continue;
      for (const b of tools) {
        const p = a === b ? undefined : row.get(b);
        if (p === undefined) continue;
        p.both -= 1;
        if (p.both <= 0) row.delete(b);
      }
      if (row.size === 0) this.#pairs.delete(a);
    }
  }
}

/** A function's value, computed at the first call. */
function once<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}

type NumberArray = Int32Array | Float64Array;

/**
 * The format's mark: a reader of another version or byte order reads nothing (7: a failed call worth nothing; 8: a
 * run with a failure standing worth nothing; 9: whatever confidence the run states, and a failure made good by a
 * fallback that waited for it through `dependsOn` no longer standing, walk 16, items 8 and 9; 10: a run's shape
 * without the tools whose every call failed, walk 16, item 10; 11: a call retried as is, then its fallback, no longer
 * standing, review F, item 2; 12: an explicit DAG's sibling task of the same tool no retry, review F, item 9; 13:
 * the order through a tool left out of a run's shape kept, review F, item 6).
 */
const MAGIC = 0x5052000d;

/**
 * Bytes of numbers, text lists and typed arrays: a little header (the mark, the length of a JSON table of contents),
 * the table (numbers, and where each list's JSON and each array lie), then the parts, each at a multiple of 8.
 */
function packBytes(
  numbers: Record<string, number>,
  texts: Record<string, readonly string[] | Uint8Array>,
  arrays: Record<string, NumberArray>,
): Uint8Array {
  const encoder = new TextEncoder();
  const parts: { name: string; kind: 'text' | 'i32' | 'f64'; bytes: Uint8Array }[] = [];
  for (const [name, list] of Object.entries(texts))
    parts.push({ name, kind: 'text', bytes: list instanceof Uint8Array ? list : encoder.encode(JSON.stringify(list)) });
  for (const [name, array] of Object.entries(arrays))
    parts.push({
      name,
      kind: array instanceof Float64Array ? 'f64' : 'i32',
      bytes: new Uint8Array(array.buffer, array.byteOffset, array.byteLength),
    });
  const align = (n: number): number => Math.ceil(n / 8) * 8;
  let offset = 0;
  const places: Record<string, [string, number, number]> = {};
  for (const part of parts) {
    places[part.name] = [part.kind, offset, part.bytes.byteLength];
    offset = align(offset + part.bytes.byteLength);
  }
  // The arrays are in this machine's byte order, which the table notes.
  const table = encoder.encode(JSON.stringify({ numbers: { ...numbers, littleEndian: Number(littleEndian) }, places }));
  const start = align(8 + table.byteLength);
  const out = new Uint8Array(start + offset);
  const head = new DataView(out.buffer);
  head.setUint32(0, MAGIC, true);
  head.setUint32(4, table.byteLength, true);
  out.set(table, 8);
  for (const part of parts) out.set(part.bytes, start + (places[part.name] as [string, number, number])[1]);
  return out;
}

/** The parts of {@link packBytes}' bytes as a source gives them, each read when asked; undefined for another format. */
function unpackBytes(source: ByteSource):
  | {
      numbers: Record<string, number>;
      texts: (name: string) => string[];
      /** Lines of a text part (`starts`: its starts; `order`: its order by text, to find a line). */
      lines: (name: string, starts: string, slots?: string) => Lines;
      /** A typed array, read whole. */
      array: (name: string) => NumberArray;
      /** How many numbers a typed array holds (without reading it). */
      count: (name: string) => number;
      /** The numbers of a typed array one at a time (read where they lie, none read whole). */
      numberAt: (name: string) => (i: number) => number;
      /** Numbers `from` to `to` of an Int32 array (read where they lie). */
      int32s: (name: string, from: number, to: number) => Int32Array;
      /** Where elements `from` to `to` of a part lie in the source (offset, length; a text's elements are bytes). */
      rangeOf: (name: string, from: number, to: number) => [number, number];
    }
  | undefined {
  if (source.size < 8) return undefined;
  const front = source.read(0, 8);
  const head = new DataView(front.buffer, front.byteOffset, 8);
  if (head.getUint32(0, true) !== MAGIC) return undefined;
  const tableLength = head.getUint32(4, true);
  const decoder = new TextDecoder();
  const table = JSON.parse(decoder.decode(source.read(8, tableLength))) as {
    numbers: Record<string, number>;
    places: Record<string, [string, number, number]>;
  };
  if (table.numbers.littleEndian !== Number(littleEndian)) return undefined;
  const start = Math.ceil((8 + tableLength) / 8) * 8;
  const place = (name: string) => table.places[name] as [string, number, number];
  const raw = (name: string): Uint8Array => {
    const [, offset, length] = place(name);
    return source.read(start + offset, length);
  };
  const array = (name: string): NumberArray => {
    const [kind, , length] = place(name);
    const got = raw(name);
    // Typed arrays over the bytes need their offsets aligned: bytes read elsewhere are copied.
    const bytes = got.byteOffset % 8 === 0 ? got : new Uint8Array(got);
    return kind === 'f64'
      ? new Float64Array(bytes.buffer, bytes.byteOffset, length / 8)
      : new Int32Array(bytes.buffer, bytes.byteOffset, length / 4);
  };
  const count = (name: string): number => {
    const [kind, , length] = place(name);
    return length / (kind === 'f64' ? 8 : 4);
  };
  const texts = (name: string): string[] => JSON.parse(decoder.decode(raw(name))) as string[];
  const numberAt = (name: string): ((i: number) => number) => {
    if (source.whole !== undefined) {
      const all = array(name);
      return (i) => all[i] as number;
    }
    const [kind, offset] = place(name);
    const at = start + offset;
    if (kind === 'f64')
      return (i) => {
        const b = source.read(at + 8 * i, 8);
        return new DataView(b.buffer, b.byteOffset, 8).getFloat64(0, littleEndian);
      };
    return (i) => {
      const b = source.read(at + 4 * i, 4);
      return new DataView(b.buffer, b.byteOffset, 4).getInt32(0, littleEndian);
    };
  };
  const lines = (name: string, starts: string, slots?: string): Lines => {
    const at = start + place(name)[1];
    return new Lines(
      (from, to) => source.read(at + from, to - from),
      numberAt(starts),
      slots === undefined ? () => 0 : numberAt(slots),
      slots === undefined ? 0 : count(slots),
    );
  };
  const int32s = (name: string, from: number, to: number): Int32Array => {
    if (source.whole !== undefined) return (array(name) as Int32Array).subarray(from, to);
    const got = source.read(start + place(name)[1] + 4 * from, 4 * (to - from));
    // Typed arrays over the bytes need their offsets aligned: bytes read elsewhere are copied.
    const bytes = got.byteOffset % 4 === 0 ? got : new Uint8Array(got);
    return new Int32Array(bytes.buffer, bytes.byteOffset, to - from);
  };
  const rangeOf = (name: string, from: number, to: number): [number, number] => {
    const [kind, offset] = place(name);
    const width = kind === 'f64' ? 8 : kind === 'i32' ? 4 : 1;
    return [start + offset + width * from, width * (to - from)];
  };
  return { numbers: table.numbers, texts, lines, array, count, numberAt, int32s, rangeOf };
}

/**
 * What {@link PastRuns.run} and `positionOf` read, read ahead a stage at a time (each stage one `prefetch`): a run's
 * numbers and line starts, then its lines and its shape's start, then the shape's rows; an id's hash slots, then
 * its line's starts, then the line. The reads after it then find their pieces held (the same bytes, the same runs).
 */
function readAhead(
  prefetch: (ranges: readonly (readonly [number, number])[]) => void,
  read: NonNullable<ReturnType<typeof unpackBytes>>,
  shapes: readonly (WorkflowShape | undefined)[],
): { runs: (slots: readonly number[]) => void; ids: (ids: readonly string[]) => void } {
  const { numberAt, rangeOf, count } = read;
  const idStart = numberAt('idStarts');
  const intentStart = numberAt('intentStarts');
  const shapeOf = numberAt('shapeOf');
  const shapeStart = numberAt('shapeStarts');
  const idSlot = numberAt('idSlots');
  const slots = count('idSlots');
  const lineOf = (part: string, starts: (i: number) => number, i: number): [number, number] => {
    const from = starts(i);
    return rangeOf(part, from, Math.max(from, starts(i + 1) - 1));
  };
  return {
    runs: (runs) => {
      prefetch(
        runs.flatMap((s) => [
          rangeOf('startedAt', s, s + 1),
          rangeOf('quality', s, s + 1),
          rangeOf('shapeOf', s, s + 1),
          rangeOf('idStarts', s, s + 2),
          rangeOf('intentStarts', s, s + 2),
        ]),
      );
      const places = [...new Set(runs.map((s) => shapeOf(s)))].filter((p) => shapes[p] === undefined);
      prefetch([
        ...runs.flatMap((s) => [lineOf('ids', idStart, s), lineOf('intents', intentStart, s)]),
        ...places.map((p) => rangeOf('shapeStarts', p, p + 2)),
      ]);
      prefetch(places.map((p) => rangeOf('shapeRows', shapeStart(p), shapeStart(p + 1))));
    },
    ids: (ids) => {
      if (slots === 0) return;
      const first = ids.map((id) => hashOf(id) & (slots - 1));
      prefetch(first.map((slot) => rangeOf('idSlots', slot, Math.min(slots, slot + 2))));
      const lines = first.map((slot) => idSlot(slot) - 1).filter((line) => line >= 0);
      prefetch(lines.map((line) => rangeOf('idStarts', line, line + 2)));
      prefetch(lines.map((line) => lineOf('ids', idStart, line)));
    },
  };
}

/**
 * Texts as lines of JSON ({@link Lines}): their bytes, where each begins (and the last ends), and, when `findable`, a
 * hash table of them: slots (a power of two, at least twice the lines) holding line + 1 (0: empty), each line put
 * at its text's hash or the next free slot after it, lines in order (so a text's first line is found first).
 */
function linesOf(
  texts: readonly string[],
  findable = false,
): { bytes: Uint8Array; starts: Int32Array; slots: Int32Array } {
  const bytes = new TextEncoder().encode(`\n${texts.map((t) => `${JSON.stringify(t)}\n`).join('')}`);
  const starts = new Int32Array(texts.length + 1);
  for (let at = 0, n = 0; at < bytes.length; at += 1) if (bytes[at] === NEWLINE) starts[n++] = at + 1;
  let size = findable ? 2 : 0;
  while (size > 0 && size < 2 * texts.length) size *= 2;
  const slots = new Int32Array(size);
  if (findable)
    texts.forEach((text, line) => {
      let slot = hashOf(text) & (size - 1);
      while ((slots[slot] as number) !== 0) slot = (slot + 1) & (size - 1);
      slots[slot] = line + 1;
    });
  return { bytes, starts, slots };
}

/** FNV-1a over a text's UTF-16 code units (the same in every process). */
function hashOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * Texts as lines of JSON, each line after a newline (JSON holds none): one is read, or found by its text, without
 * parsing the others, nor reading their bytes.
 */
class Lines {
  /**
   * `read`: the bytes from, to; `startAt`: where line i begins (i = the count: where the last ends); `slotAt`: the
   * hash table's slot i ({@link linesOf}), of `slots` (none when the lines are not to be found by text).
   */
  constructor(
    readonly read: (from: number, to: number) => Uint8Array,
    readonly startAt: (i: number) => number,
    readonly slotAt: (i: number) => number,
    readonly slots: number,
  ) {}

  /** The text of line `i`. */
  at(i: number): string {
    const line = this.read(this.startAt(i), this.startAt(i + 1) - 1);
    return JSON.parse(lineDecoder.decode(line)) as string;
  }

  /** The first line of a text, or undefined: its hash's slot, then the next ones until an empty slot. */
  find(text: string): number | undefined {
    if (this.slots === 0) return undefined;
    for (let slot = hashOf(text) & (this.slots - 1); ; slot = (slot + 1) & (this.slots - 1)) {
      const line = this.slotAt(slot) - 1;
      if (line < 0) return undefined;
      if (this.at(line) === text) return line;
    }
  }
}

const NEWLINE = 10;
const lineDecoder = new TextDecoder();

/** Whether this machine's typed arrays are little-endian (what the bytes were written in is noted with them). */
const littleEndian = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
