/**
 * @module eval/data
 * Reads the public evaluation data (../shared/data, see its README) through the project's parsers,
 * and splits it in two with a seeded shuffle.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { mulberry32 } from '../bench/prng.js';
import type { ExecutionInput } from '../src/core/types.js';
import {
  parseNestfulData,
  parseNestfulSpec,
  parseSealToolsQuery,
  parseSealToolsTool,
  parseTaskPlanRequest,
  parseTaskPlanTools,
  readJsonLines,
} from '../src/datasets/index.js';
import type { ToolRecord } from '../src/store/types.js';

/** One ground-truth query: its id, the file it came from, its text (the intent) and its calls. */
export type Sample = Omit<ExecutionInput, 'id'> & {
  id: string;
  source: string;
  /** The ground-truth dependency links, when the set states them apart from the calls (task-plan sets). */
  links?: readonly { from: string; to: string }[];
};

export interface DataSet {
  name: string;
  tools: ToolRecord[];
  samples: Sample[];
  /** Irregularities the parsers reported (dropped references, duplicate tools). */
  problems: number;
}

export const NESTFUL_PARTS = ['executable', 'non-executable-glaive', 'non-executable-sgd'] as const;

const readJson = (path: string): unknown => JSON.parse(readFileSync(path, 'utf8')) as unknown;

/** Keeps the first record of each id. */
function dedupe(tools: readonly ToolRecord[]): ToolRecord[] {
  const seen = new Set<string>();
  return tools.filter((t) => (seen.has(t.id) ? false : (seen.add(t.id), true)));
}

/** True when the data folder holds both data sets. */
export function hasData(dataDir: string): boolean {
  return existsSync(join(dataDir, 'nestful')) && existsSync(join(dataDir, 'seal-tools'));
}

/** NESTFUL: the three specs as one catalogue, the three data files as samples (300). */
export function loadNestful(dataDir: string): DataSet {
  const dir = join(dataDir, 'nestful');
  const raw: ToolRecord[] = [];
  for (const part of NESTFUL_PARTS)
    raw.push(...parseNestfulSpec(readJson(join(dir, `${part}-spec.json`)), `nestful:${part}`));
  const tools = dedupe(raw);
  const samples: Sample[] = [];
  let problems = raw.length - tools.length;
  for (const part of NESTFUL_PARTS) {
    const data = parseNestfulData(readJson(join(dir, `${part}-data.json`)), part);
    problems += data.problems.length;
    for (const { sampleId, ...execution } of data.executions)
      samples.push({ id: sampleId, source: part, ...execution });
  }
  return { name: 'NESTFUL', tools, samples, problems };
}

function readSealQueries(dir: string, file: string): { samples: Sample[]; problems: number } {
  const text = readJsonLines(readFileSync(join(dir, file), 'utf8'));
  const samples = text.values.map(({ line, value }) => {
    const { queryId, ...execution } = parseSealToolsQuery(value, line - 1);
    return { id: queryId, source: file.replace(/\.jsonl$/, ''), ...execution };
  });
  return { samples, problems: text.errors.length };
}

/** Seal-Tools: the 4,076 tools of tool.jsonl; `dev` and `test_in_domain` queries kept apart. */
export function loadSealTools(dataDir: string): {
  tools: ToolRecord[];
  dev: Sample[];
  test: Sample[];
  problems: number;
} {
  const dir = join(dataDir, 'seal-tools');
  const text = readJsonLines(readFileSync(join(dir, 'tool.jsonl'), 'utf8'));
  const raw = text.values.map(({ value }) => parseSealToolsTool(value));
  const tools = dedupe(raw);
  const dev = readSealQueries(dir, 'dev.jsonl');
  const test = readSealQueries(dir, 'test_in_domain.jsonl');
  return {
    tools,
    dev: dev.samples,
    test: test.samples,
    problems: text.errors.length + raw.length - tools.length + dev.problems + test.problems,
  };
}

/** True when the data folder holds a task-plan set `name` (e.g. `restbench-tmdb`). */
export function hasTaskPlan(dataDir: string, name: string): boolean {
  return existsSync(join(dataDir, name, 'data.json')) && existsSync(join(dataDir, name, 'tool_desc.json'));
}

/** A task-plan set (GNN4TaskPlan's format, e.g. RestBench-TMDB): its tools and every request as a sample. */
export function loadTaskPlan(dataDir: string, name: string, title: string): DataSet {
  const dir = join(dataDir, name);
  const tools = dedupe(parseTaskPlanTools(readJson(join(dir, 'tool_desc.json')), name));
  const lines = readJsonLines(readFileSync(join(dir, 'data.json'), 'utf8'));
  let problems = lines.errors.length;
  const samples: Sample[] = lines.values.map(({ line, value }) => {
    const { requestId, links, dropped, ...execution } = parseTaskPlanRequest(value, line - 1);
    problems += dropped;
    return { id: requestId, source: name, links, ...execution };
  });
  return { name: title, tools, samples, problems };
}

/** A seeded Fisher–Yates shuffle (mulberry32), so a split is the same on every run. */
export function shuffled<T>(items: readonly T[], seed: number): T[] {
  const random = mulberry32(seed);
  const out = [...items];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/**
 * A fixed 50/50 split, stratified by source file: each file's samples are shuffled with `seed` and
 * the first half (rounded down) goes to A. Within each half the samples keep their file order.
 */
export function splitHalves(samples: readonly Sample[], seed: number): { a: Sample[]; b: Sample[] } {
  const sources = [...new Set(samples.map((s) => s.source))];
  const inA = new Set<string>();
  for (const source of sources) {
    const mine = samples.filter((s) => s.source === source);
    for (const s of shuffled(mine, seed).slice(0, Math.floor(mine.length / 2))) inA.add(`${s.source}\u0000${s.id}`);
  }
  const a = samples.filter((s) => inA.has(`${s.source}\u0000${s.id}`));
  const b = samples.filter((s) => !inA.has(`${s.source}\u0000${s.id}`));
  return { a, b };
}

/** The execution to record for a sample (its id and source are eval bookkeeping, not the record). */
export const toExecution = (s: Sample): ExecutionInput => ({ intent: s.intent, calls: s.calls });
