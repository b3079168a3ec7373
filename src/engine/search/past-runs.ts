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
import { shapeKey, workflowShape, type WorkflowShape } from '../../core/experience/workflow-shape.js';
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

/** Past runs as a new process reads them back ({@link PastRuns.decode}): typed arrays, texts parsed when read. */
interface PackedRuns {
  readonly size: number;
  readonly ids: Lines;
  readonly intents: Lines;
  readonly startedAt: Float64Array;
  readonly quality: Float64Array;
  /** Each run's shape, a place in the shapes {@link shape} reads. */
  readonly shapeOf: Int32Array;
  readonly shape: (place: number) => WorkflowShape;
}

export class PastRuns {
  /** The runs made so far, by position: a run read back ({@link decode}) is made when first read. */
  readonly #runs: (PastRun | undefined)[] = [];
  /** Each position's slot in the intent index: a slot below the count of runs read back is that run's place there. */
  readonly #slotAt: number[] = [];
  /** The runs read back, if any. */
  #packed?: PackedRuns;
  /** Per ordered tool pair, from → to: how many runs used both tools, and how many linked from → to. */
  readonly #pairs = new Map<string, Map<string, PairCount>>();
  /** Pair counts read back and not all made yet: `[from, to, both, linked]` by tool number, rows by `from`. */
  #packedPairs?: {
    tools: () => readonly string[];
    quads: Int32Array;
    /** Where each `from` tool's row lies in `quads` (found when a row is first read; rows taken are deleted). */
    rows?: Map<number, [number, number]>;
    numbers?: Map<string, number>;
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

  /** From executions in the store's order (`listExecutions`). */
  constructor(executions: readonly ExecutionRecord[] = []) {
    for (const x of executions) {
      const run = pastRun(x);
      if (run === undefined) continue;
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
    return this.#slotAt.length;
  }

  /** The run at a position (made when first read). */
  run(position: number): PastRun | undefined {
    const found = this.#runs[position];
    if (found !== undefined) return found;
    const slot = this.#slotAt[position];
    const packed = this.#packed;
    if (slot === undefined || packed === undefined || slot >= packed.size) return undefined;
    const intent = packed.intents.at(slot);
    const task = taskText(intent);
    const run: PastRun = {
      id: packed.ids.at(slot),
      intent,
      startedAt: packed.startedAt[slot] as number,
      task,
      terms: textTerms(task),
      quality: packed.quality[slot] as number,
      shape: packed.shape(packed.shapeOf[slot] as number),
    };
    this.#runs[position] = run;
    return run;
  }

  /** The runs in the store's order (every one made: {@link run} reads one). */
  get runs(): readonly PastRun[] {
    return Array.from({ length: this.size }, (_, position) => this.run(position) as PastRun);
  }

  /** How many runs used both tools (of their first PAIR_TOOLS), and how many linked from → to. */
  pair(from: string, to: string): PairCount | undefined {
    return this.#pairRow(from)?.get(to);
  }

  /** The counts of the pairs from a tool (made from the packed counts when first read). */
  #pairRow(from: string): Map<string, PairCount> | undefined {
    const found = this.#pairs.get(from);
    const packed = this.#packedPairs;
    if (found !== undefined || packed === undefined) return found;
    const names = packed.tools();
    packed.numbers ??= new Map(names.map((name, t) => [name, t]));
    const t = packed.numbers.get(from);
    const rows = pairRowsOf(packed);
    const place = t === undefined ? undefined : rows.get(t);
    if (t === undefined || place === undefined) return undefined;
    const { quads } = packed;
    const row = new Map<string, PairCount>();
    for (let at = place[0]; at < place[1]; at += 4)
      row.set(names[quads[at + 1] as number] as string, {
        both: quads[at + 2] as number,
        linked: quads[at + 3] as number,
      });
    rows.delete(t);
    this.#pairs.set(from, row);
    return row;
  }

  /** Makes every pair row read back. */
  #allPairs(): void {
    const packed = this.#packedPairs;
    if (packed === undefined) return;
    const names = packed.tools();
    for (const t of [...pairRowsOf(packed).keys()]) this.#pairRow(names[t] as string);
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
    return slot === undefined ? undefined : this.#rank[slot];
  }

  /** The slot of a run held, by id. */
  #slotOf(id: string): number | undefined {
    const slot = this.#slot.get(id) ?? this.#packed?.ids.find(id);
    const position = slot === undefined ? undefined : this.#rank[slot];
    return position === undefined || position < 0 ? undefined : slot;
  }

  /** The `limit` runs whose intents BM25 ranks best for `task` (positions, ties by position); `skip` leaves one out. */
  searchIntents(task: string, limit: number, skip?: number): IntentHit[] {
    const skipped = skip === undefined ? undefined : this.#slotAt[skip];
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
    const slot = this.#slotAt[position] as number;
    return {
      id: packed.ids.at(slot),
      intent: packed.intents.at(slot),
      startedAt: packed.startedAt[slot] as number,
      quality: packed.quality[slot] as number,
      shape: this.#shapeAt(position),
    };
  }

  /** The shape of the run at a position (without making the run). */
  #shapeAt(position: number): WorkflowShape {
    const run = this.#runs[position];
    if (run !== undefined) return run.shape;
    const packed = this.#packed as PackedRuns;
    return packed.shape(packed.shapeOf[this.#slotAt[position] as number] as number);
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
    const shapeOf = new Int32Array(runs.length);
    runs.forEach((run, position) => {
      let s = shapes.get(run.shape.key);
      if (s === undefined) {
        shapes.set(run.shape.key, (s = shapes.size));
        shapeRows.push(run.shape.tools.length, ...run.shape.tools.map(toolOf), run.shape.edges.length);
        for (const [from, to] of run.shape.edges) shapeRows.push(toolOf(from), toolOf(to));
      }
      shapeOf[position] = s;
    });
    const pairs: number[] = [];
    for (const [from, to, count] of this.pairEntries()) pairs.push(toolOf(from), toolOf(to), count.both, count.linked);
    const rank = this.#rank;
    const intents = this.#intents.pack((slot) => rank[slot] as number);
    const ids = Lines.of(
      runs.map((r) => r.id),
      true,
    );
    const intentLines = Lines.of(runs.map((r) => r.intent));
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
        pairs: Int32Array.from(pairs),
        starts: intents.starts,
        postings: intents.postings,
        lengths: intents.lengths,
        idStarts: ids.starts,
        idOrder: ids.order,
        intentStarts: intentLines.starts,
      },
    );
  }

  /** Runs read back from {@link encode}'s bytes; undefined when they are not such bytes (another format). */
  static decode(bytes: Uint8Array): PastRuns | undefined {
    const read = unpackBytes(bytes);
    if (read === undefined) return undefined;
    const { numbers, texts, raw, arrays } = read;
    const tools = once(() => texts('tools'));
    const rows = arrays.shapeRows as Int32Array;
    // Where each shape starts in `rows` (found when a run's shape is first read): shapes are made when read.
    const shapeStarts = once(() => {
      const starts = new Int32Array(numbers.shapes as number);
      for (let s = 0, at = 0; s < starts.length; s += 1) {
        starts[s] = at;
        at += 1 + (rows[at] as number);
        at += 1 + 2 * (rows[at] as number);
      }
      return starts;
    });
    const shapes: WorkflowShape[] = [];
    const shapeAt = (s: number): WorkflowShape => {
      const found = shapes[s];
      if (found !== undefined) return found;
      let at = shapeStarts()[s] as number;
      const names = tools();
      const shapeTools = [...rows.subarray(at + 1, at + 1 + (rows[at] as number))].map((t) => names[t] as string);
      at += 1 + (rows[at] as number);
      const edges: [string, string][] = [];
      for (let e = 0; e < (rows[at] as number); e += 1)
        edges.push([names[rows[at + 1 + 2 * e] as number] as string, names[rows[at + 2 + 2 * e] as number] as string]);
      return (shapes[s] = { tools: shapeTools, edges, key: shapeKey(shapeTools, edges) });
    };
    const out = new PastRuns();
    // Pairs are written row by row (one `from` tool after another): a row is made when a query reads it.
    out.#packedPairs = { tools, quads: arrays.pairs as Int32Array };
    out.#long = numbers.long as number;
    const shapeOf = arrays.shapeOf as Int32Array;
    out.#packed = {
      size: shapeOf.length,
      ids: new Lines(raw('ids'), arrays.idStarts as Int32Array, arrays.idOrder as Int32Array),
      intents: new Lines(raw('intents'), arrays.intentStarts as Int32Array, new Int32Array(0)),
      startedAt: arrays.startedAt as Float64Array,
      quality: arrays.quality as Float64Array,
      shapeOf,
      shape: shapeAt,
    };
    const packed: PackedIntents = {
      terms: texts('terms'),
      starts: arrays.starts as Int32Array,
      postings: arrays.postings as Int32Array,
      lengths: arrays.lengths as Int32Array,
    };
    out.#intents = IntentIndex.unpack(packed);
    const rank: number[] = new Array(shapeOf.length);
    for (let position = 0; position < shapeOf.length; position += 1) {
      out.#slotAt.push(position);
      rank[position] = position;
    }
    out.#rank = rank;
    out.#runs.length = shapeOf.length;
    out.#runs.fill(undefined);
    return out;
  }

  #insert(run: PastRun): void {
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

/** Where each `from` tool's row of packed pair counts lies, found in one pass over them at the first read. */
function pairRowsOf(packed: {
  quads: Int32Array;
  rows?: Map<number, [number, number]>;
}): Map<number, [number, number]> {
  if (packed.rows !== undefined) return packed.rows;
  const { quads } = packed;
  const rows = new Map<number, [number, number]>();
  for (let at = 0; at < quads.length; at += 4) {
    const row = rows.get(quads[at] as number);
    if (row === undefined) rows.set(quads[at] as number, [at, at + 4]);
    else row[1] = at + 4;
  }
  packed.rows = rows;
  return rows;
}

/** A function's value, computed at the first call. */
function once<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}

type NumberArray = Int32Array | Float64Array;

/** The format's mark: a reader of another version or byte order reads nothing. */
const MAGIC = 0x50520004;

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

/** The parts of {@link packBytes}' bytes; undefined for bytes of another format. */
function unpackBytes(bytes: Uint8Array):
  | {
      numbers: Record<string, number>;
      texts: (name: string) => string[];
      raw: (name: string) => Uint8Array;
      arrays: Record<string, NumberArray>;
    }
  | undefined {
  if (bytes.byteLength < 8) return undefined;
  // Typed arrays over the bytes need their offsets aligned: bytes that do not start at a multiple of 8 are copied.
  const own = bytes.byteOffset % 8 === 0 ? bytes : new Uint8Array(bytes);
  const head = new DataView(own.buffer, own.byteOffset, own.byteLength);
  if (head.getUint32(0, true) !== MAGIC) return undefined;
  const tableLength = head.getUint32(4, true);
  const decoder = new TextDecoder();
  const table = JSON.parse(decoder.decode(own.subarray(8, 8 + tableLength))) as {
    numbers: Record<string, number>;
    places: Record<string, [string, number, number]>;
  };
  if (table.numbers.littleEndian !== Number(littleEndian)) return undefined;
  const start = Math.ceil((8 + tableLength) / 8) * 8;
  const arrays: Record<string, NumberArray> = {};
  for (const [name, [kind, offset, length]] of Object.entries(table.places)) {
    const at = own.byteOffset + start + offset;
    if (kind === 'i32') arrays[name] = new Int32Array(own.buffer, at, length / 4);
    if (kind === 'f64') arrays[name] = new Float64Array(own.buffer, at, length / 8);
  }
  const raw = (name: string): Uint8Array => {
    const [, offset, length] = table.places[name] as [string, number, number];
    return own.subarray(start + offset, start + offset + length);
  };
  const texts = (name: string): string[] => JSON.parse(decoder.decode(raw(name))) as string[];
  return { numbers: table.numbers, texts, raw, arrays };
}

/**
 * Texts as lines of JSON, each line after a newline (JSON holds none): one is read, or found by its text, without
 * parsing the others.
 */
class Lines {
  /** `bytes`: the lines; `starts`: where each begins, and the end of the last; `order`: the lines by text. */
  constructor(
    readonly bytes: Uint8Array,
    readonly starts: Int32Array,
    readonly order: Int32Array,
  ) {}

  /** The lines of a list of texts; `findable`, with their order by text ({@link find}). */
  static of(texts: readonly string[], findable = false): Lines {
    const bytes = new TextEncoder().encode(`\n${texts.map((t) => `${JSON.stringify(t)}\n`).join('')}`);
    const starts = new Int32Array(texts.length + 1);
    for (let at = 0, n = 0; at < bytes.length; at += 1) if (bytes[at] === NEWLINE) starts[n++] = at + 1;
    const order = Int32Array.from(findable ? texts.keys() : []).sort((a, b) => {
      const x = texts[a] as string;
      const y = texts[b] as string;
      return x < y ? -1 : x > y ? 1 : a - b;
    });
    return new Lines(bytes, starts, order);
  }

  /** The text of line `i`. */
  at(i: number): string {
    const { starts } = this;
    const line = this.bytes.subarray(starts[i] as number, (starts[i + 1] as number) - 1);
    return JSON.parse(lineDecoder.decode(line)) as string;
  }

  /** The first line of a text, or undefined: a binary search over the lines in text order. */
  find(text: string): number | undefined {
    const { order } = this;
    let lo = 0;
    let hi = order.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.at(order[mid] as number) < text) lo = mid + 1;
      else hi = mid;
    }
    const line = order[lo];
    return line !== undefined && this.at(line) === text ? line : undefined;
  }
}

const NEWLINE = 10;
const lineDecoder = new TextDecoder();

/** Whether this machine's typed arrays are little-endian (what the bytes were written in is noted with them). */
const littleEndian = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
