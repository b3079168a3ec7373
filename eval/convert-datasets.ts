/**
 * @module eval/convert-datasets
 * Converts the public evaluation data (NESTFUL, Seal-Tools; see ../shared/data/README.md) into the
 * JSON Lines shapes Credence takes: catalogue records (`ToolRecord`) and executions
 * (`ExecutionInput`, with the sample or query id kept as an extra `id` field, which `credence record`
 * ignores and the evaluation uses to split and join).
 *
 *   node dist/eval/convert-datasets.js [--data DIR] [--out DIR]
 *
 * `--data` defaults to `../shared/data` beside the repository root; `--out` to `./data-out`.
 * Writes nestful-tools.jsonl, nestful-executions.jsonl, seal-tools-tools.jsonl,
 * seal-tools-dev-executions.jsonl, seal-tools-test-executions.jsonl, and prints a table of counts.
 * Exits 1 when the data folder is absent.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { isCredenceError } from '../src/core/errors.js';
import type { ExecutionInput } from '../src/core/types.js';
import {
  parseNestfulData,
  parseNestfulSpec,
  parseSealToolsQuery,
  parseSealToolsTool,
  readJsonLines,
} from '../src/datasets/index.js';
import type { ToolRecord } from '../src/store/types.js';
import { repositoryRoot } from './paths.js';

const NESTFUL_PARTS = ['executable', 'non-executable-glaive', 'non-executable-sgd'] as const;

type ExecutionLine = { id: string } & Omit<ExecutionInput, 'id'>;

interface Row {
  file: string;
  tools: number;
  executions: number;
  calls: number;
  consumes: number;
  problems: number;
  /** Calls whose tool the matching catalogue lacks. */
  uncatalogued: number;
}

function writeJsonLines(path: string, values: readonly unknown[]): void {
  writeFileSync(path, values.map((v) => JSON.stringify(v)).join('\n') + (values.length > 0 ? '\n' : ''));
}

function readJson(path: string): unknown {
  return JSON.parse(readFileSync(path, 'utf8')) as unknown;
}

function callStats(
  executions: readonly ExecutionInput[],
  catalogue: ReadonlySet<string>,
): Pick<Row, 'calls' | 'consumes' | 'uncatalogued'> {
  let calls = 0;
  let consumes = 0;
  let uncatalogued = 0;
  for (const execution of executions) {
    for (const call of execution.calls) {
      calls += 1;
      consumes += call.consumes?.length ?? 0;
      if (!catalogue.has(call.tool)) uncatalogued += 1;
    }
  }
  return { calls, consumes, uncatalogued };
}

/** Keeps the first record of each id; returns how many later ones were dropped. */
function dedupe(tools: readonly ToolRecord[]): { tools: ToolRecord[]; dropped: number } {
  const seen = new Set<string>();
  const kept = tools.filter((t) => (seen.has(t.id) ? false : (seen.add(t.id), true)));
  return { tools: kept, dropped: tools.length - kept.length };
}

function convertNestful(dataDir: string, outDir: string): Row[] {
  const dir = join(dataDir, 'nestful');
  const rawTools: ToolRecord[] = [];
  for (const part of NESTFUL_PARTS)
    rawTools.push(...parseNestfulSpec(readJson(join(dir, `${part}-spec.json`)), `nestful:${part}`));
  const { tools, dropped } = dedupe(rawTools);
  writeJsonLines(join(outDir, 'nestful-tools.jsonl'), tools);
  const catalogue = new Set(tools.map((t) => t.id));

  const lines: ExecutionLine[] = [];
  let problems = 0;
  for (const part of NESTFUL_PARTS) {
    const data = parseNestfulData(readJson(join(dir, `${part}-data.json`)), `nestful-${part}`);
    for (const p of data.problems) console.error(`nestful ${part}-data.json sample ${p.sample}: ${p.reason}`);
    problems += data.problems.length;
    for (const { sampleId, ...execution } of data.executions) lines.push({ id: sampleId, ...execution });
  }
  writeJsonLines(join(outDir, 'nestful-executions.jsonl'), lines);
  return [
    {
      file: 'nestful-tools.jsonl',
      tools: tools.length,
      executions: 0,
      calls: 0,
      consumes: 0,
      problems: dropped,
      uncatalogued: 0,
    },
    { file: 'nestful-executions.jsonl', tools: 0, executions: lines.length, problems, ...callStats(lines, catalogue) },
  ];
}

function convertSealTools(dataDir: string, outDir: string): Row[] {
  const dir = join(dataDir, 'seal-tools');
  const toolText = readJsonLines(readFileSync(join(dir, 'tool.jsonl'), 'utf8'));
  let toolProblems = toolText.errors.length;
  for (const e of toolText.errors) console.error(`seal-tools tool.jsonl line ${e.line}: ${e.reason}`);
  const rawTools: ToolRecord[] = [];
  for (const { line, value } of toolText.values) {
    try {
      rawTools.push(parseSealToolsTool(value));
    } catch (error) {
      if (!isCredenceError(error, 'INVALID_INPUT')) throw error;
      console.error(`seal-tools tool.jsonl line ${line}: ${error.message}`);
      toolProblems += 1;
    }
  }
  const { tools, dropped } = dedupe(rawTools);
  writeJsonLines(join(outDir, 'seal-tools-tools.jsonl'), tools);
  const catalogue = new Set(tools.map((t) => t.id));
  const rows: Row[] = [
    {
      file: 'seal-tools-tools.jsonl',
      tools: tools.length,
      executions: 0,
      calls: 0,
      consumes: 0,
      problems: toolProblems + dropped,
      uncatalogued: 0,
    },
  ];

  for (const [source, target] of [
    ['dev.jsonl', 'seal-tools-dev-executions.jsonl'],
    ['test_in_domain.jsonl', 'seal-tools-test-executions.jsonl'],
  ] as const) {
    const text = readJsonLines(readFileSync(join(dir, source), 'utf8'));
    let problems = text.errors.length;
    for (const e of text.errors) console.error(`seal-tools ${source} line ${e.line}: ${e.reason}`);
    const lines: ExecutionLine[] = [];
    for (const { line, value } of text.values) {
      try {
        const { queryId, ...execution } = parseSealToolsQuery(value, line - 1);
        lines.push({ id: queryId, ...execution });
      } catch (error) {
        if (!isCredenceError(error, 'INVALID_INPUT')) throw error;
        console.error(`seal-tools ${source} line ${line}: ${error.message}`);
        problems += 1;
      }
    }
    writeJsonLines(join(outDir, target), lines);
    rows.push({ file: target, tools: 0, executions: lines.length, problems, ...callStats(lines, catalogue) });
  }
  return rows;
}

function printTable(rows: readonly Row[]): void {
  const header = ['file', 'tools', 'executions', 'calls', 'consume links', 'problems', 'uncatalogued calls'];
  const body = rows.map((r) =>
    [r.file, r.tools, r.executions, r.calls, r.consumes, r.problems, r.uncatalogued].map(String),
  );
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((cells) => (cells[i] ?? '').length)));
  const format = (cells: readonly string[]): string =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  console.log(format(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const cells of body) console.log(format(cells));
}

function main(): number {
  const { values } = parseArgs({
    options: { data: { type: 'string' }, out: { type: 'string', default: './data-out' } },
    allowPositionals: false,
  });
  const dataDir = resolve(values.data ?? join(repositoryRoot(), '..', 'shared', 'data'));
  if (!existsSync(dataDir)) {
    console.error(
      `convert-datasets: no data folder at ${dataDir} ` +
        '(expected ../shared/data beside the repository, or pass --data DIR)',
    );
    return 1;
  }
  const outDir = resolve(values.out ?? './data-out');
  mkdirSync(outDir, { recursive: true });
  try {
    const rows = [...convertNestful(dataDir, outDir), ...convertSealTools(dataDir, outDir)];
    printTable(rows);
    console.log(
      `written to ${outDir}  ` +
        '(problems on tool rows: duplicate or malformed records; on execution rows: see the lines above)',
    );
    return 0;
  } catch (error) {
    if (isCredenceError(error)) {
      console.error(`convert-datasets: ${error.message}`);
      return 1;
    }
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') {
      console.error(`convert-datasets: a data file is missing: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

process.exitCode = main();
