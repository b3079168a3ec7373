/**
 * @module eval/conversations/evaluate
 * Recall on the conversation set (issue 23, Evaluation). Each dialogue goes into its own fresh in-memory engine,
 * session by session with the clock at the session's time, each turn remembered as a turn (speaker, session, place,
 * its time: `remember`'s turn fields). The questions are asked a week after the last session, with recall as
 * shipped (fused) and BM25 alone (bm25Weight 1), top 10, nothing tracked.
 *
 * Measures: nDCG@10 and Recall@10 against the turns that answer; the "high" label's precision and highs a query;
 * current-value questions answered by the newest fact first (a turn of the current value in the top 10, above every
 * turn of an older value); older values returned as current: turns of an older value in a current-value question's
 * top 10 marked neither superseded nor conflict (goal 0); relevant turns of a value that still holds marked older
 * (superseded or conflict: a true current fact told as stale, goal 0); and re-remembering: a turn said again word for
 * word that made a second memory (goal 0). Five seeds: dev (tuned on), held-out (measured; its misses were read
 * while rules were written), third (a third phrasing, only measured), dev 2 and dev 3 (second and third development
 * phrasings).
 */
import { openCredence, type Credence } from '../../src/engine/engine.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { mean, recallAtK } from '../metrics.js';
import { ndcgAtK, scoreHighLabel, type LabelScore } from '../recall-metrics.js';
import { f3, formatTable } from '../table.js';
import {
  type Bank,
  DEV_SEED,
  FIFTH_SEED,
  FOURTH_SEED,
  generateConversations,
  HELD_OUT_SEED,
  THIRD_SEED,
  type Dialogue,
  type Phrasing,
  type QuestionKind,
} from './generate.js';

export const CONVERSATION_TARGETS = Object.freeze({
  recall10: 0.8,
  highPrecision: 0.8,
  highsPerQuery: 0.3,
  newest: 0.95,
});
const K = 10;

interface Answered {
  kind: QuestionKind;
  relevant: Set<string>;
  older: Set<string>;
  ranked: string[];
  labels: ('high' | 'medium' | 'low')[];
  statuses: string[];
  /** The turns of the values that still hold (the current-value questions' answers). */
  holding: Set<string>;
}

export interface RankingScore {
  ndcg10: number;
  recall10: number;
  label: LabelScore;
  byKind: Map<QuestionKind, { n: number; ndcg10: number; recall10: number }>;
  /** Current-value questions: the newest value's turn first among the fact's turns, in the top 10. */
  newestFirst: number;
  currentQuestions: number;
  /** Current-value questions whose first turn of the fact in the top 10 states an older value. */
  olderFirst: number;
  /** Turns of an older value in current-value questions' top 10: all, and those neither superseded nor conflict. */
  olderReturned: number;
  olderUnmarked: number;
  /** Relevant turns of a value that still holds, marked superseded or conflict in the top 10 (all; current-value). */
  wronglyOlder: number;
  wronglyOlderCurrent: number;
}

export interface ConversationScore {
  seed: number;
  dialogues: number;
  turns: number;
  questions: number;
  fused: RankingScore;
  bm25: RankingScore;
  /** Fused, the question's time not read (recall's questionTime: false). */
  timeless: RankingScore;
  /** Turns said again word for word, and of those the ones that made a second memory. */
  repeats: number;
  duplicates: number;
  ms: number;
}

function score(answers: readonly Answered[]): RankingScore {
  const byKind = new Map<QuestionKind, { n: number; ndcg10: number; recall10: number }>();
  for (const kind of ['current', 'before', 'when', 'at'] as const) {
    const of = answers.filter((a) => a.kind === kind);
    byKind.set(kind, {
      n: of.length,
      ndcg10: mean(of.map((a) => ndcgAtK(a.ranked, a.relevant, K))),
      recall10: mean(of.map((a) => recallAtK(a.ranked, a.relevant, K))),
    });
  }
  const current = answers.filter((a) => a.kind === 'current');
  const wrongly = (as: readonly Answered[]) =>
    as.reduce(
      (n, a) =>
        n + a.ranked.filter((id, i) => a.relevant.has(id) && a.holding.has(id) && a.statuses[i] !== 'current').length,
      0,
    );
  const firstOfFact = (a: Answered) => a.ranked.slice(0, K).find((id) => a.relevant.has(id) || a.older.has(id));
  return {
    ndcg10: mean(answers.map((a) => ndcgAtK(a.ranked, a.relevant, K))),
    recall10: mean(answers.map((a) => recallAtK(a.ranked, a.relevant, K))),
    label: scoreHighLabel(answers),
    byKind,
    newestFirst: current.filter((a) => {
      const first = firstOfFact(a);
      return first !== undefined && a.relevant.has(first);
    }).length,
    currentQuestions: current.length,
    olderFirst: current.filter((a) => {
      const first = firstOfFact(a);
      return first !== undefined && a.older.has(first);
    }).length,
    olderReturned: current.reduce((n, a) => n + a.ranked.filter((id) => a.older.has(id)).length, 0),
    olderUnmarked: current.reduce(
      (n, a) => n + a.ranked.filter((id, i) => a.older.has(id) && a.statuses[i] === 'current').length,
      0,
    ),
    wronglyOlder: wrongly(answers),
    wronglyOlderCurrent: wrongly(current),
  };
}

/** A dialogue remembered session by session into a fresh engine; the memory id of each turn. */
async function ingest(
  d: Dialogue,
): Promise<{ cr: Credence; memoryOf: Map<string, string>; setNow: (t: number) => void }> {
  let clock = d.sessions[0] as number;
  const cr = await openCredence({
    store: openSqliteStore({ path: ':memory:' }),
    scope: 'eval-conversations',
    now: () => clock,
  });
  const memoryOf = new Map<string, string>();
  for (const [s, at] of d.sessions.entries()) {
    clock = at;
    const turns = d.turns.filter((t) => t.session === s + 1);
    const { ids } = await cr.remember(
      turns.map((t, index) => ({ speaker: t.speaker, session: `session-${t.session}`, index, at: t.at, text: t.text })),
    );
    turns.forEach((t, i) => memoryOf.set(t.id, ids[i] ?? t.id));
  }
  return { cr, memoryOf, setNow: (t) => void (clock = t) };
}

/** Recall on one seed's set (in the words of `phrasing`, else the seed's), fused and BM25 alone. */
export async function scoreConversations(
  seed: number,
  dialogues?: number,
  phrasing?: Phrasing | Bank,
): Promise<ConversationScore> {
  const started = performance.now();
  const set = generateConversations(seed, dialogues, phrasing);
  const fused: Answered[] = [];
  const bm25: Answered[] = [];
  const timeless: Answered[] = [];
  let repeats = 0;
  let duplicates = 0;
  for (const d of set) {
    const { cr, memoryOf, setNow } = await ingest(d);
    const firstSaid = new Map<string, string>();
    for (const t of d.turns) {
      const key = `${t.speaker}\n${t.text}`;
      const first = firstSaid.get(key);
      if (first === undefined) firstSaid.set(key, t.id);
      else if (d.questions.some((q) => q.relevant.includes(first))) {
        repeats += 1;
        if (memoryOf.get(first) !== memoryOf.get(t.id)) duplicates += 1;
      }
    }
    setNow(d.now);
    const mapped = (ids: readonly string[]) => new Set(ids.map((id) => memoryOf.get(id) ?? id));
    const holding = mapped(d.questions.filter((q) => q.kind === 'current').flatMap((q) => q.relevant));
    for (const q of d.questions) {
      for (const [list, request] of [
        [fused, {}],
        [bm25, { bm25Weight: 1 }],
        [timeless, { questionTime: false }],
      ] as const) {
        const results = await cr.recall(q.text, { limit: K, track: false, ...request });
        list.push({
          kind: q.kind,
          relevant: mapped(q.relevant),
          older: mapped(q.older),
          ranked: results.map((r) => r.id),
          labels: results.map((r) => r.label),
          statuses: results.map((r) => r.status),
          holding,
        });
      }
    }
    await cr.close();
  }
  return {
    seed,
    dialogues: set.length,
    turns: set.reduce((n, d) => n + d.turns.length, 0),
    questions: fused.length,
    fused: score(fused),
    bm25: score(bm25),
    timeless: score(timeless),
    repeats,
    duplicates,
    ms: performance.now() - started,
  };
}

const rowsOf = (name: string, r: RankingScore): string[] => [
  name,
  f3(r.ndcg10),
  f3(r.recall10),
  Number.isNaN(r.label.precision) ? '-' : f3(r.label.precision),
  r.label.highsPerQuery.toFixed(2),
  f3(r.newestFirst / Math.max(1, r.currentQuestions)),
  String(r.olderFirst),
  `${r.olderUnmarked} / ${r.olderReturned}`,
  `${r.wronglyOlder} / ${r.wronglyOlderCurrent}`,
  ...(['current', 'before', 'when', 'at'] as const).map((k) => f3(r.byKind.get(k)?.ndcg10 ?? 0)),
];

const HALVES: ReadonlyMap<number, string> = new Map([
  [DEV_SEED, 'dev'],
  [THIRD_SEED, 'third'],
  [FOURTH_SEED, 'dev 2'],
  [FIFTH_SEED, 'dev 3'],
]);
const halfOf = (seed: number): string => HALVES.get(seed) ?? 'held-out';

/** Prints section E through `out`; returns the five seeds' scores (dev, held-out, third, dev 2, dev 3). */
export async function evaluateConversations(options: {
  out: (text?: string) => void;
  dialogues?: number;
}): Promise<ConversationScore[]> {
  const { out } = options;
  const scores = [
    await scoreConversations(DEV_SEED, options.dialogues),
    await scoreConversations(HELD_OUT_SEED, options.dialogues),
    await scoreConversations(THIRD_SEED, options.dialogues),
    await scoreConversations(FOURTH_SEED, options.dialogues),
    await scoreConversations(FIFTH_SEED, options.dialogues),
  ];
  out();
  out('## E. Recall on conversations (issue 23): dated multi-session dialogues with facts that change');
  out();
  const [dev, held, third, dev2, dev3] = scores as [
    ConversationScore,
    ConversationScore,
    ConversationScore,
    ConversationScore,
    ConversationScore,
  ];
  out(
    `eval/conversations, generated from a seed: dev (seed ${dev.seed}, tuned on) ${dev.dialogues} dialogues, ` +
      `${dev.turns.toLocaleString('en-US')} turns, ${dev.questions.toLocaleString('en-US')} questions; held-out ` +
      `(seed ${held.seed}, measured; its misses read while rules were written) ${held.dialogues} dialogues, ` +
      `${held.turns.toLocaleString('en-US')} turns, ${held.questions.toLocaleString('en-US')} questions; third ` +
      `(seed ${third.seed}, a third phrasing, only measured) ${third.dialogues} dialogues, ` +
      `${third.turns.toLocaleString('en-US')} turns, ${third.questions.toLocaleString('en-US')} questions; dev 2 ` +
      `(seed ${dev2.seed}, a second development phrasing in other styles) ${dev2.dialogues} dialogues, ` +
      `${dev2.turns.toLocaleString('en-US')} turns, ${dev2.questions.toLocaleString('en-US')} questions; dev 3 ` +
      `(seed ${dev3.seed}, a third development phrasing: changes without a change word, told by others, corrected) ` +
      `${dev3.dialogues} dialogues, ${dev3.turns.toLocaleString('en-US')} turns, ` +
      `${dev3.questions.toLocaleString('en-US')} questions. ` +
      'Two or three speakers, 8-12 dated sessions; each ' +
      "speaker states facts (city, employer, editor, a project's store, a hobby) that change once or twice, " +
      'restated (some word for word), reacted to, between small talk and turns of others sharing their words. ' +
      'Questions: the current value, the value before a change, when it changed, the value in a month; relevant = ' +
      "the turns that answer. Each turn remembered as a turn (speaker, session, place, time) at its session's " +
      'time; asked a week after the last session; top 10. "newest first" = current-value questions whose first ' +
      'turn of the fact in the top 10 states the current value; "older first" = the first states an older value; ' +
      '"unmarked" = turns of an older value in the top 10 of current-value questions marked neither superseded nor ' +
      'conflict (likely an older version), of those returned (returned as current, goal 0); "wrongly older" = ' +
      'relevant turns of a value that still holds marked superseded or conflict, all questions / current-value ' +
      'ones (a true fact told as stale, goal 0).',
  );
  out();
  const headers = [
    'set / ranking',
    'nDCG@10',
    'R@10',
    'high P',
    'highs/q',
    'newest first',
    'older first',
    'unmarked',
    'wrongly older',
  ];
  out(
    formatTable(
      [...headers, 'nDCG current', 'before', 'when', 'at'],
      scores.flatMap((s) => [
        rowsOf(`${halfOf(s.seed)}: fused (as shipped)`, s.fused),
        rowsOf(`${halfOf(s.seed)}: BM25 only`, s.bm25),
        rowsOf(`${halfOf(s.seed)}: fused, question's time not read`, s.timeless),
      ]),
    ),
  );
  out();
  out(
    `Re-remembering: of the turns said again word for word (dev ${dev.repeats}, held-out ${held.repeats}, third ` +
      `${third.repeats}, dev 2 ${dev2.repeats}, dev 3 ${dev3.repeats}), those that made a second memory: dev ` +
      `${dev.duplicates}, held-out ${held.duplicates}, third ${third.duplicates}, dev 2 ${dev2.duplicates}, dev 3 ` +
      `${dev3.duplicates} (goal 0).`,
  );
  out();
  const t = CONVERSATION_TARGETS;
  const rows = scores.flatMap((s) => {
    const name = halfOf(s.seed);
    const f = s.fused;
    const newest = f.newestFirst / Math.max(1, f.currentQuestions);
    const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
    return [
      [
        `${name}: fused ≥ BM25 only (nDCG@10, R@10)`,
        `${f3(f.ndcg10)} vs ${f3(s.bm25.ndcg10)}, ${f3(f.recall10)} vs ${f3(s.bm25.recall10)}`,
        met(+f3(f.ndcg10) >= +f3(s.bm25.ndcg10) && +f3(f.recall10) >= +f3(s.bm25.recall10)),
      ],
      [`${name}: Recall@10 ≥ ${t.recall10}`, f3(f.recall10), met(f.recall10 >= t.recall10)],
      [
        `${name}: "high" precision ≥ ${t.highPrecision} at ≥ ${t.highsPerQuery} highs a query`,
        `${Number.isNaN(f.label.precision) ? '-' : f3(f.label.precision)} at ${f.label.highsPerQuery.toFixed(2)}`,
        met(f.label.precision >= t.highPrecision && f.label.highsPerQuery >= t.highsPerQuery),
      ],
      [`${name}: current value newest first ≥ ${t.newest}`, f3(newest), met(newest >= t.newest)],
    ];
  });
  out(formatTable(['target (issue 23)', 'measured', 'status'], rows));
  out();
  out(`(E took ${(scores.reduce((n, s) => n + s.ms, 0) / 1000).toFixed(1)} s)`);
  return scores;
}
