/**
 * @module core/experience/link-choice
 * Which links between a DAG's tools to keep when each has a probability (issue 19), by one of three rules:
 * `half` keeps those of at least one half; `span` adds, likeliest first, the links that join tools still
 * apart until they hang together; `f1` keeps the set of highest expected F1. Which rule fits a scope is
 * measured on its replayed runs ({@link bestLinkRule}), not fixed. Pure.
 */
import { chooseByExpectedF1 } from './expected-f1.js';

export const LINK_RULES = ['half', 'span', 'f1'] as const;
export type LinkRule = (typeof LINK_RULES)[number];

export interface LinkCandidate {
  readonly from: string;
  readonly to: string;
  readonly p: number;
}

const byLikelihood = <T extends LinkCandidate>(a: T, b: T): number =>
  b.p - a.p || (a.from < b.from ? -1 : a.from > b.from ? 1 : a.to < b.to ? -1 : a.to > b.to ? 1 : 0);

/** The links `rule` keeps, likeliest first. */
export function chooseLinks<T extends LinkCandidate>(rule: LinkRule, links: readonly T[]): T[] {
  const sorted = [...links].sort(byLikelihood);
  if (rule === 'f1') return sorted.length === 0 ? [] : [...chooseByExpectedF1(sorted).kept];
  const kept = sorted.filter((l) => l.p >= 0.5);
  if (rule === 'half') return kept;
  const root = new Map<string, string>();
  const find = (t: string): string => {
    let r = t;
    while (root.has(r) && root.get(r) !== r) r = root.get(r) as string;
    return r;
  };
  for (const l of kept) root.set(find(l.from), find(l.to));
  for (const l of sorted) {
    if (l.p >= 0.5 || find(l.from) === find(l.to)) continue;
    kept.push(l);
    root.set(find(l.from), find(l.to));
  }
  return kept.sort(byLikelihood);
}

/** Edge F1 of kept links against the true ones (both empty: 1). */
function linkF1(kept: readonly LinkCandidate[], truth: ReadonlySet<string>): number {
  if (kept.length === 0 && truth.size === 0) return 1;
  const hit = kept.filter((l) => truth.has(`${l.from}\u0000${l.to}`)).length;
  return hit === 0 ? 0 : (2 * hit) / (kept.length + truth.size);
}

/**
 * The rule whose links best matched replayed runs (mean edge F1; ties to the earlier rule of LINK_RULES).
 * Each replay gives its candidate links and its true links as `from\0to` keys.
 */
export function bestLinkRule(replays: readonly { links: readonly LinkCandidate[]; truth: ReadonlySet<string> }[]): {
  rule: LinkRule;
  f1: Record<LinkRule, number>;
} {
  const f1 = Object.fromEntries(
    LINK_RULES.map((rule) => [
      rule,
      replays.length === 0
        ? 0
        : replays.reduce((s, r) => s + linkF1(chooseLinks(rule, r.links), r.truth), 0) / replays.length,
    ]),
  ) as Record<LinkRule, number>;
  const rule = LINK_RULES.reduce((best, r) => (f1[r] > f1[best] + 1e-12 ? r : best), LINK_RULES[0] as LinkRule);
  return { rule, f1 };
}
