/**
 * @module core/learning/pattern-category
 * The category of a pattern (seed 004, "Types de patterns"): `code`, `workflow`, `error` or `success`.
 * An observation's: a tag naming a category; else `workflow` for words of workflow (commit, test, CI,
 * deploy, branch, review, build, …) or a hook's commit/test tag (the seed's example 2, successes and an
 * error about tests before a commit, is its "Pattern workflow"); else `error` / `success` by type; else
 * `code`. A group's: its members' most frequent (ties in the order code, workflow, error, success).
 */
import type { ObservationType } from '../types.js';

export const PATTERN_CATEGORIES = ['code', 'workflow', 'error', 'success'] as const;
export type PatternCategory = (typeof PATTERN_CATEGORIES)[number];

const WORKFLOW_TAGS = new Set(['commit', 'commit-style', 'test', 'coverage', 'workflow']);
const WORKFLOW_WORDS = new RegExp(
  String.raw`(?<![\p{L}\p{N}_])(?:commit(?:s|ted|ting)?|tests?|testing|tested|ci|` +
    'deploy(?:s|ed|ing|ment)?|release[sd]?|' +
    String.raw`branch(?:es)?|merg(?:e|es|ed|ing)|rebas(?:e|ed|ing)|pull\s+requests?|prs?|reviews?|` +
    'build(?:s|ing)?|lint(?:er|ing)?|changelog|push(?:ed|ing)?|pipelines?|workflows?|' +
    String.raw`avant|après|exécut\p{L}*|valid\p{L}*)(?![\p{L}\p{N}_])`,
  // Letters beyond ASCII are letters: "ci" is not a word inside "apprécié".
  'iu',
);

export interface CategoryInput {
  readonly type: ObservationType;
  readonly text: string;
  readonly tags?: readonly string[] | undefined;
}

/** The category of one observation (see the module notes). */
export function observationCategory(o: CategoryInput): PatternCategory {
  const tags = (o.tags ?? []).map((t) => t.toLowerCase());
  const tagged = PATTERN_CATEGORIES.find((c) => tags.includes(c));
  if (tagged !== undefined) return tagged;
  if (tags.some((t) => WORKFLOW_TAGS.has(t)) || WORKFLOW_WORDS.test(o.text)) return 'workflow';
  if (o.type === 'error' || o.type === 'success') return o.type;
  return 'code';
}

/** A group's category: its members' most frequent one; undefined for no member. */
export function patternCategory(members: readonly CategoryInput[]): PatternCategory | undefined {
  if (members.length === 0) return undefined;
  const counts = new Map<PatternCategory, number>();
  for (const m of members) {
    const c = observationCategory(m);
    counts.set(c, (counts.get(c) ?? 0) + 1);
  }
  let best: PatternCategory = 'code';
  let bestCount = -1;
  for (const c of PATTERN_CATEGORIES) {
    const n = counts.get(c) ?? 0;
    if (n > bestCount) {
      best = c;
      bestCount = n;
    }
  }
  return best;
}
