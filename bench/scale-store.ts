/**
 * @module bench/scale-store
 * A year of work in one SQLite store (issue 20): `size` memories, `size` executions, `size / 10` tools and
 * `size` observations (100,000 / 100,000 / 10,000 / 100,000 by default), all in the scope `scale`, seeded:
 * the same size always gives the same store.
 *
 * - Memories: bench/recall's `benchMemories` (the Seal-Tools descriptions, then perturbed copies), created
 *   evenly over the year before `SCALE_NOW`, a tenth of them decisions.
 * - Tools: the same catalogue, cycled to `size / 10` (copies named `<id>_v<n>`, their descriptions perturbed).
 * - Executions: 300 task shapes, each a chain of 3–8 tools (popular tools more often) with an intent made of
 *   words of its tools' descriptions; every run takes a shape (a few shapes far more often than the rest), says
 *   its intent in varied wording (an opener, a word dropped, a pair swapped, a closing phrase), and in one run of
 *   five swaps one tool for another; 5 % of calls fail, 60 % consume the call before. Recorded through the
 *   engine (`recordExecutions`), so the graph and the learned workflows are what that many runs teach.
 * - Observations: eval/habits' stream (habits, noise, contradictions) stretched to `size` over the year.
 * - Then (unless `warm: false`) one recall, one tool search and one DAG suggestion, as a user's first queries
 *   would: the vectors they compute are stored, as in a store that has been used.
 *
 * Writes go straight through the store's batch methods in large transactions. Without ../shared/data the
 * catalogue is synthetic (bench/recall's `loadData`). Runnable: `node dist/bench/scale-store.js <path.db>
 * [--size 100000] [--no-warm]`; importable: `buildScaleStore({ path, size })`.
 */
import { existsSync, rmSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { ExecutionInput } from '../src/core/types.js';
import { contentWords } from '../src/core/text/words.js';
import { engineStore, openCredence } from '../src/engine/engine.js';
import type { ObservationRecord, ToolRecord } from '../src/store/types.js';
import { generateHabitStream } from '../eval/habits/stream.js';
import { mulberry32 } from './prng.js';
import { benchMemories, loadData } from './recall.js';

/** The scope every row of the scale store is in. */
export const SCALE_SCOPE = 'scale';
/** The store's "now": every row is older. */
export const SCALE_NOW = Date.parse('2026-06-01T00:00:00Z');
/** Bumped whenever the generator changes what it writes (a cached store of another version is rebuilt). */
export const SCALE_STORE_VERSION = 1;
export const SCALE_DEFAULTS = Object.freeze({ size: 100_000, shapes: 300, batch: 10_000 });

const YEAR_MS = 365 * 86_400_000;
const OPENERS = ['', '', 'please', 'can you', 'I need to', 'help me', 'quickly', 'now'];
const CLOSERS = [
  '',
  '',
  '',
  'for the report',
  'again',
  'for today',
  'before the release',
  'in staging',
  'for the team',
];

export interface ScaleStoreReport {
  path: string;
  size: number;
  source: string;
  counts: { memories: number; executions: number; calls: number; tools: number; observations: number };
  /** Milliseconds each step took. */
  ms: { memories: number; tools: number; executions: number; observations: number; warm: number; total: number };
}

interface Shape {
  tools: string[];
  intent: string[];
}

/** Tools: the catalogue cycled to `count`, copies renamed and their descriptions perturbed (benchMemories' rule). */
function scaleTools(base: readonly { name: string; description: string }[], count: number): ToolRecord[] {
  return benchMemories(base, count, 13).map((m) => ({
    id: m.id.replace('~', '_v'),
    description: m.text,
  }));
}

/** `count` task shapes over `tools`, seeded: popular tools (low indexes of a seeded order) come up more often. */
function taskShapes(tools: readonly ToolRecord[], count: number, rng: () => number): Shape[] {
  const popular = () => tools[Math.floor(rng() ** 2.5 * tools.length)] as ToolRecord;
  return Array.from({ length: count }, () => {
    const length = 3 + Math.floor(rng() * 6);
    const chain: ToolRecord[] = [];
    while (chain.length < length) {
      const t = popular();
      if (!chain.includes(t)) chain.push(t);
    }
    const first = contentWords(chain[0]?.description ?? '').slice(0, 3);
    const last = contentWords(chain[chain.length - 1]?.description ?? '').slice(0, 2);
    const intent = [...first, ...(last.length > 0 ? ['then', ...last] : [])];
    return { tools: chain.map((t) => t.id), intent: intent.length > 0 ? intent : ['run', 'the', 'task'] };
  });
}

/** One way of saying a shape's intent: an opener, a word dropped, an adjacent pair swapped, a closing phrase. */
function sayIntent(words: readonly string[], rng: () => number): string {
  const kept = words.length <= 3 ? [...words] : words.filter(() => rng() >= 0.15);
  if (kept.length > 1 && rng() < 0.3) {
    const at = Math.floor(rng() * (kept.length - 1));
    [kept[at], kept[at + 1]] = [kept[at + 1] as string, kept[at] as string];
  }
  const pick = (list: readonly string[]) => list[Math.floor(rng() * list.length)] ?? '';
  return [pick(OPENERS), ...kept, pick(CLOSERS)].filter((w) => w !== '').join(' ');
}

/** The runs, oldest first, evenly over the year before `SCALE_NOW`; shape k is chosen with weight 1 / (k + 1). */
function scaleExecutions(
  shapes: readonly Shape[],
  tools: readonly ToolRecord[],
  count: number,
  rng: () => number,
): ExecutionInput[] {
  const cumulative: number[] = [];
  let sum = 0;
  for (let k = 0; k < shapes.length; k += 1) cumulative.push((sum += 1 / (k + 1)));
  const shapeAt = (u: number): Shape => {
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cumulative[mid] as number) < u * sum) lo = mid + 1;
      else hi = mid;
    }
    return shapes[lo] as Shape;
  };
  const step = YEAR_MS / count;
  return Array.from({ length: count }, (_, i) => {
    const shape = shapeAt(rng());
    const chain = [...shape.tools];
    if (rng() < 0.2) chain[Math.floor(rng() * chain.length)] = tools[Math.floor(rng() * tools.length)]?.id ?? 'x';
    const startedAt = Math.round(SCALE_NOW - YEAR_MS + i * step);
    return {
      intent: sayIntent(shape.intent, rng),
      startedAt,
      calls: chain.map((tool, k) => ({
        tool,
        status: rng() < 0.95 ? ('success' as const) : ('failure' as const),
        durationMs: Math.round(20 + rng() * 400),
        at: startedAt + k * 2_000,
        ...(k > 0 && rng() < 0.6 ? { consumes: [k - 1] } : {}),
      })),
    };
  });
}

/** The habit stream stretched over the year: `count` observations, ids `scale-obs-<n>`. */
function scaleObservations(count: number): ObservationRecord[] {
  const stream = generateHabitStream({ seed: 20, total: count, days: 365, now: SCALE_NOW });
  return stream.observations.map((o, i) => ({
    id: `scale-obs-${i + 1}`,
    timestamp: o.timestamp,
    type: o.type,
    context: {},
    observation: o.text,
    evidence: [],
    confidence: o.confidence,
    tags: [...o.tags],
  }));
}

/**
 * Builds the scale store at `path` (replacing any file there). Prints nothing; `log` gets a line per step.
 */
export async function buildScaleStore(options: {
  path: string;
  size?: number;
  warm?: boolean;
  log?: (line: string) => void;
}): Promise<ScaleStoreReport> {
  const size = options.size ?? SCALE_DEFAULTS.size;
  const log = options.log ?? (() => {});
  const batch = SCALE_DEFAULTS.batch;
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${options.path}${suffix}`, { force: true });
  const data = loadData();
  const rng = mulberry32(20);
  let n = 0;
  const credence = await openCredence({
    db: options.path,
    scope: SCALE_SCOPE,
    now: SCALE_NOW,
    newId: () => `scale-run-${(n += 1)}`,
  });
  const store = engineStore(credence);
  const ms = { memories: 0, tools: 0, executions: 0, observations: 0, warm: 0, total: 0 };
  const counts = { memories: 0, executions: 0, calls: 0, tools: 0, observations: 0 };
  const t0 = performance.now();
  try {
    let t = performance.now();
    const memories = benchMemories(data.tools, size).map((m, i) => {
      const at = Math.round(SCALE_NOW - YEAR_MS + (i * YEAR_MS) / size);
      return { ...m, category: i % 10 === 9 ? 'decision' : m.category, createdAt: at, updatedAt: at };
    });
    for (let i = 0; i < memories.length; i += batch)
      await store.upsertMemories(SCALE_SCOPE, memories.slice(i, i + batch));
    counts.memories = memories.length;
    ms.memories = performance.now() - t;
    log(`memories: ${counts.memories} in ${ms.memories.toFixed(0)} ms`);

    t = performance.now();
    const tools = scaleTools(data.tools, Math.max(1, Math.round(size / 10)));
    for (let i = 0; i < tools.length; i += batch) await store.upsertTools(SCALE_SCOPE, tools.slice(i, i + batch));
    counts.tools = tools.length;
    ms.tools = performance.now() - t;
    log(`tools: ${counts.tools} in ${ms.tools.toFixed(0)} ms`);

    t = performance.now();
    const shapes = taskShapes(tools, SCALE_DEFAULTS.shapes, rng);
    const runs = scaleExecutions(shapes, tools, size, rng);
    const runBatch = 5_000;
    for (let i = 0; i < runs.length; i += runBatch)
      await credence.recordExecutions(runs.slice(i, i + runBatch), { edges: false });
    counts.executions = runs.length;
    counts.calls = runs.reduce((s, r) => s + r.calls.length, 0);
    ms.executions = performance.now() - t;
    log(`executions: ${counts.executions} (${counts.calls} calls) in ${ms.executions.toFixed(0)} ms`);

    t = performance.now();
    const observations = scaleObservations(size);
    let inserted = 0;
    for (let i = 0; i < observations.length; i += batch)
      inserted += (await store.insertObservations(SCALE_SCOPE, observations.slice(i, i + batch))).inserted;
    counts.observations = inserted;
    ms.observations = performance.now() - t;
    log(`observations: ${counts.observations} in ${ms.observations.toFixed(0)} ms`);

    if (options.warm !== false) {
      t = performance.now();
      const query = data.queries[0] ?? 'search the weather';
      await credence.recall(query, { track: false });
      await credence.searchTools(query, { limit: 10, track: false });
      await credence.suggestDag(query, { track: false });
      ms.warm = performance.now() - t;
      log(`first recall, tool search and DAG (vectors stored): ${ms.warm.toFixed(0)} ms`);
    }
  } finally {
    await credence.close();
  }
  ms.total = performance.now() - t0;
  return { path: options.path, size, source: data.source, counts, ms };
}

function parseArgs(argv: readonly string[]): { path: string; size: number; warm: boolean } {
  const path = argv.find((a, i) => !a.startsWith('--') && argv[i - 1] !== '--size');
  const at = argv.indexOf('--size');
  const size = at === -1 ? SCALE_DEFAULTS.size : Number(argv[at + 1]);
  if (path === undefined || !Number.isInteger(size) || size < 10)
    throw new Error('usage: node dist/bench/scale-store.js <path.db> [--size 100000] [--no-warm] (size ≥ 10)');
  return { path, size, warm: !argv.includes('--no-warm') };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = parseArgs(process.argv.slice(2));
  if (existsSync(args.path)) process.stderr.write(`replacing ${args.path}\n`);
  const report = await buildScaleStore({ ...args, log: (line) => process.stderr.write(`${line}\n`) });
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
}
