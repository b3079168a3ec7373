/** @module eval/table — markdown tables for `npm run eval`, in the style of bench/table.ts. */

/** A markdown table; the first column left-aligned, the others right-aligned. */
export function formatTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const pad = (c: string, i: number) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0));
  const line = (cells: readonly string[]) => `| ${headers.map((_, i) => pad(cells[i] ?? '', i)).join(' | ')} |`;
  return [line(headers), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

/** A score in [0, 1] with three decimals. */
export const f3 = (v: number): string => v.toFixed(3);

/** A share as a percentage with one decimal. */
export const pct = (v: number): string => `${(100 * v).toFixed(1)}%`;
