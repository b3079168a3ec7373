/**
 * @module engine/recall/remember
 * `remember` (issue 23): memories and a conversation's turns stored with their life. A memory written again (the
 * same id, or near-identical to one the full-text search finds) merges into the existing row (seen + 1, last seen,
 * sources) instead of making a second; a later memory about the same subject with a change cue marks the older one
 * superseded (kept, linked, valid until the newer one's time), the same title saying otherwise without a cue makes
 * both a conflict (core/recall/memory-life, each with why); `supersedes` says so outright. A large batch asks a term
 * index of the scope (core/recall/life-index) first: a memory it names nothing for skips its search, same decisions.
 */
import { CredenceError } from '../../core/errors.js';
import { requireWithinLimit } from '../../core/limits.js';
import { LifeIndex } from '../../core/recall/life-index.js';
import { heldIn } from '../../core/recall/older-turns.js';
import {
  changeCue,
  contentWords,
  decideLife,
  leftValues,
  LIFE_SLOTS,
  namesIn,
  slotsOf,
  type LifeSubject,
  words,
} from '../../core/recall/memory-life.js';
import { scrubText } from '../../core/security/scrub.js';
import { buildFtsQuery } from '../../core/text/fts-query.js';
import { isBlankText } from '../../core/text/plain-text.js';
import { aheadOfClockReason } from '../../core/time.js';
import type { MemoryLife } from '../../core/types.js';
import { normalizeMemoryPath, readFileInsideRoot } from '../../platform/files.js';
import { formatIssues, MemoryInputSchema, type MemoryInput } from '../../schemas/index.js';
import { whenMs } from '../../schemas/memory.js';
import type { MemoryHit, MemoryRecord, MemoryStore, RevisionStore } from '../../store/types.js';
import { memoryIdFor, turnIdFor } from './recall.js';
import { PLAIN_ISSUES } from '../../schemas/format.js';

/** How many full-text hits a new memory is compared with. @default 8 */
export const REMEMBER_CANDIDATES = 8;
/** How many of its content words a new memory searches for them with. @default 12 */
export const REMEMBER_QUERY_WORDS = 12;
/**
 * How many hits the second search of a turn with a change cue brings: its speaker's turns holding a word of its
 * slots or the value it says it left (core/recall/memory-life), which may share no word with it. @default 32
 */
export const REMEMBER_TURN_CANDIDATES = 32;
/**
 * A file of turns whose places are taken may be a stored part sent again: how many of the session's last places are
 * read to find it, back from its highest (a copy further back is not found: its turns go after the session).
 * @default 5000
 */
export const COPY_WINDOW = 5_000;
/**
 * How many of the offsets the window's turns vote for are read in full, most votes first (each read stops at its
 * first place holding another turn; a bound for a file of many repeated short lines). @default 1000
 */
export const COPY_TRIES = 1000;
/**
 * From this many memories in one call, the scope's memories are read once into a term index (core/recall/life-index)
 * and a memory none of them could be decided with skips its full-text search. At 100k memories the read and the
 * index cost ~1.9 s of CPU, what ~130 searches there do; a batch below this pays its searches. @default 200
 */
export const REMEMBER_INDEX_BATCH = 200;
/** How many places of a session a call's turns name are read by id at once. @default 500 */
export const TURN_PLACES_READ = 500;

export interface RememberContext {
  store: MemoryStore & Pick<RevisionStore, 'getMemoriesByIds'>;
  scope: string;
  root: string;
  now: number;
  /** What messages call the clock `now` was read from (core/time MACHINE_CLOCK when not given). */
  clockName?: string;
}

export interface RememberReport {
  ids: string[];
  inserted: number;
  updated: number;
  /** Memories merged into an existing one (its id in `ids`). */
  merged: number;
  /** Older memories this call marked superseded, by which and why. */
  superseded: { id: string; by: string; why: string }[];
  /** Pairs this call marked in conflict, and why. */
  conflicts: { id: string; with: string; why: string }[];
}

const KEPT_CATEGORIES = new Set(['instinct', 'skill']);
/** Errors of one input (told by its position when the caller asks, the rest still remembered); others end the call. */
const ITEM_ERRORS: ReadonlySet<string> = new Set([
  'INVALID_INPUT',
  'INPUT_TOO_LARGE',
  'NOT_FOUND',
  'PATH_OUTSIDE_ROOT',
]);
const subjectOf = (m: MemoryRecord): LifeSubject => ({
  id: m.id,
  title: m.title,
  text: m.text,
  tags: m.tags,
  ...(m.path === undefined ? {} : { path: m.path }),
  ...(m.life?.turn === undefined ? {} : { speaker: m.life.turn.speaker }),
  at: m.life?.validFrom ?? m.createdAt,
});
/** When a memory said again was last seen: the repeat's time (its validFrom, else now), never earlier than before. */
const seenAgain = (existing: MemoryRecord, repeat: MemoryRecord, now: number): number =>
  Math.max(existing.life?.lastSeen ?? 0, repeat.life?.validFrom ?? now);
const union = (a: readonly string[] | undefined, b: readonly string[] | undefined): string[] | undefined => {
  const all = [...new Set([...(a ?? []), ...(b ?? [])])];
  return all.length === 0 ? undefined : all;
};
const withLife = (m: MemoryRecord, life: MemoryLife): MemoryRecord => {
  const clean = Object.fromEntries(Object.entries(life).filter(([, v]) => v !== undefined)) as MemoryLife;
  const { life: _old, ...rest } = m;
  return Object.keys(clean).length === 0 ? rest : { ...rest, life: clean };
};

/**
 * The text of a memory given by its file: UTF-8 text (bytes that are not are refused, not read as U+FFFD), without
 * NUL bytes, within the memory text's limit as a text given inline is.
 */
function fileText(root: string, path: string): string {
  const text = readFileInsideRoot(root, path, { strictUtf8: true });
  requireWithinLimit(`the text of ${path}`, text, 'memoryText');
  if (text.includes('\u0000'))
    throw new CredenceError('INVALID_INPUT', `${path} is not a text file (it holds NUL bytes): remember a text file`);
  // As a text given inline: blank, it would be recalled as an empty line.
  if (isBlankText(text))
    throw new CredenceError('INVALID_INPUT', `${path} is blank (nothing in it shows): remember a file with text`);
  return text;
}

/** The times of a memory or a turn, by field: when it became true (`validFrom`, a turn's `at`), when it stopped. */
const MEMORY_TIMES = ['validFrom', 'validTo', 'at'] as const;
/**
 * Why a time ahead of the clock is refused, by field: a start (`validFrom`, a turn's `at`) would make the memory the
 * newest word on its subject; an end (`validTo`) is when it stopped being true, which has not happened yet.
 */
const AHEAD_HARM: Readonly<Record<(typeof MEMORY_TIMES)[number], string>> = Object.freeze({
  validFrom:
    'a memory dated ahead of the clock would be taken as the newest word on its subject and replace the one true now',
  at: 'a turn dated ahead of the clock would be taken as the newest word on its subject and replace the one true now',
  validTo:
    'validTo is when the memory stopped being true, not a date it is planned to end: a memory still true has none ' +
    '(remember what replaces it when that happens, and it is marked superseded then)',
});

/**
 * A checked input as a record (scrubbed, its path inside the root, its turn's id from session and place). A time of
 * it more than a day after the clock it is given (`ctx.now`, aheadOfClockReason) is refused, INVALID_INPUT naming the
 * field, on every surface alike: a mistyped year would make it the newest word and supersede the present one, and
 * `validFrom` is when it became true, not a plan.
 */
function recordOf(ctx: RememberContext, raw: MemoryInput, turnIndex: (session: string) => number): MemoryRecord {
  const parsed = MemoryInputSchema.safeParse(raw, PLAIN_ISSUES);
  if (!parsed.success) throw new CredenceError('INVALID_INPUT', `invalid memory: ${formatIssues(parsed.error)}`);
  const m = parsed.data;
  const path = m.path === undefined ? undefined : normalizeMemoryPath(ctx.root, m.path);
  // Scrubbed before an id is derived or reported: not even a hash of a secret is kept.
  const text = scrubText(m.text ?? fileText(ctx.root, path as string)).text;
  const speaker = m.speaker === undefined ? undefined : scrubText(m.speaker).text;
  const title = scrubText(m.title ?? (speaker as string)).text;
  const session = m.session === undefined ? undefined : scrubText(m.session).text;
  const turn =
    speaker === undefined || session === undefined
      ? undefined
      : { speaker, session, index: m.index ?? turnIndex(session) };
  const source = m.source === undefined ? undefined : scrubText(m.source).text;
  for (const field of MEMORY_TIMES) {
    const time = m[field];
    const ahead = time === undefined ? undefined : aheadOfClockReason(time, ctx.now, AHEAD_HARM[field], ctx.clockName);
    if (ahead !== undefined) throw new CredenceError('INVALID_INPUT', `invalid memory: ${field}: ${ahead}`);
  }
  const from = m.validFrom ?? m.at;
  const life: MemoryLife = {
    ...(from === undefined ? {} : { validFrom: whenMs(from) }),
    ...(m.validTo === undefined ? {} : { validTo: whenMs(m.validTo) }),
    ...(source === undefined ? {} : { sources: [source] }),
    ...(turn === undefined ? {} : { turn }),
  };
  const id =
    m.id !== undefined
      ? scrubText(m.id).text
      : turn === undefined
        ? memoryIdFor(title, text)
        : turnIdFor(turn.session, turn.index);
  return withLife(
    {
      id,
      category: m.category ?? (turn === undefined ? 'note' : 'turn'),
      title,
      text,
      tags: m.tags ?? [],
      ...(path === undefined ? {} : { path }),
      createdAt: ctx.now,
      updatedAt: ctx.now,
    },
    life,
  );
}

/**
 * Remembers `inputs` in order (a later one sees the earlier ones), merging, superseding and marking conflicts. With
 * `rejected`, an input that is wrong (INVALID_INPUT) is reported by its position and the others are remembered.
 */
export async function rememberMemories(
  ctx: RememberContext,
  inputs: readonly MemoryInput[],
  options: { rejected?: (position: number, error: Error) => void } = {},
): Promise<RememberReport> {
  const report: RememberReport = { ids: [], inserted: 0, updated: 0, merged: 0, superseded: [], conflicts: [] };
  const writes = new Writes(ctx, inputs.length >= REMEMBER_INDEX_BATCH ? await lifeIndexOf(ctx) : undefined);
  const places = new TurnPlaces(ctx, writes);
  const planned = await places.plan(inputs);
  // The names a turn may address ("Tomas, …"): the speakers of the turns remembered together.
  const speakers = new Set(
    inputs.flatMap((m) => (isObject(m) && typeof m.speaker === 'string' ? words(m.speaker) : [])),
  );
  try {
    for (const [position, raw] of inputs.entries()) {
      try {
        const record = planned.get(position) ?? recordOf(ctx, raw, () => 0);
        const placed = raw.id === undefined ? await places.placed(record) : record;
        const supersedes = raw.supersedes === undefined ? undefined : scrubText(raw.supersedes).text;
        const free = { category: raw.category === undefined, tags: raw.tags === undefined };
        await rememberOne(ctx, placed, { supersedes, ownId: raw.id !== undefined, writes, speakers, free }, report);
      } catch (error) {
        if (options.rejected === undefined || !(error instanceof CredenceError) || !ITEM_ERRORS.has(error.code))
          throw error;
        options.rejected(position, error);
      }
    }
  } finally {
    await writes.flush();
  }
  return report;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A call's reads and writes of memories. With a term index (a batch): the writes wait, in order, until a search
 * or the call's end (one transaction for the memories no search needed), a read by id sees them, and the index
 * takes each; without one, each write is made at once.
 */
class Writes {
  readonly #pending: MemoryRecord[] = [];
  readonly #byId = new Map<string, MemoryRecord>();
  readonly ctx: RememberContext;
  readonly index: LifeIndex | undefined;
  constructor(ctx: RememberContext, index: LifeIndex | undefined) {
    this.ctx = ctx;
    this.index = index;
  }

  async get(id: string): Promise<MemoryRecord | undefined> {
    return this.#byId.get(id) ?? (await this.ctx.store.getMemory(this.ctx.scope, id));
  }

  async getMany(ids: readonly string[]): Promise<MemoryRecord[]> {
    const mine = ids.flatMap((id) => this.#byId.get(id) ?? []);
    const rest = ids.filter((id) => !this.#byId.has(id));
    return [...mine, ...(await this.ctx.store.getMemoriesByIds(this.ctx.scope, rest))];
  }

  async write(memories: readonly MemoryRecord[]): Promise<void> {
    if (this.index === undefined) {
      await this.ctx.store.upsertMemories(this.ctx.scope, memories);
      return;
    }
    for (const m of memories) {
      this.#pending.push(m);
      this.#byId.set(m.id, m);
      if (!KEPT_CATEGORIES.has(String(m.category))) this.index.add(subjectOf(m));
    }
  }

  async search(match: string, limit = REMEMBER_CANDIDATES): Promise<MemoryHit[]> {
    await this.flush();
    return this.ctx.store.searchMemories(this.ctx.scope, match, { limit });
  }

  async flush(): Promise<void> {
    if (this.#pending.length === 0) return;
    const memories = this.#pending.splice(0);
    this.#byId.clear();
    await this.ctx.store.upsertMemories(this.ctx.scope, memories);
  }
}

/** The same turn: its speaker and words, and its time where both have one. */
const sameTurn = (a: MemoryRecord, b: MemoryRecord): boolean =>
  a.life?.turn !== undefined &&
  a.life.turn.speaker === b.life?.turn?.speaker &&
  a.text === b.text &&
  (a.life.validFrom === undefined || b.life.validFrom === undefined || a.life.validFrom === b.life.validFrom);

/** `record`, a turn, at place `index` of its session (its id is its session and place). */
const movedTo = (record: MemoryRecord, index: number): MemoryRecord => {
  const turn = record.life?.turn as NonNullable<MemoryLife['turn']>;
  return withLife({ ...record, id: turnIdFor(turn.session, index) }, { ...record.life, turn: { ...turn, index } });
};

/**
 * Where a call's turns (those without an id of their own) go. Each names a place of its session: the index it
 * gives, else the one after the call's previous turn of that session (from 0). Per session, when every named place
 * that is taken holds the same turn (speaker, words, and time where both have one), the turns are a re-send or a
 * continuation and keep their places (a re-sent one merges there). Otherwise the call's turns of that session are
 * another part of it: a stored part sent again merges where it is (#storedAt), anything else (a second file, a late
 * turn) goes as one block after the session's highest stored place, in their order (one offset, one store read). A
 * place this call already filled holds another line of the call: the turn naming it goes after the highest place of
 * the session so far. Recall reads neighbours by id, holes allowed.
 */
class TurnPlaces {
  readonly #ctx: RememberContext;
  readonly #writes: Writes;
  /** Per session: the highest place stored before the call (read once), and the highest the call filled. */
  readonly #stored = new Map<string, number | undefined>();
  readonly #highest = new Map<string, number>();
  /** The ids of the turns this call placed. */
  readonly #filled = new Set<string>();
  /** The places the plan read (undefined: empty), so that placing a turn does not read its place again. */
  readonly #read = new Map<string, MemoryRecord | undefined>();
  constructor(ctx: RememberContext, writes: Writes) {
    this.#ctx = ctx;
    this.#writes = writes;
  }

  /** The inputs' records by position (a wrong one left out), the turns without an id at their places. */
  async plan(inputs: readonly MemoryInput[]): Promise<Map<number, MemoryRecord>> {
    const next = new Map<string, number>();
    const out = new Map<number, MemoryRecord>();
    const bySession = new Map<string, { position: number; record: MemoryRecord }[]>();
    for (const [position, raw] of inputs.entries()) {
      let record: MemoryRecord;
      try {
        record = recordOf(this.#ctx, raw, (session) => next.get(session) ?? 0);
      } catch {
        continue; // told by the call's loop, which reads it again
      }
      out.set(position, record);
      const turn = record.life?.turn;
      if (turn === undefined) continue;
      next.set(turn.session, turn.index + 1);
      if (raw.id !== undefined) continue;
      const batch = bySession.get(turn.session);
      if (batch === undefined) bySession.set(turn.session, [{ position, record }]);
      else batch.push({ position, record });
    }
    for (const [session, turns] of bySession) {
      const ids = turns.map((t) => t.record.id);
      const stored = new Map<string, MemoryRecord>();
      for (let from = 0; from < ids.length; from += TURN_PLACES_READ)
        for (const m of await this.#writes.getMany(ids.slice(from, from + TURN_PLACES_READ))) stored.set(m.id, m);
      for (const id of ids) this.#read.set(id, stored.get(id));
      const resent = turns.every(({ record }) => {
        const there = stored.get(record.id);
        return there === undefined || sameTurn(there, record);
      });
      const first = turns.reduce((low, t) => Math.min(low, t.record.life?.turn?.index ?? 0), Infinity);
      const offset = resent
        ? 0
        : ((await this.#storedAt(session, turns)) ?? ((await this.#highestOf(session)) ?? -1) + 1 - first);
      for (const { position, record } of turns)
        out.set(position, offset === 0 ? record : movedTo(record, (record.life?.turn?.index ?? 0) + offset));
    }
    return out;
  }

  /**
   * The offset at which the session already holds these turns in their order (a part sent again, or a longer copy of
   * it while it is the session's last), or undefined. The session's last COPY_WINDOW places are read (a part at a
   * time, by id: no search, so no cap and no words needed); each stored place saying one of the turns (speaker,
   * words, time where both have one) votes for an offset, and up to COPY_TRIES offsets are read in full, most votes
   * first: a copy holds at least two of the turns, names no place below 0, and every other place it names is empty.
   * Two or more lines in the same order with no time are not told apart from the same lines said again: they merge.
   */
  async #storedAt(session: string, turns: readonly { record: MemoryRecord }[]): Promise<number | undefined> {
    if (turns.length < 2) return undefined;
    const highest = await this.#highestOf(session);
    if (highest === undefined) return undefined;
    const at = (r: MemoryRecord): number => r.life?.turn?.index ?? 0;
    const key = (r: MemoryRecord): string => `${r.life?.turn?.speaker}\n${r.text}`;
    const wanted = new Map<string, MemoryRecord[]>();
    for (const { record } of turns) {
      const same = wanted.get(key(record));
      if (same === undefined) wanted.set(key(record), [record]);
      else same.push(record);
    }
    const votes = new Map<number, number>();
    const from = Math.max(0, highest - COPY_WINDOW + 1);
    for (let first = from; first <= highest; first += TURN_PLACES_READ) {
      const ids = [];
      for (let p = first; p <= Math.min(highest, first + TURN_PLACES_READ - 1); p += 1) ids.push(turnIdFor(session, p));
      for (const m of await this.#writes.getMany(ids)) {
        if (m.life?.turn?.session !== session) continue;
        for (const r of wanted.get(key(m)) ?? [])
          if (sameTurn(m, r)) votes.set(at(m) - at(r), (votes.get(at(m) - at(r)) ?? 0) + 1);
      }
    }
    const lowest = turns.reduce((low, t) => Math.min(low, at(t.record)), Infinity);
    const offsets = [...votes]
      .filter(([offset, n]) => n >= 2 && offset !== 0 && lowest + offset >= 0)
      .sort((a, b) => b[1] - a[1] || b[0] - a[0]);
    for (const [offset] of offsets.slice(0, COPY_TRIES)) if (await this.#heldAt(session, turns, offset)) return offset;
    return undefined;
  }

  /**
   * Whether the session holds `turns` at `offset`: at least two of them, and every other place they name empty, read
   * by id (never taken from the window: a place outside it may hold a turn). The places read are kept for placing.
   */
  async #heldAt(session: string, turns: readonly { record: MemoryRecord }[], offset: number): Promise<boolean> {
    const ids = turns.map((t) => turnIdFor(session, (t.record.life?.turn?.index ?? 0) + offset));
    const stored = new Map<string, MemoryRecord>();
    let held = 0;
    for (let from = 0; from < ids.length && held >= 0; from += TURN_PLACES_READ) {
      for (const m of await this.#writes.getMany(ids.slice(from, from + TURN_PLACES_READ))) stored.set(m.id, m);
      for (let i = from; i < Math.min(ids.length, from + TURN_PLACES_READ) && held >= 0; i += 1) {
        const there = stored.get(ids[i] as string);
        if (there !== undefined) held = sameTurn(there, (turns[i] as { record: MemoryRecord }).record) ? held + 1 : -1;
      }
    }
    if (held < 2) return false;
    for (const id of ids) this.#read.set(id, stored.get(id));
    return true;
  }

  /** `record` where it goes: its place, unless this call filled it (or another turn holds it): then after the last. */
  async placed(record: MemoryRecord): Promise<MemoryRecord> {
    const turn = record.life?.turn;
    if (turn === undefined) return record;
    const there = this.#filled.has(record.id)
      ? undefined
      : this.#read.has(record.id)
        ? this.#read.get(record.id)
        : await this.#writes.get(record.id);
    const free = !this.#filled.has(record.id) && (there === undefined || sameTurn(there, record));
    const at = free ? record : movedTo(record, ((await this.#highestOf(turn.session)) ?? -1) + 1);
    const index = at.life?.turn?.index ?? 0;
    this.#filled.add(at.id);
    this.#highest.set(turn.session, Math.max(index, this.#highest.get(turn.session) ?? -1));
    return at;
  }

  /** The session's highest place, stored or filled by this call (the store read once per session). */
  async #highestOf(session: string): Promise<number | undefined> {
    if (!this.#stored.has(session)) {
      const prefix = turnIdFor(session, 0).slice(0, -1);
      this.#stored.set(session, await this.#ctx.store.highestIdNumber(this.#ctx.scope, prefix));
    }
    const stored = this.#stored.get(session);
    const filled = this.#highest.get(session);
    return stored === undefined ? filled : Math.max(stored, filled ?? -1);
  }
}

/** The scope's memories that decisions look at (not instincts or skills), in a term index. */
async function lifeIndexOf(ctx: RememberContext): Promise<LifeIndex> {
  const index = new LifeIndex();
  for (const m of await ctx.store.listMemories(ctx.scope))
    if (!KEPT_CATEGORIES.has(String(m.category))) index.add(subjectOf(m));
  return index;
}

async function rememberOne(
  ctx: RememberContext,
  record: MemoryRecord,
  options: {
    supersedes: string | undefined;
    ownId: boolean;
    writes: Writes;
    speakers: ReadonlySet<string>;
    /** The category, the tags the caller did not give (a replacing note takes the replaced one's). */
    free: { category: boolean; tags: boolean };
  },
  report: RememberReport,
): Promise<void> {
  const { supersedes, ownId, writes, speakers, free } = options;
  const write = (memories: MemoryRecord[]): Promise<void> => writes.write(memories);
  const existing = await writes.get(record.id);
  // When the repeat was said (a note said again after its fact was replaced is the newest word: walk 15, item 7).
  const said = record.life?.validFrom ?? ctx.now;
  const restating = record.life?.turn === undefined && !ownId && supersedes === undefined;
  let restated: { older: MemoryRecord; over: MemoryRecord } | undefined;
  const again = existing?.title === record.title && existing?.text === record.text;
  const over = existing !== undefined && again && restating ? await restatedOver(writes, existing, said) : undefined;
  if (over !== undefined && repeats(record, over, speakers)) {
    await writes.write([repeated(over, record, ctx.now, await startOf(writes, over, record))]);
    report.ids.push(over.id);
    report.updated += 1;
    report.merged += 1;
    return;
  }
  if (existing !== undefined && over !== undefined) {
    // Said again after what replaced it: a memory of its own (its id from its time), superseding what holds now.
    restated = { older: existing, over };
  } else if (existing !== undefined) {
    // The same id again: the same memory remembered once more, or (another text under an id of one's own) updated.
    // Said again, it keeps when it became true (its first validFrom, its writing, or the repeat's when earlier) and
    // counts the repeat as last seen.
    const from = again ? await startOf(writes, existing, record) : record.life?.validFrom;
    const life: MemoryLife = {
      ...existing.life,
      ...(from === undefined ? {} : { validFrom: from }),
      ...(record.life?.turn === undefined ? {} : { turn: record.life.turn }),
      sources: union(existing.life?.sources, record.life?.sources),
      ...(again ? { seen: (existing.life?.seen ?? 1) + 1, lastSeen: seenAgain(existing, record, ctx.now) } : {}),
    };
    const written = again ? { updatedAt: existing.updatedAt } : {};
    await write([withLife({ ...record, createdAt: existing.createdAt, ...written }, life)]);
    report.ids.push(record.id);
    report.updated += 1;
    if (again) report.merged += 1;
    return;
  }
  const changed = new Map<string, MemoryRecord>();
  let mine =
    restated === undefined
      ? record
      : { ...record, id: memoryIdFor(record.title, `${record.text}\n${new Date(said).toISOString()}`) };
  // The first memory this one replaces: a note that gave no category or no tags takes that one's (after the
  // decisions, which read its own).
  let heir: { older: MemoryRecord; entry: { why: string } } | undefined;
  const latest = async (id: string): Promise<MemoryRecord | undefined> => changed.get(id) ?? (await writes.get(id));
  // A memory superseded is no longer current: a conflict it was in is settled (its side keeps the link, the history
  // that forget reads to bring the conflict back; the other side drops it, current again when it has no other).
  const mark = async (stale: MemoryRecord, by: MemoryRecord, reason: string): Promise<void> => {
    const older = changed.get(stale.id) ?? stale;
    const settled: string[] = [];
    for (const id of older.life?.conflictsWith ?? []) {
      const other = id === by.id ? undefined : await latest(id);
      if (other === undefined) continue;
      changed.set(other.id, withoutConflict(other, older.id));
      settled.push(other.id);
    }
    const why = settled.length === 0 ? reason : `${reason}; settles its conflict with ${settled.join(', ')}`;
    changed.set(
      older.id,
      withLife(older, {
        ...older.life,
        status: 'superseded',
        validTo: by.life?.validFrom ?? by.createdAt,
        supersededBy: by.id,
        why,
      }),
    );
    report.superseded.push({ id: older.id, by: by.id, why });
    if (heir === undefined && by === mine) heir = { older, entry: report.superseded.at(-1) as { why: string } };
  };
  // The memory `--supersedes` names, or (when already replaced) the current end of its replacements.
  let replaced: string | undefined;
  if (supersedes !== undefined) {
    const named = await writes.get(supersedes);
    if (named === undefined)
      throw new CredenceError('INVALID_INPUT', `supersedes: no memory ${JSON.stringify(supersedes)} in this scope`);
    const { end, through } = await currentEnd(writes, named, subjectOf(mine).at);
    // A memory true from before the one it replaces began would end that one before it began (walk 16, item 7).
    const endFrom = subjectOf(end).at;
    const mineFrom = subjectOf(mine).at;
    if (mineFrom < endFrom)
      throw new CredenceError(
        'INVALID_INPUT',
        `supersedes: ${end.id} became true on ${iso(endFrom)}, after this memory's time (${iso(mineFrom)}): ` +
          `a memory cannot replace one that began after it; nothing is changed; give a time from ${iso(endFrom)} on`,
      );
    replaced = end.id;
    const as = `${mine.id} supersedes it, as remembered`;
    await mark(end, mine, through.length === 0 ? as : `${as} (${named.id} named, already superseded by ${through})`);
    mine = withLife(mine, { ...mine.life, supersedes: [end.id] });
  }
  // The candidates: the title's and the first content words of the text (a long text's every word made the search
  // score most of the table, ~0.5 ms a memory at 4k); a repeat or a replacement shares them.
  const words = [...contentWords(`${mine.life?.turn === undefined ? mine.title : ''} ${mine.text}`)];
  const query = buildFtsQuery(words.slice(0, REMEMBER_QUERY_WORDS).join(' '));
  // None the index names could be decided with: no hit of the search could be either (the same decisions, no search).
  const decidable = writes.index?.anyDecision(subjectOf(mine)) !== false;
  const hits = query === undefined || !decidable ? [] : await writes.search(query.match);
  const byTurn = decidable ? turnQuery(mine) : undefined;
  if (byTurn !== undefined) {
    const found = new Set(hits.map((h) => h.memory.id));
    for (const h of await writes.search(byTurn, REMEMBER_TURN_CANDIDATES)) if (!found.has(h.memory.id)) hits.push(h);
  }
  // A note written alike to one whose fact was replaced before it: the newest word too (or a repeat of what holds).
  for (const { memory: candidate } of restating && restated === undefined ? hits : []) {
    if (KEPT_CATEGORIES.has(String(candidate.category)) || !repeats(mine, candidate, speakers)) continue;
    const holding = await restatedOver(writes, candidate, said);
    if (holding === undefined) continue;
    if (repeats(mine, holding, speakers)) {
      await writes.write([repeated(holding, mine, ctx.now, await startOf(writes, holding, mine))]);
      report.ids.push(holding.id);
      report.updated += 1;
      report.merged += 1;
      return;
    }
    restated = { older: candidate, over: holding };
    break;
  }
  if (restated !== undefined) {
    const { older, over: holding } = restated;
    await mark(
      holding,
      mine,
      `${mine.id} says again what ${older.id} said before ${holding.id} replaced it: the newest word`,
    );
    mine = withLife(mine, { ...mine.life, supersedes: [holding.id] });
  }
  for (const hit of hits) {
    // As this call left it (a conflict a supersession settled is settled).
    const candidate = changed.get(hit.memory.id) ?? hit.memory;
    if (KEPT_CATEGORIES.has(String(candidate.category)) || candidate.id === supersedes || candidate.id === replaced)
      continue;
    if (candidate.id === restated?.older.id || candidate.id === restated?.over.id) continue;
    const a = subjectOf(mine);
    const b = subjectOf(candidate);
    const mineNewer = a.at >= b.at;
    const decision = mineNewer ? decideLife(a, b, speakers, heldIn) : decideLife(b, a, speakers, heldIn);
    if (decision === undefined) continue;
    // A superseded memory is only merged into (the old fact again): it supersedes nothing, disagrees with nothing.
    if (candidate.life?.status === 'superseded' && decision.kind !== 'duplicate') continue;
    // A turn saying a replaced value again after its end says it holds again: a turn of its own, not a repeat.
    const ended = candidate.life?.validTo;
    if (decision.kind === 'duplicate' && mine.life?.turn !== undefined && ended !== undefined && a.at >= ended)
      continue;
    // A memory with an id of its own is that memory: never merged into another (a turn said again is).
    if (decision.kind === 'duplicate' && ownId && mine.life?.turn === undefined) continue;
    if (decision.kind === 'duplicate') {
      changed.set(candidate.id, repeated(candidate, mine, ctx.now, await startOf(writes, candidate, mine)));
      await write([...changed.values()]);
      report.ids.push(candidate.id);
      report.updated += 1;
      report.merged += 1;
      return;
    }
    if (decision.kind === 'supersedes') {
      if (mineNewer) {
        await mark(candidate, mine, decision.why);
        mine = withLife(mine, { ...mine.life, supersedes: union(mine.life?.supersedes, [candidate.id]) });
      } else if (mine.life?.status !== 'superseded') {
        // Remembered after it, but true before it: born superseded.
        mine = withLife(mine, {
          ...mine.life,
          status: 'superseded',
          validTo: b.at,
          supersededBy: candidate.id,
          why: decision.why,
        });
        changed.set(
          candidate.id,
          withLife(candidate, { ...candidate.life, supersedes: union(candidate.life?.supersedes, [mine.id]) }),
        );
        report.superseded.push({ id: mine.id, by: candidate.id, why: decision.why });
      }
      continue;
    }
    // An undecided conflict: both marked, each naming the other.
    if (mine.life?.status === undefined || mine.life.status === 'conflict') {
      mine = withLife(mine, {
        ...mine.life,
        status: 'conflict',
        conflictsWith: union(mine.life?.conflictsWith, [candidate.id]),
        why: decision.why,
      });
      changed.set(
        candidate.id,
        withLife(candidate, {
          ...candidate.life,
          ...(candidate.life?.status === undefined ? { status: 'conflict' as const } : {}),
          conflictsWith: union(candidate.life?.conflictsWith, [mine.id]),
          why: decision.why,
        }),
      );
      report.conflicts.push({ id: mine.id, with: candidate.id, why: decision.why });
    }
  }
  if (heir !== undefined) mine = inherit(mine, heir.older, free, heir.entry);
  // The older memories it marked are rewritten with it (their status is in the report, not counted as updates).
  await write([...changed.values(), mine]);
  report.ids.push(mine.id);
  report.inserted += 1;
}

/**
 * `existing` said again by `repeat`: counted (`seen`, `lastSeen`) with where the repeat came from (its source, or its
 * file when the existing memory has another). Its text is not written again: its date (when it became true) stays,
 * unless `from` (startOf) moves it back.
 */
function repeated(existing: MemoryRecord, repeat: MemoryRecord, now: number, from: number | undefined): MemoryRecord {
  return withLife(existing, {
    ...existing.life,
    ...(from === undefined ? {} : { validFrom: from }),
    seen: (existing.life?.seen ?? 1) + 1,
    lastSeen: seenAgain(existing, repeat, now),
    sources: union(
      existing.life?.sources,
      union(repeat.life?.sources, repeat.path !== undefined && repeat.path !== existing.path ? [repeat.path] : []),
    ),
  });
}

/**
 * When `existing`, said again by `repeat`, became true: its own time, or the repeat's `validFrom` when earlier (a
 * repeat saying the fact held before moves its start back, never forward: review E, item 14). A turn keeps its own
 * time. A start moved back past the end of a memory `existing` replaced is refused, naming it: nothing is changed.
 */
async function startOf(writes: Writes, existing: MemoryRecord, repeat: MemoryRecord): Promise<number | undefined> {
  const from = repeat.life?.validFrom;
  const start = existing.life?.validFrom ?? existing.createdAt;
  if (from === undefined || from >= start || existing.life?.turn !== undefined || repeat.life?.turn !== undefined)
    return existing.life?.validFrom;
  for (const id of existing.life?.supersedes ?? []) {
    const ended = (await writes.get(id))?.life?.validTo;
    if (ended !== undefined && from < ended)
      throw new CredenceError(
        'INVALID_INPUT',
        `validFrom: ${iso(from)} is before ${id}, which ${existing.id} replaced, ended (${iso(ended)}): nothing is ` +
          `changed; ${existing.id} holds from ${iso(start)}`,
      );
  }
  return from;
}

/** Whether `mine` says what `other` says: the same title and text, or the same memory written alike. */
const repeats = (mine: MemoryRecord, other: MemoryRecord, speakers: ReadonlySet<string>): boolean =>
  (mine.title === other.title && mine.text === other.text) ||
  decideLife(subjectOf(mine), subjectOf(other), speakers, heldIn)?.kind === 'duplicate';

/** How many links of supersession a restated memory is followed along to the memory holding now. @default 8 */
export const RESTATED_HOPS = 8;

/**
 * A note said again at `said` after what it said (`older`) was replaced: the memory holding now at the end of
 * `older`'s links of supersession (which the repeat, the newest word, supersedes). Undefined when `older` is not
 * superseded, or replaced only after `said`, or a link began after `said` (the repeat is older than it: it never
 * ends a memory before that began), or its links end at a memory gone or still superseded.
 */
async function restatedOver(writes: Writes, older: MemoryRecord, said: number): Promise<MemoryRecord | undefined> {
  const ended = older.life?.validTo;
  if (older.life?.status !== 'superseded' || older.life.turn !== undefined || ended === undefined || said < ended)
    return undefined;
  let end: MemoryRecord | undefined = older;
  for (let hop = 0; hop < RESTATED_HOPS && end?.life?.status === 'superseded'; hop += 1) {
    const by: string | undefined = end.life.supersededBy;
    end = by === undefined ? undefined : await writes.get(by);
    // A replacement that began after `said` is later than the repeat: never superseded by it (as `--supersedes`).
    if (end !== undefined && subjectOf(end).at > said) return undefined;
  }
  return end === undefined || end.life?.status === 'superseded' ? undefined : end;
}

/**
 * Where `named` leads when it was already replaced: along the memories that superseded it, the first that is not
 * superseded (`through`: the ids on the way, "mem-b, then mem-c"). A memory true from `at` replaces the current fact,
 * never rewrites when an older one ended: when a replacement on the way began after `at`, it is refused, naming the
 * whole chain and the time from which the end of it can be replaced (the latest start on the way).
 */
async function currentEnd(
  writes: Writes,
  named: MemoryRecord,
  at: number,
): Promise<{ end: MemoryRecord; through: string }> {
  let end = named;
  const path: { id: string; from: number }[] = [];
  while (end.life?.status === 'superseded' && end.life.supersededBy !== undefined) {
    const by = await writes.get(end.life.supersededBy);
    if (by === undefined || by.id === named.id || path.some((p) => p.id === by.id)) break;
    path.push({ id: by.id, from: subjectOf(by).at });
    end = by;
  }
  const latest = path.reduce((t, p) => Math.max(t, p.from), Number.NEGATIVE_INFINITY);
  if (latest > at) {
    const chain = path.map((p) => `${p.id} from ${iso(p.from)}`).join(', then ');
    const what = end.life?.status === 'superseded' ? 'the last one found' : 'the current one';
    throw new CredenceError(
      'INVALID_INPUT',
      `supersedes: ${named.id} was already superseded by ${chain} (${end.id}, ${what}), and a replacement began ` +
        `after this memory's time (${iso(at)}): nothing is changed; to replace ${end.id}, give a time from ` +
        `${iso(latest)} on`,
    );
  }
  return { end, through: path.map((p) => p.id).join(', then ') };
}

const iso = (ms: number): string => new Date(ms).toISOString();

/** `m` no longer in conflict with `id`: current again when it disagrees with nothing else. */
function withoutConflict(m: MemoryRecord, id: string): MemoryRecord {
  const rest = m.life?.conflictsWith?.filter((other) => other !== id);
  const current = m.life?.status === 'conflict' && (rest === undefined || rest.length === 0);
  return withLife(m, {
    ...m.life,
    conflictsWith: rest?.length === 0 ? undefined : rest,
    ...(current ? { status: undefined, why: undefined } : {}),
  });
}

/**
 * A note replacing `older` (not a turn) with no category (`free.category`) or no tags given takes `older`'s, and
 * says so in its report's why (`entry`): "kept DECISION and tags auth, jwt from <id>". Given ones win.
 */
function inherit(
  mine: MemoryRecord,
  older: MemoryRecord,
  free: { category: boolean; tags: boolean },
  entry: { why: string },
): MemoryRecord {
  if (mine.life?.turn !== undefined || older.life?.turn !== undefined) return mine;
  const category =
    free.category && older.category !== mine.category && !KEPT_CATEGORIES.has(String(older.category))
      ? older.category
      : undefined;
  const tags = free.tags && older.tags.length > 0 ? [...older.tags] : undefined;
  if (category === undefined && tags === undefined) return mine;
  const kept = [
    ...(category === undefined ? [] : [String(category).toUpperCase()]),
    ...(tags === undefined ? [] : [`tags ${tags.join(', ')}`]),
  ];
  entry.why += `; kept ${kept.join(' and ')} from ${older.id}`;
  return { ...mine, ...(category === undefined ? {} : { category }), ...(tags === undefined ? {} : { tags }) };
}

/**
 * A turn with a change cue: the search for its speaker's turns holding a word of the slots it names, the value it
 * says it left or a name it holds ("I moved to Denver" shares no word with "Home is Lisbon for me"; the others'
 * turns naming Lisbon can fill the first search), or undefined.
 */
function turnQuery(m: MemoryRecord): string | undefined {
  const speaker = m.life?.turn?.speaker;
  if (speaker === undefined || changeCue(m.text, true) === undefined) return undefined;
  const wanted = [
    ...[...slotsOf(m.text, true)].flatMap((slot) => LIFE_SLOTS[slot] ?? []),
    ...leftValues(m.text),
    ...namesIn(m.text),
  ];
  if (wanted.length === 0) return undefined;
  const who = buildFtsQuery(speaker, { mode: 'and' });
  const what = buildFtsQuery(wanted.join(' '));
  return who === undefined || what === undefined ? undefined : `(${who.match}) AND (${what.match})`;
}

/**
 * Before `forgotten` is deleted: the memories linked to it no longer are (issue 23). One it superseded is current
 * again (no status, no end, no reason), one in conflict with it alone is current; the links to it go. One it
 * superseded that was in conflict when superseded (it kept the links; remember settled the other side) is in that
 * conflict again with each of those still current, both sides marked, why saying so.
 */
export async function unlinkForgotten(store: MemoryStore, scope: string, forgotten: MemoryRecord): Promise<number> {
  const life = forgotten.life;
  const linked = [
    ...new Set([
      ...(life?.supersedes ?? []),
      ...(life?.conflictsWith ?? []),
      ...(life?.supersededBy === undefined ? [] : [life.supersededBy]),
    ]),
  ];
  if (linked.length === 0) return 0;
  const changed = new Map<string, MemoryRecord>();
  const latest = async (id: string): Promise<MemoryRecord | undefined> =>
    changed.get(id) ?? (await store.getMemory(scope, id));
  // The middle of a chain of replacements forgotten (walk 16, item 4): what it replaced was current until what replaced
  // it began, as if it had never been said, and is superseded by that one; it does not come back as current.
  const heirId = life?.status === 'superseded' ? life.supersededBy : undefined;
  const heir = heirId === undefined ? undefined : await latest(heirId);
  const revived: MemoryRecord[] = [];
  for (const id of linked) {
    const other = await latest(id);
    if (other === undefined) continue;
    const o = other.life ?? {};
    if (heir !== undefined && o.supersededBy === forgotten.id && other.id !== heir.id) {
      // Its why names what supersedes it now, not the forgotten one (review F 11: its id and words stayed).
      const why = `${heir.id} supersedes it; a memory between them was forgotten`;
      changed.set(
        id,
        withLife(other, { ...o, supersededBy: heir.id, validTo: heir.life?.validFrom ?? heir.createdAt, why }),
      );
      const h = (await latest(heir.id)) ?? heir;
      changed.set(
        heir.id,
        withLife(h, {
          ...h.life,
          supersedes: union(
            h.life?.supersedes?.filter((x) => x !== forgotten.id),
            [id],
          ),
        }),
      );
      continue;
    }
    const byIt = o.supersededBy === forgotten.id;
    const conflicts = o.conflictsWith?.filter((c) => c !== forgotten.id);
    const stillConflict = o.status === 'conflict' && conflicts !== undefined && conflicts.length > 0;
    const current = byIt || (o.status === 'conflict' && !stillConflict);
    const unlinked = withLife(other, {
      ...o,
      ...(current ? { status: undefined, validTo: undefined, why: undefined } : {}),
      supersededBy: byIt ? undefined : o.supersededBy,
      supersedes: o.supersedes?.filter((s) => s !== forgotten.id),
      conflictsWith: conflicts,
    });
    changed.set(id, unlinked);
    if (byIt) revived.push(unlinked);
  }
  for (const first of revived) {
    // As the revival of another side left it (its link back to that one added): never the snapshot from before.
    const back = changed.get(first.id) ?? first;
    const again: string[] = [];
    for (const id of back.life?.conflictsWith ?? []) {
      const other = await latest(id);
      if (other === undefined || other.life?.status === 'superseded') continue;
      again.push(id);
      const o = other.life ?? {};
      changed.set(
        id,
        withLife(other, {
          ...o,
          ...(o.status === undefined
            ? { status: 'conflict' as const, why: `in conflict with ${back.id} again: ${forgotten.id} was forgotten` }
            : {}),
          conflictsWith: union(o.conflictsWith, [back.id]),
        }),
      );
    }
    const b = back.life ?? {};
    changed.set(
      back.id,
      withLife(back, {
        ...b,
        conflictsWith: again.length === 0 ? undefined : again,
        ...(again.length === 0
          ? {}
          : {
              status: 'conflict' as const,
              why: `in conflict with ${again.join(', ')} again: ${forgotten.id}, which superseded it, was forgotten`,
            }),
      }),
    );
  }
  await store.upsertMemories(
    scope,
    [...changed.values()].map((m) => withLife(m, { ...m.life, ...emptyLists(m.life) })),
  );
  return changed.size;
}

const emptyLists = (life: MemoryLife | undefined): MemoryLife => ({
  ...(life?.supersedes?.length === 0 ? { supersedes: undefined } : {}),
  ...(life?.conflictsWith?.length === 0 ? { conflictsWith: undefined } : {}),
});
