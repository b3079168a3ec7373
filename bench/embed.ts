/**
 * @module bench/embed
 * The offline default embedding provider (SPEC §8): how long the shipped word-vector table takes to
 * load in a fresh process, and how fast it embeds the 4,076 Seal-Tools tool texts (name +
 * description; seeded synthetic sentences when ../shared/data is absent). References measured in
 * the same run: for the load, reading the table file's bytes alone (the I/O floor); for
 * throughput, splitting the same texts into words alone (`core/text/words`, the tokeniser the provider
 * runs first), so the ratio says what the vector arithmetic adds.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { contentWords, splitWords } from '../src/core/text/words.js';
import { defaultWordTablePath } from '../src/embed/word-table.js';
import { wordVectorProvider } from '../src/embed/word-vectors.js';
import { mulberry32 } from './prng.js';
import { fmtRate, median, type BenchRow } from './table.js';
import { repositoryRoot } from '../eval/paths.js';

/** Seal-Tools tool texts when the shared data is there, else seeded synthetic sentences. */
function benchTexts(): { texts: string[]; source: string } {
  const path = join(repositoryRoot(), '..', 'shared', 'data', 'seal-tools', 'tool.jsonl');
  if (existsSync(path)) {
    const texts = readFileSync(path, 'utf8')
      .split('\n')
      .filter((line) => line.trim().length > 0)
      .map((line) => {
        const tool = JSON.parse(line) as { api_name?: string; api_description?: string };
        return `${tool.api_name ?? ''} ${tool.api_description ?? ''}`;
      });
    return { texts, source: `${texts.length.toLocaleString('en-US')} Seal-Tools tool texts` };
  }
  const rng = mulberry32(7);
  const words = (
    'get search read write file user weather flight hotel book list create delete update report email calendar ' +
    'price stock translate'
  ).split(' ');
  const texts = Array.from({ length: 4_000 }, (_, i) => {
    const length = 6 + Math.floor(rng() * 12);
    return `tool${i} ${Array.from({ length }, () => words[Math.floor(rng() * words.length)]).join(' ')}`;
  });
  return { texts, source: `${texts.length.toLocaleString('en-US')} synthetic sentences` };
}

interface LoadTimes {
  read: number;
  load: number;
  firstEmbed: number;
}

/**
 * One fresh `node` process: read the file's bytes (reference), then `loadWordTable` and the first
 * `embed` (which computes the table's common direction), each timed. Undefined when the compiled
 * modules are not beside this file (run from the TypeScript sources).
 */
function freshProcessLoad(tablePath: string): LoadTimes | undefined {
  const here = dirname(fileURLToPath(import.meta.url));
  const tableModule = join(here, '..', 'src', 'embed', 'word-table.js');
  const providerModule = join(here, '..', 'src', 'embed', 'word-vectors.js');
  if (!existsSync(tableModule) || !existsSync(providerModule)) return undefined;
  const script = `
    import { readFileSync } from 'node:fs';
    const { loadWordTable } = await import(${JSON.stringify(pathToFileURL(tableModule).href)});
    const { wordVectorProvider } = await import(${JSON.stringify(pathToFileURL(providerModule).href)});
    const path = ${JSON.stringify(tablePath)};
    const t0 = performance.now();
    readFileSync(path);
    const t1 = performance.now();
    loadWordTable(path);
    const t2 = performance.now();
    await wordVectorProvider({ path }).embed(['read a file from disk']);
    const t3 = performance.now();
    process.stdout.write(JSON.stringify({ read: t1 - t0, load: t2 - t1, firstEmbed: t3 - t2 }));`;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  if (child.status !== 0) throw new Error(`bench/embed: the load-time child process failed: ${child.stderr}`);
  return JSON.parse(child.stdout) as LoadTimes;
}

let sink = 0;

const ms = (value: number): string => `${value < 1 ? value.toFixed(3) : value.toFixed(1)} ms`;

export async function benchEmbed(options: { runs?: number; loads?: number } = {}): Promise<BenchRow[]> {
  const runs = options.runs ?? 5;
  const loads = options.loads ?? 5;
  const tablePath = defaultWordTablePath();
  const size = `${(statSync(tablePath).size / 1e6).toFixed(1)} MB`;
  const rows: BenchRow[] = [];

  const fresh = Array.from({ length: loads }, () => freshProcessLoad(tablePath));
  if (fresh.every((t): t is LoadTimes => t !== undefined)) {
    const read = median(fresh.map((t) => t.read));
    const load = median(fresh.map((t) => t.load));
    const first = median(fresh.map((t) => t.firstEmbed));
    rows.push(
      {
        benchmark: `word-vector table load (${size}), fresh process`,
        measure: `ms, median of ${loads} processes`,
        value: ms(load),
        reference: `file read ${ms(read)}`,
        ratio: `${(load / read).toFixed(1)}× read`,
        target: `tens of ms: ${load < 100 ? 'met' : 'NOT met'}`,
      },
      {
        benchmark: 'word-vector first embed after load (common direction)',
        measure: `ms, median of ${loads} processes`,
        value: ms(first),
        reference: `file read ${ms(read)}`,
        ratio: `${(first / read).toFixed(1)}× read`,
        target: `load + first < 100 ms: ${load + first < 100 ? 'met' : 'NOT met'}`,
      },
    );
  } else {
    const t = process.hrtime.bigint();
    await wordVectorProvider().embed(['read a file from disk']);
    rows.push({
      benchmark: `word-vector table load + first embed (${size}), this process`,
      measure: 'ms, once',
      value: ms(Number(process.hrtime.bigint() - t) / 1e6),
      reference: '-',
      ratio: '-',
      target: '-',
    });
  }

  const { texts, source } = benchTexts();
  const provider = wordVectorProvider();
  const tokens = texts.reduce((n, text) => n + splitWords(text).length, 0);
  await provider.embed(texts);
  const embedTimes: number[] = [];
  const splitTimes: number[] = [];
  for (let round = 0; round < runs; round += 1) {
    let t = process.hrtime.bigint();
    sink += (await provider.embed(texts)).length;
    embedTimes.push(Number(process.hrtime.bigint() - t) / 1e9);
    t = process.hrtime.bigint();
    for (const text of texts) sink += contentWords(text).length;
    splitTimes.push(Number(process.hrtime.bigint() - t) / 1e9);
  }
  void sink;
  const embedSeconds = median(embedTimes);
  const splitSeconds = median(splitTimes);
  rows.push({
    benchmark: `word-vector embed (${source}, ${tokens.toLocaleString('en-US')} words)`,
    measure: `median of ${runs}`,
    value: `${fmtRate(texts.length / embedSeconds)} texts, ${fmtRate(tokens / embedSeconds)} words`,
    reference: `word split only ${fmtRate(texts.length / splitSeconds)} texts`,
    ratio: `${(embedSeconds / splitSeconds).toFixed(1)}× split`,
    target: '-',
  });
  return rows;
}
