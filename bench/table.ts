/** @module bench/table — the one table format every benchmark prints. */

export interface BenchRow {
  benchmark: string;
  measure: string;
  value: string;
  reference: string;
  ratio: string;
  target: string;
}

export function formatTable(rows: readonly BenchRow[]): string {
  const headers: (keyof BenchRow)[] = ['benchmark', 'measure', 'value', 'reference', 'ratio', 'target'];
  const widths = headers.map((h) => Math.max(h.length, ...rows.map((r) => r[h].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [
    line(headers),
    `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`,
    ...rows.map((r) => line(headers.map((h) => r[h]))),
  ].join('\n');
}

export const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};

export const fmtRate = (perSecond: number): string => `${Math.round(perSecond).toLocaleString('en-US')}/s`;

/** The value below which a share `p` of `values` fall (the nearest rank at or above it). */
/** Milliseconds to two decimals, as the store, recall and pgvector tables print them. */
export const ms2 = (v: number): string => `${v.toFixed(2)} ms`;

/** `p50 / p95` of timings in milliseconds. */
export const p50p95 = (t: readonly number[]): string => `${ms2(percentile(t, 0.5))} / ${ms2(percentile(t, 0.95))}`;

export const percentile = (values: readonly number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
};

/** Times `fn` once per query, in ms, after running it on the first `warmUp` queries untimed. */
export async function timeEach(
  queries: readonly string[],
  fn: (q: string) => Promise<unknown>,
  warmUp: number,
): Promise<number[]> {
  for (const q of queries.slice(0, warmUp)) await fn(q);
  const times: number[] = [];
  for (const q of queries) {
    const start = performance.now();
    await fn(q);
    times.push(performance.now() - start);
  }
  return times;
}
