/**
 * @module engine/explain
 * A search result's score and a DAG's confidence as the sums of the parts the engine returned, in words: the one
 * text `credence tools search`, `credence dag` and the dashboard's Ask page (`explanation` in /api/ask) print, so
 * that no surface writes a formula of its own; the warning of past runs less alike than any the memory was measured
 * on; and the caveat of a `--now` before an edge's last confirmation.
 */
import { DEPRECATED_FACTOR } from '../core/search/tool-search.js';
import type { Credence } from './engine.js';

const f3 = (n: number): string => n.toFixed(3);

/** What a DAG's measured confidence is, in words. */
export const DAG_CONFIDENCE_BASIS: Readonly<Record<string, string>> = {
  evidence: 'expected F1 of the tools kept by their probabilities, fitted on this scope',
  memory: 'how often such nearest past runs proposed the right tools',
  search: 'how often a search-built DAG of this seed confidence was right here',
};

type SearchedTool = Awaited<ReturnType<Credence['searchTools']>>[number];
type SuggestedDag = Awaited<ReturnType<Credence['suggestDag']>>;

/**
 * A searched tool's score as the sum of the parts that made it, the same parts --json carries (the engine's formula,
 * engine/search: α · semantic + (1 − α) · graph is the search's own score; past runs weigh it against their vote; a
 * feedback shift is added, the score never below 0; a deprecated tool's search score is cut by DEPRECATED_FACTOR):
 * `0.760 = 1.000×semantic 0.366 + 0.000×graph 0.968 (α no-context)`.
 */
export function scoreParts(r: SearchedTool): string {
  const blend = `${f3(r.alpha)}×semantic ${f3(r.semantic)} + ${f3(1 - r.alpha)}×graph ${f3(r.graph)}`;
  // A tool whose description says it is deprecated has its search score cut by a factor (core/search).
  const own = r.parts?.deprecated === true ? `${f3(DEPRECATED_FACTOR)}×deprecated (${blend})` : blend;
  const hybrid = r.hybrid ?? r.score;
  const terms =
    r.memory === undefined
      ? [own]
      : [
          `${f3(1 - r.memory.weight)}×search ${f3(hybrid)}`,
          `${f3(r.memory.weight)}×past runs' vote ${f3(r.memory.vote)}`,
        ];
  if (r.feedback !== undefined)
    terms.push(`feedback ${r.feedback.shift < 0 ? '−' : ''}${f3(Math.abs(r.feedback.shift))}`);
  const sum = terms.join(' + ').replace('+ feedback −', '− feedback ');
  // A sum above 1 ranks the results as printed; the confidence stored as shown and mapped to a probability is 1.
  const bound =
    r.memory === undefined && r.feedback === undefined
      ? ''
      : r.score === 0
        ? ' (floored at 0)'
        : r.score > 1
          ? ' (ranked by this sum; stored and calibrated as 1.000, the cap)'
          : '';
  const search = r.memory === undefined ? '' : `; search ${f3(hybrid)} = ${own}`;
  return `${f3(r.score)} = ${sum}${bound}${search} (α ${r.alphaRule})`;
}

/**
 * A warning for a tool search whose past runs are less alike than any the memory was measured on (`memory.unlike`,
 * engine/search): their vote is an extrapolation; names the search's own first tool when the vote moved it down.
 */
export function memoryCaveat(results: readonly SearchedTool[]): string | undefined {
  const unlike = results.find((r) => r.memory?.unlike !== undefined)?.memory?.unlike;
  if (unlike === undefined) return undefined;
  const first = unlike.searchFirst;
  return (
    `the past runs that voted are less alike (strength ${unlike.strength.toFixed(2)}) than any the memory ` +
    `was measured on (${unlike.replays} replays from ${unlike.measuredFrom.toFixed(2)}): their weight is an ` +
    `extrapolation` +
    (first === undefined ? '' : `; the search alone ranks ${first.tool} first (${f3(first.score)})`)
  );
}

/**
 * Why a DAG has its confidence: the seed's formula when the seed is the confidence, else the measured basis and
 * then the seed confidence with its own formula.
 */
export function dagConfidenceLines(
  s: Pick<SuggestedDag, 'confidence' | 'confidenceBasis' | 'replays' | 'seedConfidence' | 'parts' | 'weights'>,
): string[] {
  const seed =
    `${f3(s.parts.hybrid)} × ${s.weights.hybrid} + ` +
    `${f3(s.parts.pageRank)} × ${s.weights.pageRank} + ${f3(s.parts.pathStrength)} × ${s.weights.path}`;
  if (s.confidenceBasis === undefined || s.confidenceBasis === 'seed') return [`confidence = ${seed}`];
  return [
    `confidence ${f3(s.confidence)}: ${DAG_CONFIDENCE_BASIS[s.confidenceBasis]} ` +
      `(measured on ${s.replays ?? 0} past runs replayed)`,
    `seed confidence ${f3(s.seedConfidence ?? 0)} = ${seed}`,
  ];
}

/**
 * The store keeps a learned workflow's runs, successes and first and last use, not their history: at a time before
 * its last use its figures include the runs after it (and decay nothing), and one first used after that time did not
 * exist then (walk 14, item 9). Said by `workflows`, as `edges` says it of edges ({@link laterEvidenceNote}).
 */
export function laterWorkflowNote(
  workflows: Iterable<{ firstSeen: number; lastSeen: number }>,
  now: number,
): string | undefined {
  let later = 0;
  let unborn = 0;
  let latest = -Infinity;
  for (const w of workflows) {
    if (!(w.lastSeen > now)) continue;
    later += 1;
    if (w.firstSeen > now) unborn += 1;
    latest = Math.max(latest, w.lastSeen);
  }
  if (later === 0) return undefined;
  return (
    `${later} workflow(s) were last used after ${new Date(now).toISOString()} ` +
    `(up to ${new Date(latest).toISOString()}${unborn === 0 ? '' : `; ${unborn} first used after it`}): ` +
    'the store keeps no history of a workflow, so their runs, success rate and confidence include those later runs ' +
    '(no decay at a time before them); this is not a view of the workflows as they were then'
  );
}

/**
 * The store keeps an edge's counts and last confirmation, not their history: a time before that confirmation cannot
 * be read as it was then (walk 6, item 10d). Said, rather than a confidence of then with a later date, by `edges`,
 * the dashboard's graph and `/api/tool`. `lastSeen`: each edge's last confirmation (epoch ms), null for none.
 */
export function laterEvidenceNote(lastSeen: Iterable<number | null>, now: number): string | undefined {
  let later = 0;
  let latest = -Infinity;
  for (const at of lastSeen) {
    if (at === null || !(at > now)) continue;
    later += 1;
    latest = Math.max(latest, at);
  }
  if (later === 0) return undefined;
  return (
    `${later} edge(s) were last confirmed after ${new Date(now).toISOString()} ` +
    `(up to ${new Date(latest).toISOString()}): ` +
    'the store keeps no history of an edge, so their counts and confidence include that later evidence ' +
    '(no decay at a time before it); this is not a view of the graph as it was then'
  );
}
