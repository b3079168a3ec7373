/**
 * @module engine/recall/recall
 * Recall (SPEC §8, seed 003): the memories that matter for a query — notes and decisions,
 * observations, past runs — found by BM25 (FTS5, porter) and by embeddings, fused, weighed by their
 * stored confidence and recency, and labelled high / medium / low with evidence. Every part of a
 * score is in the result.
 */
import { buildFtsQuery } from '../../core/text/fts-query.js';
import { scrubText } from '../../core/security/scrub.js';
import { readFileInsideRoot } from '../../platform/files.js';
import { learnedFileText } from '../../core/learning/learned-text.js';
import { capLearnedLabel, recallLabels, type RecallLabelOptions } from '../../core/recall/recall-label.js';
import type { ConfidenceLabel, MemoryCategory, MemoryLife } from '../../core/types.js';
import {
  addressee,
  isStopWord,
  labelForStatus,
  lifeStatus,
  type LifeWindow,
  MEMORY_LIFE_LIMITS,
  slotQuestionWords,
  slotsOf,
  validAt,
  words,
} from '../../core/recall/memory-life.js';
import { snippetAround } from '../../core/recall/prompt-snippets.js';
import { nameOnlyLabel, nameOnlyMatches, withValuelessAtZero } from '../../core/recall/name-only.js';
import { reportedTurns, type ReportedTurn } from '../../core/recall/reported-turns.js';
import {
  asksForSeveral,
  earlierValues,
  factLines,
  firstNamed,
  OLDER_TURN_DEFAULTS,
  type OlderTurn,
  olderTurns,
  statedValues,
  valueKinds,
} from '../../core/recall/older-turns.js';
import { askedValues, NEWEST_FIRST_DEFAULTS, type NewerValue, newestOfKind } from '../../core/recall/newest-first.js';
import { byScoreThenText } from '../../core/rank-order.js';
import { queryTermShare } from '../../core/text/term-weights.js';
import {
  asksPresentValue,
  asksValueAsOf,
  questionLife,
  questionRecency,
  questionTime,
  withoutTimeWords,
} from '../../core/recall/question-time.js';
import type { EmbeddingProvider } from '../../embed/index.js';
import type { SimilarityScan, VectorSource } from '../search/vectors.js';
import type {
  EmbeddingStore,
  ExecutionRecord,
  ExecutionStore,
  MemoryRecord,
  MemoryStore,
  ObservationRecord,
  ObservationStore,
  RevisionStore,
  StoreMeta,
} from '../../store/types.js';

export const RECALL_DEFAULTS = Object.freeze({
  limit: 5,
  /** Weight of the BM25 ratio in the fused score (the rest: embedding similarity). */
  bm25Weight: 0.7,
  /** How many candidates BM25 and embeddings each bring. */
  candidates: 50,
  /** Recency: the factor falls from 1 towards 1 − recencyWeight with age, half-way at `recencyDays`. */
  recencyWeight: 0.1,
  recencyDays: 90,
  /** Stored confidence: the factor runs from 1 − confidenceWeight (confidence 0) to 1. */
  confidenceWeight: 0.2,
  /** A candidate found by embeddings alone (no query word) needs at least this similarity. */
  embeddingOnlyFloor: 0.4,
  /**
   * A question naming a speaker of the conversation's turns (issue 23) asks what they said: another speaker's turn's
   * score is multiplied by this (the same weight as a superseded memory's).
   */
  otherSpeakerFactor: 0.5,
  /**
   * A named speaker's turns in the line of facts closest in meaning to the question are scored with this share of
   * its best match's fused score (`parts.via` `sameFact`): below it, so that its margin (the label's) stays.
   */
  sameFactShare: 0.85,
  /** How many links of supersession recall follows from a superseded candidate to what replaced it. */
  supersededHops: 4,
  /**
   * A present question naming a speaker: at most this many of the speaker's latest words (turns that replaced one of
   * theirs and were not replaced, in the slot asked), read from at most `speakerTurns` of their turns.
   */
  latestWords: 4,
  speakerTurns: 400,
  /**
   * … the `latestWords` closest in meaning to the question, each scored with their best candidate's fused ×
   * sameFactShare × min(1, latestWordBase + its similarity), and at least a hair above the speaker's turns found by
   * their name alone (`parts.latestWord.above`).
   */
  latestWordBase: 0.5,
});

export type RecallKind = 'memory' | 'observation' | 'execution' | 'instinct' | 'skill';

/** One thing recall can return, as the recall index holds it. */
export interface Recallable {
  key: string;
  id: string;
  kind: RecallKind;
  category: MemoryCategory | string;
  title: string;
  text: string;
  path?: string;
  tags: string[];
  confidence?: number;
  /** When it became true: a memory's validFrom, else when it was last written. */
  at: number;
  /** A memory's life (issue 23): superseded, in conflict, valid until, its turn. */
  life?: MemoryLife;
  /** When a memory became true: its validFrom, else when it was first written (`--as-of`). */
  from?: number;
}

export interface RecallIndex {
  /**
   * Everything recall can return, by key, when the index holds it (a full build: benches); without it, recall reads
   * its candidates alone by id (the engine's persistent index, issue 20).
   */
  items?: Map<string, Recallable>;
  /** In memory, or the store when the database ranks vectors (pgvector). */
  vectors: VectorSource;
  /** The project root: an instinct's or skill's file there holds its current text (read for candidates). */
  root?: string;
}

export interface RecallRequest {
  /** @default 5 */
  limit?: number;
  /** @default RECALL_DEFAULTS.bm25Weight */
  bm25Weight?: number;
  /** How labels are given; `{ mode: 'seed' }` is seed 003 exactly. */
  labels?: RecallLabelOptions;
  /** Each result carries its item's text (the hooks' snippets). @default false */
  withText?: boolean;
  /**
   * The time the query names (a period, the present, the past, "when") sets recency
   * (core/recall/question-time). @default true
   */
  questionTime?: boolean;
  /** Past runs are searched too (the prompt hook leaves them out: a run's title is a past prompt). @default true */
  runs?: boolean;
  /**
   * Recall as of this time (epoch ms): only what was true then (a memory superseded later counts as current).
   * @default now, every memory, the superseded ones below what replaced them
   */
  asOf?: number;
}

/** The times of a result (ISO 8601): when it became true (or was written), until when, for a turn its time. */
export interface RecallTimes {
  at: string;
  validFrom?: string;
  validTo?: string;
}

export interface RecallResult {
  id: string;
  kind: RecallKind;
  category: string;
  title: string;
  path: string | null;
  tags: string[];
  /** The item's text (a note's body, an observation's evidence, a run's summary and tools), when asked for. */
  text?: string;
  /** The text around the query's first matched word, at most 220 characters (the whole text when shorter). */
  snippet: string;
  times: RecallTimes;
  /**
   * `superseded`: a later memory replaced it (demoted, left out of an agent's context); `conflict`: undecided, or a
   * turn likely an older version of a later one for this question about the present (`parts.newerTurn`).
   */
  status: 'current' | 'superseded' | 'conflict';
  /** Why it is superseded or in conflict, and the memories it is linked to; how often it was remembered. */
  life?: Pick<MemoryLife, 'supersededBy' | 'supersedes' | 'conflictsWith' | 'why' | 'seen' | 'sources'>;
  /** A conversation's turn: who spoke, in which session, and the turns just before and after it. */
  turn?: { speaker: string; session: string; index: number; neighbours: RecallNeighbour[] };
  score: number;
  label: ConfidenceLabel;
  parts: {
    bm25: number | null;
    bm25Relative: number;
    similarity: number;
    bm25Weight: number;
    fused: number;
    termShare: number;
    confidence: number | null;
    confidenceFactor: number;
    ageDays: number;
    recencyFactor: number;
    /** What recency was measured against when the query names a time (a period, the present, the past). */
    recencyBasis?: string;
    /** 0.5 for a superseded memory (core/recall/memory-life), else 1. */
    lifeFactor: number;
    /**
     * Why a memory nothing superseded counts as superseded: its `validTo` passed (`ended`) or its `validFrom` is
     * still ahead (`notYet`) of the time asked about (the as-of date, else now).
     */
    window?: LifeWindow;
    /** A turn by another speaker than the one the question names: `otherSpeakerFactor`, else 1. */
    speakerFactor: number;
    /**
     * A turn telling another speaker's fact in the third person (core/recall/reported-turns: names them, not addressed
     * nor a reply to them, not in the first or second person, and names `shared`, names they said in a statement of
     * their own that the teller says in none of theirs): the ordering in time reads it as that speaker's, their name
     * taken out, and never marks it older; its weight (`speakerFactor`) stays its own speaker's. `why` says so.
     */
    reportedAbout?: { speaker: string; shared: string[]; why: string };
    /**
     * The candidate whose match this one was scored with (its id; `fused` is then its), and how they are linked:
     * `replaces`, this one replaced it (a question about what holds now asks for the current value, which may share
     * none of its words); `answeredBy`, it is the turn right after this one, addressed to this one's speaker, whom
     * the question names ("Aiko, how do you like Dublin?" after Aiko's "I relocated from Osaka to Dublin");
     * `replacedBy`, it replaced this one and the question asks about before ("Where did Ana live before Denver?").
     */
    via?: { id: string; how: 'replaces' | 'replacedBy' | 'answeredBy' | 'sameFact' };
    /**
     * A turn likely an older version of a later turn of its speaker among the candidates of a question about the
     * present (issue 23, core/recall/older-turns): that turn and the names it names besides this one's. This one is
     * then marked `conflict` (`lifeFactor`: the superseded factor) and the later one goes above it.
     */
    newerTurn?: { id: string; names: string[] };
    /** The older version (`newerTurn`) this turn was scored right above, when it ranked below it. */
    newerThan?: string;
    /**
     * The newest of its speaker's top turns stating values of one kind (core/recall/newest-first), placed where the
     * best of them ranked, above `before` (ids); none of those is marked. `why` says so.
     */
    newerValue?: { before: string[]; why: string };
    /**
     * A turn of the speaker the question names found by that name alone (core/recall/name-only): `bm25Relative` is
     * the lowest of such turns' ratios (0 for one stating no fact of its own), not its own, which reads its length.
     */
    nameOnly?: true;
    /**
     * A turn of the speaker a present question names, added for holding (statedValues) a value of the kind it asks
     * about (core/recall/newest-first askedValues), matching none of its words (`bm25Relative` 0): `fused` is the
     * anchor's (the candidate holding a question word beside such a value) × `sameFactShare`. `why` says so.
     */
    addedForValue?: { values: string[]; anchor: string; why: string };
    /**
     * A present question naming a speaker: this turn of theirs replaced one of theirs, was not replaced, and is of the
     * slot the question asks (core/recall/memory-life slotsOf; none, when it asks none; when none of their latest
     * words names that slot, one naming no slot), so it is their latest word on something asked; scored with
     * `anchor`, their best candidate (`via` `sameFact`), no evidence for a label; `above`: their best turn found by
     * the name alone, which it was placed a hair above (a fact of theirs before their small talk).
     */
    latestWord?: { anchor: string; why: string; above?: string };
    /**
     * A turn of the speaker the question names that another speaker among the candidates said word for word, naming
     * no name (small talk: core/recall/name-only): `bm25Relative` is 0.
     */
    saidByOthers?: true;
    /**
     * A question about the past or a period: a turn of the speaker it names found by that name alone that names no
     * value (no name but the speakers', no word filling a value's frame in the candidates' turns: small talk), so
     * `bm25Relative` is 0 and the speaker's turns naming a value go above it (core/recall/name-only).
     */
    namesNoValue?: true;
    /**
     * A question asking when a value came: this is the first turn stating its speaker's fact that names every name
     * the question names (core/recall/older-turns firstNamed), put above the turns and what matches less; a first
     * mention, no evidence for the label.
     */
    firstNamed?: true;
    seedLabel: ConfidenceLabel;
    withheld?: string;
    /** A "high" from evidence besides the scores and links: a turn that is the change a "when" asks for. */
    evidence?: string;
  };
}

/** A turn beside a recalled turn in its session. */
export interface RecallNeighbour {
  id: string;
  speaker: string;
  index: number;
  at: string;
  text: string;
}

export const recallKey = (kind: RecallKind, id: string): string => `${kind}:${id}`;
/** The recall kind of a stored memory: instincts and skills keep theirs, every other category is a memory. */
const memoryKind = (category: MemoryRecord['category']): RecallKind =>
  category === 'instinct' ? 'instinct' : category === 'skill' ? 'skill' : 'memory';
const key = recallKey;
export const itemText = (r: Recallable): string =>
  `${r.title}\n${r.text}${r.tags.length > 0 ? `\n${r.tags.join(' ')}` : ''}`;
/**
 * Higher score first; a tie by a key that is the same in every store built from the same input (core/rank-order): a
 * run's text, as a run's id is random; any other item's key, as its id is made from its content (a hash, a name), so
 * the ties of memories keep the order they had.
 */
const byRank = byScoreThenText<{ score: number; item: Recallable }>(
  (c) => c.score,
  (c) => (c.item.kind === 'execution' ? `execution:${itemText(c.item)}` : c.item.key),
  (c) => c.item.key,
);

/** A memory as recall holds it (instincts and skills keep their own kind, so feedback finds them). */
export function memoryItem(m: MemoryRecord): Recallable {
  const kind = memoryKind(m.category);
  return {
    key: key(kind, m.id),
    id: m.id,
    kind,
    category: m.category,
    title: m.title,
    text: m.text,
    ...(m.path === undefined ? {} : { path: m.path }),
    tags: m.tags,
    ...(m.confidence === undefined ? {} : { confidence: m.confidence }),
    at: m.life?.validFrom ?? m.updatedAt,
    ...(m.life === undefined ? {} : { life: m.life }),
    from: m.life?.validFrom ?? m.createdAt,
  };
}

export function observationItem(o: ObservationRecord): Recallable {
  return {
    key: key('observation', o.id),
    id: o.id,
    kind: 'observation',
    category: o.type,
    title: o.observation,
    text: o.evidence.join('\n'),
    ...(o.context.file === undefined ? {} : { path: o.context.file }),
    tags: o.tags,
    confidence: o.confidence,
    at: o.timestamp,
  };
}

export function executionItem(e: ExecutionRecord): Recallable {
  return {
    key: key('execution', e.id),
    id: e.id,
    kind: 'execution',
    category: 'execution',
    title: e.intent,
    text: [e.summary ?? '', e.calls.map((c) => c.tool).join(' → ')].filter((t) => t !== '').join('\n'),
    tags: [],
    ...(e.confidence === undefined ? {} : { confidence: e.confidence }),
    at: e.endedAt ?? e.startedAt,
  };
}

/** The share of the query's words that the item contains (core/text/term-weights `queryTermShare`). */
export function termShare(queryWords: readonly string[], item: Recallable): number {
  return queryTermShare(queryWords, itemText(item));
}

/** The full-text searches recall makes, as the store offers them. */
export type FullTextSearch = Pick<
  MemoryStore & ObservationStore & ExecutionStore,
  'searchMemories' | 'searchObservations' | 'searchExecutions'
>;

export interface RecallContext {
  store: ExecutionStore & MemoryStore & ObservationStore & EmbeddingStore & RevisionStore & StoreMeta;
  scope: string;
  /**
   * Everything recall can return, with embeddings. Without it (the hooks, which must start fast),
   * recall ranks the BM25 hits alone, read from the hits themselves: no embedding, so the ranking is
   * BM25's (`bm25Weight` 1) and similarity is 0 (pass labels that do not ask for it).
   */
  index?: RecallIndex;
  /**
   * Full-text search as a long-lived engine answers it: postings kept in memory that rank exactly as the store
   * (engine/index/full-text-index). Without it, the store searches.
   */
  fullText?: FullTextSearch;
  embedder?: EmbeddingProvider;
  now: number;
}

export async function recall(ctx: RecallContext, query: string, request: RecallRequest = {}): Promise<RecallResult[]> {
  // The words that only say "now" set recency (below), not what is searched for (issue 23).
  const asWritten =
    request.questionTime === false
      ? buildFtsQuery(query)
      : (buildFtsQuery(withoutTimeWords(query)) ?? buildFtsQuery(query));
  if (asWritten === undefined) return [];
  // A question about where one lives or works is searched in the slot's words too (core/recall/memory-life); one
  // asking when something happened asks for that event's own words.
  const asked = request.questionTime === false ? { asksWhen: false } : questionTime(query, ctx.now);
  const slotWords = asked.asksWhen ? [] : slotQuestionWords(query);
  const q =
    slotWords.length === 0
      ? asWritten
      : (buildFtsQuery(`${withoutTimeWords(query)} ${slotWords.join(' ')}`) ?? asWritten);
  const index = ctx.index;
  const w = index === undefined || ctx.embedder === undefined ? 1 : (request.bm25Weight ?? RECALL_DEFAULTS.bm25Weight);
  const k = RECALL_DEFAULTS.candidates;
  const search: FullTextSearch = ctx.fullText ?? ctx.store;
  const [memoryHits, observationHits, executionHits, [queryVector]] = await Promise.all([
    search.searchMemories(ctx.scope, q.match, { limit: k }),
    search.searchObservations(ctx.scope, q.match, { limit: k }),
    request.runs === false ? Promise.resolve([]) : search.searchExecutions(ctx.scope, q.match, { limit: k }),
    index === undefined || ctx.embedder === undefined ? Promise.resolve([undefined]) : ctx.embedder.embed([query]),
  ]);
  const bm25 = new Map<string, number>([
    ...memoryHits.map((h) => [key(memoryKind(h.memory.category), h.memory.id), h.bm25] as const),
    ...observationHits.map((h) => [key('observation', h.observation.id), h.bm25] as const),
    ...executionHits.map((h) => [key('execution', h.id), h.bm25] as const),
  ]);
  const best = Math.max(0, ...[...bm25.values()].map(Math.abs));
  // Without an index, the items are the hits themselves.
  const hitItems = async (): Promise<Map<string, Recallable>> =>
    new Map(
      [
        ...memoryHits.map((h) => memoryItem(h.memory)),
        ...observationHits.map((h) => observationItem(h.observation)),
        ...(
          await ctx.store.getExecutionsByIds(
            ctx.scope,
            executionHits.map((h) => h.id),
            { calls: false },
          )
        ).map(executionItem),
      ].map((i) => [i.key, i]),
    );
  // BM25 alone does not read the embeddings for ranking (its weight makes similarity count for 0 in every
  // score): only the results returned get a similarity, for their labels, once ranked.
  const similar: SimilarityScan =
    index === undefined || w === 1
      ? { of: (_: string) => 0, top: [] as string[] }
      : w > 1
        ? await (async () => {
            const sims = await index.vectors.similarity(queryVector, bm25.keys());
            return { of: (id: string) => sims.get(id) ?? 0, top: [] as string[] };
          })()
        : await index.vectors.scan(queryVector, k, bm25.keys());
  const queryWords = [...new Set([...asWritten.terms, ...asWritten.phrases.flat()])];
  const candidates = [...new Set([...bm25.keys(), ...similar.top])];
  const curve = { weight: RECALL_DEFAULTS.recencyWeight, days: RECALL_DEFAULTS.recencyDays };
  const askedLife = request.asOf === undefined ? questionLife(asked, ctx.now) : { keepSuperseded: false };
  // Runs are read without their calls to be ranked (id, intent, confidence, time); the calls of those returned
  // are read after, for their text (the share of the query's words).
  const items: Map<string, Recallable> =
    index === undefined
      ? await hitItems()
      : (index.items ??
        (await candidateItems(ctx, index.root, candidates, {
          memories: memoryHits.map((h) => h.memory),
          observations: observationHits.map((h) => h.observation),
        })));
  // A question naming a speaker of the candidates' turns asks what they said (issue 23).
  const inQuery = new Set(queryWords);
  const named = new Set<string>();
  for (const k2 of candidates) {
    const speaker = items.get(k2)?.life?.turn?.speaker;
    if (speaker !== undefined && !named.has(speaker) && speakerWords(speaker).every((x) => inQuery.has(x)))
      named.add(speaker);
  }
  const asOf = request.asOf ?? askedLife.asOf;
  // A question about the past keeps what no longer holds as its answer (not a fact still ahead).
  const keptPast = (life: { status: string; window?: string }) =>
    askedLife.keepSuperseded && life.status === 'superseded' && life.window !== 'notYet';
  // The named speakers' turns found by the name alone are scored against the best BM25 hit of what the question asks
  // about, not against another speaker's turn ("Where does Raj work?": Lena's "I work at Acme" is about Lena).
  const othersTurn = (k2: string) => {
    const speaker = items.get(k2)?.life?.turn?.speaker;
    return speaker !== undefined && !named.has(speaker);
  };
  const ownBest = Math.max(0, ...[...bm25].filter(([k2]) => !othersTurn(k2)).map(([, b]) => Math.abs(b)));
  const scale = named.size === 0 || ownBest === 0 ? best : ownBest;
  // The named speakers' turns BM25 found by the name alone: the rest of the score orders them (core/recall/name-only).
  const byNameAlone = nameOnlyMatches(
    (named.size > 0 ? candidates : []).map((k2) => {
      const item = items.get(k2);
      const raw = bm25.get(k2);
      return {
        key: k2,
        ...(item?.life?.turn === undefined ? {} : { speaker: item.life.turn.speaker }),
        text: item?.text ?? '',
        ratio: raw === undefined || scale === 0 ? undefined : Math.min(1, Math.abs(raw) / scale),
      };
    }),
    named,
    [...named].flatMap(speakerWords),
    [...new Set([...q.terms, ...q.phrases.flat()])],
  );
  // A question about the past or a period naming a speaker (not "when"): their turns found by the name alone naming no
  // value (no name, no word filling a value's frame in the candidates' turns) go below those naming one, at ratio 0
  // (core/recall/name-only withValuelessAtZero). Not for the present: there it lifted older values' turns, unmarked.
  const pastOfNamed =
    w < 1 && named.size > 0 && !asked.asksWhen && (asked.tense === 'past' || askedLife.asOf !== undefined);
  const valueless = pastOfNamed ? valuelessTurns(candidates, items, byNameAlone) : undefined;
  // Ranked by the rest of the score only with similarity beside BM25; labelled low with BM25 alone too (below).
  const nameOnly = w < 1 ? (valueless?.matches ?? byNameAlone) : nameOnlyMatches([], NONE_NAMED, [], []);
  type Link = { id: string; fused: number; how: 'replaces' | 'replacedBy' | 'answeredBy' | 'sameFact' };
  // The named speaker's turns added for the kind of value asked (below), with the values they hold: none matched the
  // question's words (`bm25Relative` 0); they are scored with a turn, as a turn linked is.
  const byValue = new Map<string, { values: string[]; anchor: string }>();
  // The similarity of a turn read by key, not by the scan (which gives 0 to keys below its top k): latest words.
  const exactSimilarity = new Map<string, number>();
  const score = (item: Recallable, linked?: Link) => {
    const raw = bm25.get(item.key);
    const byName = nameOnly.ratios.get(item.key) ?? (byValue.has(item.key) ? 0 : undefined);
    const bm25Relative = byName ?? (raw === undefined || best === 0 ? 0 : Math.abs(raw) / best);
    const similarity = Math.max(0, exactSimilarity.get(item.key) ?? similar.of(item.key));
    const own = w * bm25Relative + (1 - w) * similarity;
    const fused = linked === undefined ? own : Math.max(own, linked.fused);
    const confidenceFactor =
      item.confidence === undefined ? 1 : 1 - RECALL_DEFAULTS.confidenceWeight * (1 - item.confidence);
    const ageDays = Math.max(0, (ctx.now - item.at) / 86_400_000);
    const { factor: recencyFactor, basis: recencyBasis } = questionRecency(item.at, ctx.now, asked, curve);
    // As of the date asked, else now: a memory whose window ended or is still ahead is not what holds now (walk 15).
    const stated = lifeStatus(item.life, asOf === undefined ? { now: ctx.now } : { asOf });
    const life = keptPast(stated) ? { ...stated, factor: 1 } : stated;
    const speaker = item.life?.turn?.speaker;
    const speakerFactor =
      named.size === 0 || speaker === undefined || named.has(speaker) ? 1 : RECALL_DEFAULTS.otherSpeakerFactor;
    return {
      item,
      raw,
      bm25Relative,
      similarity,
      fused,
      confidenceFactor,
      ageDays,
      recencyFactor,
      recencyBasis,
      life,
      speakerFactor,
      ...(linked === undefined || own >= linked.fused ? {} : { via: { id: linked.id, how: linked.how } }),
      score: fused * confidenceFactor * recencyFactor * life.factor * speakerFactor,
    };
  };
  const pool = new Map(
    candidates
      .map((k2) => items.get(k2))
      .filter((i): i is Recallable => i !== undefined)
      .map((item) => [item.key, score(item)] as const),
  );
  // The items linked below are scored with their similarity as the scan gives it to keys it was not asked for.
  const settled = async <T extends { key: string }>(linked: Iterable<[string, T]>): Promise<[string, T][]> => {
    const list = [...linked];
    if (list.length > 0) await similar.settle?.(list.map(([, item]) => item.key));
    return list;
  };
  const valueTurns = async (cands: readonly ReturnType<typeof score>[]) => {
    let context = turnsOf(cands);
    const speakers = new Set(context.flatMap((c) => speakerWords(c.speaker)));
    const askedWords = queryWords.filter((x) => x.length >= 3 && !speakers.has(x) && !isStopWord(x));
    const ftsOf = (values: ReadonlySet<string>) =>
      values.size === 0
        ? undefined
        : buildFtsQuery(
            [...named]
              .flatMap(speakerWords)
              .concat([...values])
              .join(' '),
          );
    let lefts = new Map<string, Set<string>>();
    const valuesIn = (turns: typeof context) => {
      lefts = new Map();
      return new Set(askedValues(askedWords, turns, valueKinds(turns, Number.POSITIVE_INFINITY, { speakers, lefts })));
    };
    let values = valuesIn(context);
    let fts = ftsOf(values);
    if (fts === undefined) return undefined;
    // The turns holding those values hold more frames of the kind (the speaker's own "I started a new job at _"):
    // the kinds are read again with them, once.
    const firstMatch = fts.match;
    const first = (await search.searchMemories(ctx.scope, firstMatch, { limit: k })).map((h) => memoryItem(h.memory));
    context = [...context, ...turnsOf(first.map((item) => ({ item })))];
    values = valuesIn(context);
    fts = ftsOf(values);
    if (fts === undefined) return undefined;
    // The values a turn holds as its speaker's (statedValues: "Sam crushed me at chess" holds no chess of mine).
    const held = (item: Recallable) =>
      statedValues(
        item.text,
        [...new Set(words(item.text).filter((x) => values.has(x)))],
        speakerWords(item.life?.turn?.speaker ?? ''),
        speakers,
        lefts,
      );
    const holds = (item: Recallable) => held(item).length > 0;
    // The candidate matching the question best that holds one of its words beside a value of the kind.
    let anchor: ReturnType<typeof score> | undefined;
    for (const c of cands) {
      const ws = words(c.item.text);
      if (ws.some((x) => values.has(x)) && ws.some((x) => askedWords.includes(x)))
        if (anchor === undefined || c.fused > anchor.fused) anchor = c;
    }
    // The same values read again ask the same search: its hits are the first ones.
    const hits =
      fts.match === firstMatch
        ? first
        : (await search.searchMemories(ctx.scope, fts.match, { limit: k })).map((h) => memoryItem(h.memory));
    const added = hits
      .filter((i) => !pool.has(i.key) && named.has(i.life?.turn?.speaker as string) && holds(i))
      .slice(0, NEWEST_FIRST_DEFAULTS.added);
    return { added, holds, held, anchor };
  };
  // A question about now (no date asked) naming a speaker: what the two steps below read.
  const presentOfNamed =
    w < 1 &&
    named.size > 0 &&
    request.questionTime !== false &&
    request.asOf === undefined &&
    askedLife.asOf === undefined &&
    !asksForSeveral(query) &&
    asksPresentValue(query, asked);
  // A question about now naming a speaker: the speaker's turns holding values of the kind it asks about (words filling
  // a frame beside one of its words in the candidates' turns: core/recall/newest-first askedValues) join the
  // candidates, at most `added`, and are scored with the candidate that holds a question word beside such a value
  // (`sameFact`, at `sameFactShare`, no evidence for a label); the ordering in time then reads them.
  if (presentOfNamed) {
    const found = await valueTurns([...pool.values()]);
    // With no candidate holding a question word beside such a value, nothing says which fact they are of: none added.
    if (found?.anchor !== undefined) {
      const anchor = found.anchor;
      const link = {
        id: anchor.item.id,
        fused: anchor.fused * RECALL_DEFAULTS.sameFactShare,
        how: 'sameFact' as const,
      };
      // The turns added only: lifting those among the candidates already (found by the name alone) brought older
      // values' turns into the top 10 of present questions (section E, unmarked).
      for (const [key, item] of await settled(found.added.map((i) => [i.key, i] as const))) {
        byValue.set(key, { values: found.held(item), anchor: anchor.item.id });
        const own = score(item);
        const linked = score(item, link);
        pool.set(key, linked.score > own.score ? linked : own);
      }
    }
  }
  // A question about now naming a speaker: their latest word on each thing they changed, in the slot it asks about
  // (their turns that replaced one of theirs, not replaced since), scored with their best candidate by meaning.
  const latest = new Map<string, { anchor: string; above?: string }>();
  if (presentOfNamed) {
    // Each named speaker's best candidate: a latest word is scored with its own speaker's.
    const bestOf = new Map<string, ReturnType<typeof score>>();
    for (const c of pool.values()) {
      const speaker = c.item.life?.turn?.speaker;
      if (speaker === undefined || !named.has(speaker)) continue;
      const was = bestOf.get(speaker);
      if (was === undefined || c.fused > was.fused) bestOf.set(speaker, c);
    }
    const all = bestOf.size === 0 ? [] : await latestWords(ctx, search, query, named);
    if (index !== undefined && all.length > 0)
      for (const [key, value] of await index.vectors.similarity(
        queryVector,
        all.map(([key]) => key),
      ))
        exactSimilarity.set(key, value);
    // The closest in meaning to the question (ties: the newer first).
    const near = (key: string) => exactSimilarity.get(key) ?? 0;
    const words = all
      .map((entry, i) => ({ entry, i }))
      .sort((a, b) => near(b.entry[0]) - near(a.entry[0]) || a.i - b.i)
      .slice(0, RECALL_DEFAULTS.latestWords)
      .map(({ entry }) => entry);
    // Each named speaker's best turn found by their name alone (no link): nothing in it says what was asked, so a
    // latest word of theirs (a fact, still holding) goes above it.
    const smallTalk = new Map<string, ReturnType<typeof score>>();
    for (const c of pool.values()) {
      const speaker = c.item.life?.turn?.speaker;
      if (speaker === undefined || !named.has(speaker) || c.via !== undefined) continue;
      if (!nameOnly.ratios.has(c.item.key) || nameOnly.common.has(c.item.key)) continue;
      if (c.score > (smallTalk.get(speaker)?.score ?? 0)) smallTalk.set(speaker, c);
    }
    for (const [n, [key, item]] of words.entries()) {
      const speaker = item.life?.turn?.speaker as string;
      const best = bestOf.get(speaker);
      if (best === undefined) continue;
      const own = score(item);
      const next = score(item, {
        id: best.item.id,
        fused:
          best.fused * RECALL_DEFAULTS.sameFactShare * Math.min(1, RECALL_DEFAULTS.latestWordBase + own.similarity),
        how: 'sameFact',
      });
      // A hair above the speaker's best turn found by the name alone, in the order of closeness.
      const talk = smallTalk.get(speaker);
      const lift = talk !== undefined && next.score <= talk.score;
      if (lift) next.score = talk.score * (1 + 1e-9 * (words.length - n));
      // Kept when the link lifts it (then `via` is set: the ranking's filter keeps it though no query word matched).
      if (next.score <= own.score || next.score <= (pool.get(key)?.score ?? 0)) continue;
      latest.set(key, { anchor: best.item.id, ...(lift ? { above: talk.item.id } : {}) });
      pool.set(key, next);
    }
  }
  // What replaced a superseded candidate, scored with its match when that is more (issue 23): a question about what
  // holds now finds the old value's words and asks for the new one.
  if (!askedLife.keepSuperseded)
    for (const [from, by] of await settled(
      await replacements(ctx, index, [...pool.values()], asOf === undefined ? { now: ctx.now } : { asOf }),
    )) {
      const was = pool.get(from) as ReturnType<typeof score>;
      const next = score(by, { id: was.item.id, fused: was.fused, how: 'replaces' });
      const mine = pool.get(by.key);
      if (mine === undefined || next.score > mine.score) pool.set(by.key, next);
    }
  // A question about before (no period, not "when") asks what a matched memory replaced: that is scored with it.
  if (asked.tense === 'past' && !asked.asksWhen && askedLife.asOf === undefined)
    for (const [from, was] of await settled(await predecessors(ctx, index, [...pool.values()]))) {
      const after = pool.get(from) as ReturnType<typeof score>;
      const next = score(was, { id: after.item.id, fused: after.fused, how: 'replacedBy' });
      const mine = pool.get(was.key);
      if (mine === undefined || next.score > mine.score) pool.set(was.key, next);
    }
  // A turn addressed to a speaker the question names answers what they had just said: that turn is scored with it.
  if (named.size > 0)
    for (const [from, said] of await settled(await addressedTurns(ctx, index, [...pool.values()], named))) {
      const reply = pool.get(from) as ReturnType<typeof score>;
      const next = score(said, { id: reply.item.id, fused: reply.fused, how: 'answeredBy' });
      const mine = pool.get(said.key);
      if (mine === undefined || next.score > mine.score) pool.set(said.key, next);
    }
  // A question naming a value that came later (not about the present, not "when", no period): the turns of the
  // value it replaced, named by the turn that brought it, are scored with that turn (core/recall/older-turns).
  if (
    w < 1 &&
    asked.tense !== 'current' &&
    !asked.asksWhen &&
    askedLife.asOf === undefined &&
    request.asOf === undefined
  )
    for (const [from, by] of earlierValues(
      [...pool.values()].flatMap(({ item }) => {
        const speaker = item.life?.turn?.speaker;
        return speaker === undefined || (named.size > 0 && !named.has(speaker))
          ? []
          : [{ key: item.key, id: item.id, speaker, at: item.from ?? item.at, text: item.text }];
      }),
      query,
      [...named].flatMap(speakerWords),
    )) {
      const later = pool.get(by.laterKey) as ReturnType<typeof score>;
      const was = pool.get(from) as ReturnType<typeof score>;
      const next = score(was.item, { id: later.item.id, fused: later.fused, how: 'replacedBy' });
      if (next.score > was.score) pool.set(from, next);
    }
  // A question naming a speaker, not "when": the line of their facts closest in meaning to it (the mean similarity
  // of its turns) is what it asks about; its turns are scored near its best match (core/recall/older-turns factLines).
  if (w < 1 && named.size > 0 && !asked.asksWhen)
    for (const [key, best] of closestLine([...pool.values()], named)) {
      const was = pool.get(key) as ReturnType<typeof score>;
      const next = score(was.item, {
        id: best.item.id,
        fused: best.fused * RECALL_DEFAULTS.sameFactShare,
        how: 'sameFact',
      });
      if (next.score > was.score) pool.set(key, next);
    }
  const ranked = [...pool.values()]
    // As of a date: only what was true then.
    .filter((c) => request.asOf === undefined || validAt(c.item.life, c.item.from ?? c.item.at, request.asOf))
    // Meaning alone must be close to count: a memory with none of the query's words and a far
    // embedding is not a result (it filled the context block with unrelated "medium" memories).
    .filter(
      (c) =>
        c.raw !== undefined ||
        w === 0 ||
        c.similarity >= RECALL_DEFAULTS.embeddingOnlyFloor ||
        c.via !== undefined ||
        byValue.has(c.item.key) ||
        latest.has(c.item.key),
    )
    .sort(byRank);
  // A question about the present: of its top turns, one likely an older version of a later one of the same speaker
  // goes below it, marked (core/recall/older-turns; issue 23). The fused ranking only: BM25 alone stays the reference.
  const present =
    request.questionTime !== false &&
    request.asOf === undefined &&
    askedLife.asOf === undefined &&
    asked.tense !== 'past' &&
    !asked.asksWhen &&
    !asksForSeveral(query);
  // For a question in the present tense naming a speaker (not "What was …": a past one read as present would take the
  // later news for the value asked), a turn telling the speaker's fact in another's words, tied to them by a name they
  // said themselves, is theirs for the orderings in time below (core/recall/reported-turns); it is not weighed as
  // theirs (the fused ranking only).
  const reported =
    w < 1 && named.size > 0 && present && asksPresentValue(query, asked)
      ? await reportsAmong(ctx, index, ranked)
      : NONE;
  const { older, lifted } =
    present && w < 1 ? orderTurnsInTime(ranked, named, query, reported) : { older: NONE, lifted: NONE };
  // Then, of one speaker's top turns stating values of one kind, the newest (by the date asked about) goes first,
  // unmarked (core/recall/newest-first). Never for a question about before, "when", or several answers.
  const inOrder =
    w < 1 &&
    request.questionTime !== false &&
    !asksForSeveral(query) &&
    ((present && asksPresentValue(query, asked)) || (asOf !== undefined && asksValueAsOf(query, asked)));
  const newer = inOrder ? newestFirst(ranked, named, present ? undefined : asOf, reported) : NONE;
  // A question asking when a value came: the first turn naming it goes first (core/recall/older-turns firstNamed).
  const came = asked.asksWhen && w < 1 ? firstCame(ranked, named, query) : undefined;
  const limit = request.limit ?? RECALL_DEFAULTS.limit;
  if (index?.items === undefined) {
    // Runs were ranked without their calls: those shown, and those tied with one shown, are read with them, and a
    // tie of runs of one intent is ordered by their tools before their random ids (byRank).
    const cut = ranked[Math.min(limit, ranked.length) - 1]?.score;
    const runs = ranked
      .filter((s, i) => s.item.kind === 'execution' && (i < limit || s.score === cut))
      .map((s) => s.item.id);
    const withCalls = new Map(
      (await ctx.store.getExecutionsByIds(ctx.scope, runs)).map((e) => [e.id, executionItem(e)] as const),
    );
    for (const s of ranked) if (s.item.kind === 'execution') s.item = withCalls.get(s.item.id) ?? s.item;
    if (runs.length > 0) ranked.sort(byRank);
  }
  const scored = ranked.slice(0, limit);
  if (index !== undefined && w === 1) {
    const sims = await index.vectors.similarity(
      queryVector,
      scored.map((s) => s.item.key),
    );
    for (const s of scored) s.similarity = Math.max(0, sims.get(s.item.key) ?? 0);
  }
  // Labels are given over the whole ranked pool, so the margin is to the next candidate, whatever the limit; a
  // result's label reads its own share of the query's words and similarity, and the scores after it.
  const shares = scored.map((s) => termShare(queryWords, s.item));
  const hasLink = (s: { via?: Pick<Link, 'id' | 'how'> }) =>
    s.via !== undefined && s.via.how !== 'sameFact' && !nameOnly.bare.has(recallKey('memory', s.via.id));
  const labels = recallLabels(
    ranked.map((s, i) => ({
      score: s.score,
      termShare: shares[i] ?? 0,
      similarity: s.similarity,
      turn: s.item.life?.turn !== undefined,
      linked: hasLink(s),
      // A question asking when: whether the turn replaced one of its speaker's (the change asked for).
      ...(asked.asksWhen ? { change: (s.item.life?.supersedes?.length ?? 0) > 0 } : {}),
    })),
    request.labels,
  );
  const neighbours = await turnNeighbours(
    ctx,
    scored.map((s) => s.item),
  );
  return scored.map((s, i) => {
    const evidence = labels[i] ?? { label: 'low' as const, seedLabel: 'low' as const };
    // A named speaker's turn holding none of the question's other words: nothing in it answers (walk 15, item 8).
    const found = byNameAlone.ratios.has(s.item.key)
      ? nameOnlyLabel(evidence, hasLink(s) || (asked.asksWhen && (s.item.life?.supersedes?.length ?? 0) > 0))
      : evidence;
    const learned = (s.item.kind === 'skill' || s.item.kind === 'instinct') && s.item.confidence !== undefined;
    const label = learned ? capLearnedLabel(found, s.item.confidence as number) : found;
    const olderOf = older.get(s.item.key);
    const life = s.item.life;
    const turn = life?.turn;
    return {
      id: s.item.id,
      kind: s.item.kind,
      category: s.item.category,
      title: s.item.title,
      path: s.item.path ?? null,
      tags: s.item.tags,
      ...(request.withText === true ? { text: s.item.text } : {}),
      snippet: snippetAround(s.item.text, queryWords),
      times: timesOf(s.item),
      status: s.life.status,
      ...lifeOf(life, olderOf),
      ...(turn === undefined ? {} : { turn: { ...turn, neighbours: neighbours.get(s.item.id) ?? [] } }),
      score: s.score,
      label: labelForStatus(label.label, keptPast(s.life) ? 'current' : s.life.status),
      parts: {
        bm25: s.raw ?? null,
        bm25Relative: s.bm25Relative,
        similarity: s.similarity,
        bm25Weight: w,
        fused: s.fused,
        termShare: shares[i] ?? 0,
        confidence: s.item.confidence ?? null,
        confidenceFactor: s.confidenceFactor,
        ageDays: s.ageDays,
        recencyFactor: s.recencyFactor,
        ...(s.recencyBasis === undefined ? {} : { recencyBasis: s.recencyBasis }),
        lifeFactor: s.life.factor,
        ...(s.life.window === undefined ? {} : { window: s.life.window }),
        speakerFactor: s.speakerFactor,
        ...(reported.has(s.item.key) ? { reportedAbout: reportedParts(reported.get(s.item.key) as ReportedTurn) } : {}),
        ...(s.via === undefined ? {} : { via: s.via }),
        ...(olderOf === undefined ? {} : { newerTurn: { id: olderOf.newerId, names: olderOf.own } }),
        ...(lifted.has(s.item.key) ? { newerThan: lifted.get(s.item.key) as string } : {}),
        ...(newer.has(s.item.key) ? { newerValue: newerValueParts(newer.get(s.item.key) as PlacedValue) } : {}),
        ...(nameOnly.ratios.has(s.item.key) && !nameOnly.common.has(s.item.key) ? { nameOnly: true } : {}),
        ...(nameOnly.common.has(s.item.key) ? { saidByOthers: true } : {}),
        ...(valueless?.valueless.has(s.item.key) === true ? { namesNoValue: true } : {}),
        ...(s.item.key === came ? { firstNamed: true } : {}),
        ...(byValue.has(s.item.key) ? { addedForValue: addedForValueParts(byValue.get(s.item.key) as AddedFor) } : {}),
        ...(latest.has(s.item.key) ? { latestWord: latestWordParts(latest.get(s.item.key) as LatestWord) } : {}),
        seedLabel: label.seedLabel,
        ...(label.withheld === undefined ? {} : { withheld: label.withheld }),
        ...(label.evidence === undefined ? {} : { evidence: label.evidence }),
      },
    };
  });
}

/** A ranked candidate as the ordering in time reads and changes it. */
interface RankedTurn {
  item: Recallable;
  score: number;
  life: { status: 'current' | 'superseded' | 'conflict'; factor: number; window?: LifeWindow };
}

/**
 * Of the top `OLDER_TURN_DEFAULTS.window` candidates, each current turn stating a fact of its speaker's (the one the
 * question names, when it names one) that a later candidate turn of theirs likely replaces (core/recall/older-turns)
 * is marked (status `conflict`, its score by `supersededFactor`; not one the later names again saying no change), and
 * the latest of its line goes right above it when it was below; `ranked` is sorted again. Returns the marked ones.
 */
function orderTurnsInTime(
  ranked: RankedTurn[],
  named: ReadonlySet<string>,
  question: string,
  reported: ReadonlyMap<string, ReportedTurn>,
): { older: ReadonlyMap<string, OlderTurn>; lifted: ReadonlyMap<string, string> } {
  const { turns, cands } = currentTurns(ranked, named, reported);
  // A report is another's words: it may be the later word on a fact, never marked older by the speaker's own.
  const top = new Set(
    ranked
      .slice(0, OLDER_TURN_DEFAULTS.window)
      .map((c) => c.item.key)
      .filter((key) => !reported.has(key)),
  );
  const context = turnsOf(ranked);
  const older = olderTurns(cands, top, question, factLines(cands, context), context);
  const lifted = new Map<string, string>();
  if (older.size === 0) return { older, lifted };
  const byKey = new Map(turns.map((c) => [c.item.key, c] as const));
  const latest = (key: string): string => {
    let at = key;
    for (let hop = 0; hop < turns.length && older.has(at); hop += 1) at = (older.get(at) as OlderTurn).newerKey;
    return at;
  };
  // The latest goes right above the best of the versions it follows (a hair above: the tie would fall to the key).
  for (const [key] of older) {
    const was = byKey.get(key) as RankedTurn;
    const last = byKey.get(latest(key));
    if (last !== undefined && last.score <= was.score) {
      last.score = was.score * (1 + 1e-9);
      lifted.set(last.item.key, was.item.id);
    }
  }
  // A turn said again later with no change (`again`) is only listed after the later one, not marked.
  const factor = MEMORY_LIFE_LIMITS.supersededFactor;
  const marked = new Map([...older].filter(([, o]) => o.again !== true));
  for (const [key] of marked) {
    const was = byKey.get(key) as RankedTurn;
    was.score *= factor;
    was.life = { status: 'conflict', factor };
  }
  ranked.sort(byRank);
  return { older: marked, lifted };
}
/**
 * Of the top `OLDER_TURN_DEFAULTS.window` candidates, the current turns of the named speakers (any, when none is
 * named): the newest of a speaker's turns stating values of one kind (core/recall/newest-first; said by `asOf` when
 * given) goes a hair above the best of them; nothing is marked. `ranked` is sorted again. The turns placed, by key.
 */
function newestFirst(
  ranked: RankedTurn[],
  named: ReadonlySet<string>,
  asOf: number | undefined,
  reported: ReadonlyMap<string, ReportedTurn>,
): ReadonlyMap<string, PlacedValue> {
  const { turns, cands } = currentTurns(ranked.slice(0, OLDER_TURN_DEFAULTS.window), named, reported);
  if (turns.length < 2) return NONE;
  const context = turnsOf(ranked);
  const speakers = new Set(context.flatMap((c) => speakerWords(c.speaker)));
  const lefts = new Map<string, Set<string>>();
  const kinds = valueKinds(context, Number.POSITIVE_INFINITY, { speakers, lefts });
  const placed = newestOfKind(cands, kinds, { ...(asOf === undefined ? {} : { asOf }), known: speakers, lefts });
  if (placed.length === 0) return NONE;
  const byKey = new Map(turns.map((c) => [c.item.key, c] as const));
  const out = new Map<string, PlacedValue>();
  for (const p of placed) {
    const last = byKey.get(p.key) as RankedTurn;
    const first = byKey.get(p.placeOf) as RankedTurn;
    const own = last.score;
    if (last.score <= first.score) last.score = first.score * (1 + 1e-9);
    out.set(p.key, { ...p, placeOfId: first.item.id, ...(own === last.score ? {} : { own }) });
  }
  ranked.sort(byRank);
  return out;
}
/** A turn placed first by newestFirst: the turn whose place it took, and its own score when it took that one's. */
type PlacedValue = NewerValue & { placeOfId: string; own?: number };
/** A turn placed first by newestFirst, as its parts say it: at the score of the turn whose place it took. */
const newerValueParts = (p: PlacedValue): { before: string[]; why: string } => ({
  before: p.before,
  why:
    `newer value of the same kind (${p.values.join(', ')}; before: ${p.others.join(', ') || 'the same'}), ` +
    `said ${iso(p.at)}, placed before ${p.before.join(', ')}` +
    (p.own === undefined ? '' : ` at the score of ${p.placeOfId}, its own ${p.own.toFixed(3)}`),
});
/** A latest word (latestWords): the turn it was scored with, and the turn found by the name alone it went above. */
type LatestWord = { anchor: string; above?: string };
const latestWordParts = ({ anchor, above }: LatestWord): { anchor: string; why: string; above?: string } => ({
  anchor,
  ...(above === undefined ? {} : { above }),
  why:
    "the named speaker's latest word on something in the slot asked (it replaced a turn of theirs, nothing " +
    `replaced it); scored with ${anchor} (its fused × ${RECALL_DEFAULTS.sameFactShare} × ` +
    `min(1, ${RECALL_DEFAULTS.latestWordBase} + similarity)) when that is more than its own` +
    (above === undefined ? '' : `, placed a hair above ${above}, their best turn found by their name alone`),
});
/** A turn added for holding a value of the kind asked (valueTurns): its values, the turn it was scored with. */
type AddedFor = { values: string[]; anchor: string };
const addedForValueParts = (a: AddedFor): { values: string[]; anchor: string; why: string } => ({
  ...a,
  why:
    `added: the named speaker's turn holding ${a.values.join(', ')}, a value of the kind the question asks about, ` +
    `matching none of its words; scored with ${a.anchor} (its fused × ${RECALL_DEFAULTS.sameFactShare}) at most`,
});
/**
 * Of the named speakers' current turns in `pool`, the line of facts (factLines) of at least two turns with the highest
 * mean similarity to the question: each of its turns but the best matched, with that one.
 */
function closestLine<T extends { item: Recallable; fused: number; similarity: number; life: { status: string } }>(
  pool: readonly T[],
  named: ReadonlySet<string>,
): Map<string, T> {
  // The current turns, as orderTurnsInTime reads lines: a superseded value is not lifted as one of now.
  const turns = pool.filter((c) => c.life.status === 'current' && named.has(c.item.life?.turn?.speaker as string));
  const lineOf = factLines(
    turns.map((c) => ({ key: c.item.key, speaker: c.item.life?.turn?.speaker as string, text: c.item.text })),
    turnsOf(pool),
  );
  const lines = new Map<string, T[]>();
  for (const c of turns) {
    const line = lineOf.get(c.item.key);
    if (line !== undefined) lines.set(line, [...(lines.get(line) ?? []), c]);
  }
  const mean = (cs: readonly T[]) => cs.reduce((sum, c) => sum + c.similarity, 0) / cs.length;
  let closest: T[] | undefined;
  for (const cs of lines.values())
    if (cs.length >= 2 && (closest === undefined || mean(cs) > mean(closest))) closest = cs;
  const out = new Map<string, T>();
  if (closest === undefined) return out;
  const best = closest.reduce((a, c) => (c.fused > a.fused ? c : a));
  for (const c of closest) if (c !== best) out.set(c.item.key, best);
  return out;
}
/**
 * The first turn of the named speakers stating a fact of theirs that names every name the question asks when it
 * came (none named: of any speaker, only where the candidates hold no other memory than turns); it goes a hair above
 * the best turn and every other memory matching the question less (its fused score), never above one matching it
 * more: a first mention is no arrival. `ranked` is sorted again. Its key, or undefined. No evidence for a label.
 */
function firstCame(
  ranked: (RankedTurn & { fused: number })[],
  named: ReadonlySet<string>,
  question: string,
): string | undefined {
  if (named.size === 0 && ranked.some((c) => c.item.life?.turn === undefined)) return undefined;
  const turns = ranked.flatMap((c) => {
    const speaker = c.item.life?.turn?.speaker;
    return speaker === undefined || (named.size > 0 && !named.has(speaker))
      ? []
      : [{ key: c.item.key, id: c.item.id, speaker, at: c.item.from ?? c.item.at, text: c.item.text }];
  });
  const first = firstNamed(turns, question, [...named].flatMap(speakerWords));
  if (first === undefined) return undefined;
  const it = ranked.find((c) => c.item.key === first.key) as RankedTurn & { fused: number };
  const at = ranked.indexOf(it);
  const above = ranked.findIndex((c) => c.item.life?.turn !== undefined || c.fused <= it.fused);
  // Below every other memory matching more that is above it now.
  const better = ranked.slice(above, at).filter((c) => c.item.life?.turn === undefined && c.fused > it.fused);
  const cap = better.length === 0 ? Number.POSITIVE_INFINITY : (better.at(-1) as RankedTurn).score * (1 - 1e-9);
  if (above >= 0 && above < at)
    it.score = Math.max(it.score, Math.min((ranked[above] as RankedTurn).score * (1 + 1e-9), cap));
  ranked.sort(byRank);
  return first.key;
}
/**
 * The named speakers' turns found by the name alone that name no value (core/recall/name-only withValuelessAtZero),
 * the values read from the candidates' turns (valueKinds, the speakers' names left out), and the matches with those
 * at 0.
 */
function valuelessTurns(
  candidates: readonly string[],
  items: ReadonlyMap<string, Recallable>,
  matches: ReturnType<typeof nameOnlyMatches>,
): ReturnType<typeof withValuelessAtZero> {
  const turns = turnsOf(candidates.flatMap((k2) => (items.has(k2) ? [{ item: items.get(k2) as Recallable }] : [])));
  const speakers = new Set(turns.flatMap((t) => speakerWords(t.speaker)));
  const kinds = valueKinds(turns, Number.POSITIVE_INFINITY, { speakers });
  return withValuelessAtZero(matches, (key) => items.get(key)?.text ?? '', speakers, kinds);
}
/** Every turn of `pool`, any speaker, any life: what lines of facts learn their joining names from (factLines). */
const turnsOf = (pool: readonly { item: Recallable }[]) =>
  pool.flatMap(({ item }) => {
    const speaker = item.life?.turn?.speaker;
    return speaker === undefined ? [] : [{ key: item.key, speaker, text: item.text }];
  });
/** The current turns of `list` said by the named speakers (any, when none is named), and the same as candidates. */
function currentTurns(
  list: readonly RankedTurn[],
  named: ReadonlySet<string>,
  reported: ReadonlyMap<string, ReportedTurn> = NONE,
) {
  // A report of a named speaker's fact (reportedTurns) counts as theirs, read without their name.
  const speakerOf = (c: RankedTurn) => reported.get(c.item.key)?.about ?? c.item.life?.turn?.speaker;
  const turns = list.filter((c) => {
    const speaker = speakerOf(c);
    return speaker !== undefined && c.life.status === 'current' && (named.size === 0 || named.has(speaker));
  });
  const cands = turns.map((c) => ({
    key: c.item.key,
    id: c.item.id,
    speaker: speakerOf(c) as string,
    at: c.item.from ?? c.item.at,
    text: reported.get(c.item.key)?.asOwn ?? c.item.text,
  }));
  return { turns, cands };
}
/** A report's parts: whom it tells about, the names that tie it to them. */
const reportedParts = (r: ReportedTurn): { speaker: string; shared: string[]; why: string } => ({
  speaker: r.about,
  shared: r.shared,
  why:
    `tells ${r.about}'s fact in another's words: names ${r.about} (not addressed, not a reply to them) and ` +
    `${r.shared.join(', ')}, said in a turn of theirs; read as theirs by the ordering in time, never marked older`,
});
/**
 * The turns of `ranked` telling another speaker's fact (core/recall/reported-turns), each turn's speaker just before
 * it in its session read by id (recall/remember turnIdFor) for those that may be one: a reply is no report.
 */
async function reportsAmong(
  ctx: RecallContext,
  index: RecallIndex | undefined,
  ranked: readonly { item: Recallable }[],
): Promise<ReadonlyMap<string, ReportedTurn>> {
  const turns = turnsOf(ranked);
  const maybe = reportedTurns(turns, NONE);
  if (maybe.size === 0) return maybe;
  const before = new Map<string, string>();
  for (const { item } of ranked) {
    const turn = item.life?.turn;
    if (turn !== undefined && turn.index > 0 && maybe.has(item.key))
      before.set(item.key, turnIdFor(turn.session, turn.index - 1));
  }
  const read = await memoryItems(ctx, index, [...before.values()]);
  const speakers = new Map<string, string>();
  for (const [key, id] of before) {
    const speaker = read.get(id)?.life?.turn?.speaker;
    if (speaker !== undefined) speakers.set(key, speaker);
  }
  return reportedTurns(turns, speakers);
}
const NONE: ReadonlyMap<string, never> = new Map<string, never>();
const NONE_NAMED: ReadonlySet<string> = new Set<string>();

const iso = (ms: number): string => new Date(ms).toISOString();
/** A speaker's name as query words (lower case). */
const speakerWords = (speaker: string): string[] => speaker.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/**
 * For each candidate turn addressed to a speaker in `named` by another ("Aiko, how do you like Dublin?"), the turn
 * just before it in its session when that speaker said it (read by id, recall/remember turnIdFor).
 */
async function addressedTurns(
  ctx: RecallContext,
  index: RecallIndex | undefined,
  pool: readonly { item: Recallable }[],
  named: ReadonlySet<string>,
): Promise<Map<string, Recallable>> {
  const lower = new Map([...named].map((n) => [n.toLowerCase(), n] as const));
  const speakers = new Set(lower.keys());
  const before = new Map<string, string>();
  for (const { item } of pool) {
    const turn = item.life?.turn;
    if (turn === undefined || turn.index === 0 || named.has(turn.speaker)) continue;
    const to = addressee(item.text, speakers);
    if (to !== undefined && lower.has(to)) before.set(item.key, turnIdFor(turn.session, turn.index - 1));
  }
  if (before.size === 0) return new Map();
  const read = await memoryItems(ctx, index, [...before.values()]);
  const out = new Map<string, Recallable>();
  for (const [from, id] of before) {
    const said = read.get(id);
    const speaker = said?.life?.turn?.speaker;
    if (said !== undefined && speaker !== undefined && named.has(speaker)) out.set(from, said);
  }
  return out;
}

/** Memories by id: from the index when it holds them, else read (an instinct's or skill's text from its file). */
async function memoryItems(
  ctx: RecallContext,
  index: RecallIndex | undefined,
  ids: readonly string[],
): Promise<Map<string, Recallable>> {
  const read = new Map<string, Recallable>();
  const missing: string[] = [];
  for (const id of new Set(ids)) {
    const held = index?.items?.get(recallKey('memory', id));
    if (held === undefined) missing.push(id);
    else read.set(id, held);
  }
  if (missing.length > 0)
    for (const m of await ctx.store.getMemoriesByIds(ctx.scope, missing))
      read.set(m.id, memoryItem(withLearnedText(index?.root, m)));
  return read;
}

/** Each candidate that replaced memories, with each memory it replaced (one link back), as [its key, that one]. */
async function predecessors(
  ctx: RecallContext,
  index: RecallIndex | undefined,
  pool: readonly { item: Recallable }[],
): Promise<[string, Recallable][]> {
  const wanted = pool.filter((c) => (c.item.life?.supersedes?.length ?? 0) > 0);
  if (wanted.length === 0) return [];
  const read = await memoryItems(
    ctx,
    index,
    wanted.flatMap((c) => c.item.life?.supersedes ?? []),
  );
  return wanted.flatMap((c) =>
    (c.item.life?.supersedes ?? []).flatMap((id) => {
      const was = read.get(id);
      return was === undefined ? [] : [[c.item.key, was] as [string, Recallable]];
    }),
  );
}

/**
 * For each superseded candidate (as of the date asked about, else now), the memory that replaced it at the end of
 * its links of supersession (at most `supersededHops`; one true at the date asked about), read from the index or by
 * id.
 */
async function replacements(
  ctx: RecallContext,
  index: RecallIndex | undefined,
  pool: readonly { item: Recallable; life: { status: string } }[],
  when: { asOf: number } | { now: number },
): Promise<Map<string, Recallable>> {
  const out = new Map<string, Recallable>();
  let at = new Map<string, Recallable>();
  for (const c of pool)
    if (c.life.status === 'superseded' && c.item.life?.supersededBy !== undefined) at.set(c.item.key, c.item);
  for (let hop = 0; hop < RECALL_DEFAULTS.supersededHops && at.size > 0; hop += 1) {
    const read = await memoryItems(
      ctx,
      index,
      [...at.values()].map((i) => i.life?.supersededBy as string),
    );
    const next = new Map<string, Recallable>();
    for (const [from, item] of at) {
      const by = read.get(item.life?.supersededBy as string);
      if (by === undefined || ('asOf' in when && !validAt(by.life, by.from ?? by.at, when.asOf))) continue;
      out.set(from, by);
      if (lifeStatus(by.life, when).status === 'superseded' && by.life?.supersededBy !== undefined) next.set(from, by);
    }
    at = next;
  }
  return out;
}

/**
 * The `named` speakers' latest words in the slot `question` asks about: of their turns the full-text search finds by
 * their names (at most `speakerTurns`), those that replaced a turn and are not replaced, whose slots (slotsOf, with a
 * change's phrases) meet the question's, or which have none when it asks none or when none of them meets it; newest
 * first (the caller keeps the `latestWords` closest in meaning).
 */
async function latestWords(
  ctx: RecallContext,
  search: FullTextSearch,
  question: string,
  named: ReadonlySet<string>,
): Promise<[string, Recallable][]> {
  const fts = buildFtsQuery([...named].flatMap(speakerWords).join(' '));
  if (fts === undefined) return [];
  const asks = slotsOf(question);
  const inSlot = (text: string) => {
    const slots = slotsOf(text, true);
    return slots.size === 0 ? asks.size === 0 : [...slots].some((x) => asks.has(x));
  };
  const heads = (await search.searchMemories(ctx.scope, fts.match, { limit: RECALL_DEFAULTS.speakerTurns }))
    .map((h) => memoryItem(h.memory))
    .filter(
      (i) =>
        named.has(i.life?.turn?.speaker as string) &&
        (i.life?.supersedes?.length ?? 0) > 0 &&
        lifeStatus(i.life, { now: ctx.now }).status === 'current',
    );
  // None naming the slot asked: a change may name no slot ("took the Acme offer"), those naming none are read.
  const asked = heads.filter((i) => inSlot(i.text));
  return (asked.length > 0 || asks.size === 0 ? asked : heads.filter((i) => slotsOf(i.text, true).size === 0))
    .sort((a, b) => b.at - a.at)
    .map((i) => [i.key, i]);
}

/** A turn's time is when it was said (first remembered, when it gave none), as its neighbours'; a note's its last. */
function timesOf(item: Recallable): RecallTimes {
  const life = item.life;
  return {
    at: iso(life?.turn === undefined ? item.at : (item.from ?? item.at)),
    ...(life?.validFrom === undefined ? {} : { validFrom: iso(life.validFrom) }),
    ...(life?.validTo === undefined ? {} : { validTo: iso(life.validTo) }),
  };
}

/** A result's links and why: its memory's life, and a later turn it is likely an older version of (this question). */
function lifeOf(life: MemoryLife | undefined, olderOf: OlderTurn | undefined): Pick<RecallResult, 'life'> {
  const links = life === undefined ? {} : linksOf(life);
  if (olderOf !== undefined)
    return {
      life: {
        ...links,
        conflictsWith: [...(links.conflictsWith ?? []), olderOf.newerId],
        why: links.why === undefined ? olderOf.why : `${links.why}; ${olderOf.why}`,
      },
    };
  return Object.keys(links).length === 0 ? {} : { life: links };
}

function linksOf(life: MemoryLife): NonNullable<RecallResult['life']> {
  const { supersededBy, supersedes, conflictsWith, why, seen, sources } = life;
  return Object.fromEntries(
    Object.entries({ supersededBy, supersedes, conflictsWith, why, seen, sources }).filter(([, v]) => v !== undefined),
  );
}

/** The turns just before and after each recalled turn in its session, read by id (recall/remember turnIdFor). */
async function turnNeighbours(
  ctx: RecallContext,
  items: readonly Recallable[],
): Promise<Map<string, RecallNeighbour[]>> {
  const turns = items.filter((i) => i.life?.turn !== undefined);
  if (turns.length === 0) return new Map();
  const wanted = new Map<string, { of: string; index: number }[]>();
  for (const item of turns) {
    const turn = item.life?.turn as NonNullable<MemoryLife['turn']>;
    for (const index of [turn.index - 1, turn.index + 1])
      if (index >= 0) {
        const id = turnIdFor(turn.session, index);
        wanted.set(id, [...(wanted.get(id) ?? []), { of: item.id, index }]);
      }
  }
  const found = await ctx.store.getMemoriesByIds(ctx.scope, [...wanted.keys()]);
  const out = new Map<string, RecallNeighbour[]>();
  for (const m of found)
    for (const { of } of wanted.get(m.id) ?? []) {
      const turn = m.life?.turn;
      if (turn === undefined) continue;
      const list = out.get(of) ?? [];
      list.push({
        id: m.id,
        speaker: turn.speaker,
        index: turn.index,
        at: iso(m.life?.validFrom ?? m.updatedAt),
        text: m.text,
      });
      out.set(
        of,
        list.sort((a, b) => a.index - b.index),
      );
    }
  return out;
}

/**
 * The recallable items of `keys`, read by id (the FTS hits already hold their memories and observations); an
 * instinct's or skill's text from its file inside `root`, as a full index reads it.
 */
async function candidateItems(
  ctx: RecallContext,
  root: string | undefined,
  keys: readonly string[],
  hits: { memories: readonly MemoryRecord[]; observations: readonly ObservationRecord[] },
): Promise<Map<string, Recallable>> {
  const wanted = { memory: [] as string[], observation: [] as string[], execution: [] as string[] };
  const memories = new Map(hits.memories.map((m) => [m.id, m]));
  const observations = new Map(hits.observations.map((o) => [o.id, o]));
  for (const k2 of keys) {
    const at = k2.indexOf(':');
    const kind = k2.slice(0, at);
    const id = k2.slice(at + 1);
    if (kind === 'observation') {
      if (!observations.has(id)) wanted.observation.push(id);
    } else if (kind === 'execution') wanted.execution.push(id);
    else if (!memories.has(id)) wanted.memory.push(id);
  }
  const [moreMemories, moreObservations, executions] = await Promise.all([
    ctx.store.getMemoriesByIds(ctx.scope, wanted.memory),
    ctx.store.getObservationsByIds(ctx.scope, wanted.observation),
    ctx.store.getExecutionsByIds(ctx.scope, wanted.execution, { calls: false }),
  ]);
  const items = [
    ...[...memories.values(), ...moreMemories].map((m) => memoryItem(withLearnedText(root, m))),
    ...[...observations.values(), ...moreObservations].map(observationItem),
    ...executions.map(executionItem),
  ];
  return new Map(items.map((i) => [i.key, i]));
}

/** A memory with the text of its instinct's or skill's file inside `root`, when it has one there. */
export function withLearnedText(root: string | undefined, m: MemoryRecord): MemoryRecord {
  if (root === undefined || m.path === undefined || (m.category !== 'instinct' && m.category !== 'skill')) return m;
  try {
    return { ...m, text: learnedFileText(scrubText(readFileInsideRoot(root, m.path)).text) };
  } catch {
    return m;
  }
}

/** A stable id for a memory added without one: the hash of its title and text. */
export function memoryIdFor(title: string, text: string): string {
  // node:crypto when first needed: the prompt hook, which never names a memory, never loads it.
  const { createHash } = process.getBuiltinModule('node:crypto');
  return `mem-${createHash('sha256').update(`${title}\n${text}`).digest('hex').slice(0, 16)}`;
}

/** The id of a conversation's turn: its session and place there, so that its neighbours are found by id. */
export function turnIdFor(session: string, index: number): string {
  const { createHash } = process.getBuiltinModule('node:crypto');
  return `turn-${createHash('sha256').update(session).digest('hex').slice(0, 12)}-${index}`;
}
